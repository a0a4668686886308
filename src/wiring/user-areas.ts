import type { UserArea, UserAreaClass, UserObjectContext } from "../user/area";
import type { AreaSchema, ObjectSchema } from "../user/schema";
import { USER_AREAS } from "../registry/areas";
import { eventsSchema, eventIdsSchema, eventRateSchema } from "../events/channel";
import { watchersSchema } from "../realtime/channel";
import { outboxSchema } from "./outbox";
import { erasureSchema } from "../players/user-erasure";
import { UserSeen } from "../players/user-seen";

/**
 * The areas of the user's object: the registered areas' parts (src/registry/areas.ts), in the
 * order an event applies to them, then the players' record of when the player was last seen.
 */
const AREAS: [string, UserAreaClass][] = [
  ...USER_AREAS.map(({ name, part }): [string, UserAreaClass] => [name, part.area]),
  ["seen", UserSeen],
];

/** The methods each area answers over RPC (UserDO.callArea). */
export const USER_AREA_RPC = new Map(USER_AREAS.map(({ name, part }) => [name, new Set(part.rpc)]));

export type UserAreas = Record<string, UserArea>;

/** The areas over the object's storage, each given its own tables' view. */
export function userAreas(schema: ObjectSchema, context: Omit<UserObjectContext, "sql">): UserAreas {
  return Object.fromEntries(
    AREAS.map(([name, Area]) => [name, new Area({ ...context, sql: schema.sqlFor(Area.schema) })]),
  );
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
  ...AREAS.map(([, Area]) => Area.schema),
];
