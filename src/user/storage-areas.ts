import type { AreaSchema } from "./schema";
import { eventsSchema } from "../events/processed-events";
import { battlePassSchema } from "../battlepasses/user-store";
import { challengesSchema } from "../challenges/user-store";
import { outboxSchema } from "./outbox";
import { watchersSchema } from "../realtime/watchers";

/** Every area that keeps tables in the user's object, in the order their migrations run. */
export const USER_STORAGE_AREAS: AreaSchema[] = [eventsSchema, battlePassSchema, challengesSchema, outboxSchema, watchersSchema];
