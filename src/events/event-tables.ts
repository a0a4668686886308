import type { AreaTables } from "../shared/object-tables";
import { PROCESSED_EVENTS_MIGRATIONS } from "./processed-events";

/**
 * The events area's tables in a player's object: the recent events (src/events/recent-events.ts)
 * and how the archive names the player (src/events/archive-identity.ts), made at the player's
 * first event. The ids of applied events were this area's first two migrations; they are now an
 * area of their own (src/events/processed-events.ts), which this area's last migration registers
 * in the objects that have them. This area does not make them for a new player: the SCILL SDKs
 * send no `event_id`, and a player whose events carry none then keeps two b-trees fewer. Which
 * versions a deployment may roll back to because of this is in CHANGELOG.md.
 */
export const eventsTables: AreaTables = {
  area: "events",
  migrations: [
    ...PROCESSED_EVENTS_MIGRATIONS,
    "CREATE TABLE recent_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL)",
    "CREATE TABLE archive_identity (id INTEGER PRIMARY KEY CHECK (id = 1), user_ref TEXT NOT NULL)",
    // The tables of the first two migrations belong to the event-ids area: in the objects that have them, at its
    // version 2.
    "INSERT INTO schema_versions (area, version) VALUES ('event-ids', 2) ON CONFLICT (area) DO NOTHING",
  ],
  // recent_events' `seq` only orders the events kept, the newest of which stays: no AUTOINCREMENT.
  created: `CREATE TABLE recent_events (seq INTEGER PRIMARY KEY, event TEXT NOT NULL);
    CREATE TABLE archive_identity (id INTEGER PRIMARY KEY CHECK (id = 1), user_ref TEXT NOT NULL);`,
};
