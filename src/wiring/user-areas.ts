import type { UserAreaClass, UserObjectContext } from "../user/area";
import type { AreaSchema, ObjectSchema } from "../user/schema";
import { eventsSchema } from "../events/events-schema";
import { eventIdsSchema } from "../events/processed-events";
import { eventRateSchema } from "../events/user-rate";
import { UserBoardPace } from "../leaderboards/user-pace";
import { watchersSchema } from "../realtime/watchers";
import { UserBattlePasses } from "../battlepasses/user-progress";
import { UserChallenges } from "../challenges/user-challenges";
import { outboxSchema } from "./outbox";
import { erasureSchema } from "../players/user-erasure";
import { UserSeen } from "../players/user-seen";
import { UserPoints } from "../points/user-points";

/**
 * The areas of the user's object, in the order an event applies to them (a battle pass counts the
 * event before a challenge's completion could be reported). Adding an area is one line here.
 */
const AREAS = {
  battlePasses: UserBattlePasses,
  challenges: UserChallenges,
  points: UserPoints,
  leaderboardPace: UserBoardPace,
  seen: UserSeen,
} satisfies Record<string, UserAreaClass>;

export type UserAreas = { [K in keyof typeof AREAS]: InstanceType<(typeof AREAS)[K]> };

/** The areas over the object's storage, each given its own tables' view. */
export function userAreas(schema: ObjectSchema, context: Omit<UserObjectContext, "sql">): UserAreas {
  return Object.fromEntries(
    Object.entries(AREAS).map(([name, Area]) => [name, new Area({ ...context, sql: schema.sqlFor(Area.schema) })]),
  ) as UserAreas;
}

/** Every table set of the user's object, in the order their migrations run: the object's own and its areas'. */
export const USER_OBJECT_SCHEMAS: AreaSchema[] = [
  eventsSchema,
  // After the events area, whose last migration registers it in objects made before it was split off.
  eventIdsSchema,
  eventRateSchema,
  outboxSchema,
  watchersSchema,
  erasureSchema,
  ...Object.values(AREAS).map((Area) => Area.schema),
];
