import type { UserArea, UserAreaClass, UserObjectContext } from "../user/area";
import type { AreaTables, ObjectTables } from "../shared/object-tables";
import { USER_AREAS } from "../registry/areas";
import { eventsTables, eventIdsTables, eventRateTables } from "../events/channel";
import { watchersTables } from "../realtime/channel";
import { outboxTables } from "./outbox";
import { erasureTables } from "../players/user-erasure";
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
export function userAreas(tables: ObjectTables, context: Omit<UserObjectContext, "sql">): UserAreas {
  return Object.fromEntries(
    AREAS.map(([name, Area]) => [name, new Area({ ...context, sql: tables.sqlFor(Area.tables) })]),
  );
}

/** Every table set of the user's object, in the order their migrations run: the object's own and its areas'. */
export const USER_OBJECT_TABLES: AreaTables[] = [
  eventsTables,
  // After the events area, whose last migration registers it in objects made before it was split off.
  eventIdsTables,
  eventRateTables,
  outboxTables,
  watchersTables,
  erasureTables,
  ...AREAS.map(([, Area]) => Area.tables),
];
