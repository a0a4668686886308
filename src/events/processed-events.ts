import type { AreaTables, AreaSql } from "../shared/object-tables";

/**
 * The event ids a user's object has applied, so that a retried event (same `event_id`) is
 * acknowledged without being applied again. Ids are kept for IDEMPOTENCY_WINDOW_MS, well beyond
 * the promised 24 hours, and pruned as new ids arrive. An area of its own, whose tables are made
 * at the first event that carries an id: the SCILL SDKs send none, and a player without them
 * keeps two b-trees fewer.
 */
export const IDEMPOTENCY_WINDOW_MS = 48 * 3600 * 1000;

/**
 * The tables' first two migrations, which are also the events area's first two
 * (src/events/event-tables.ts): objects made before the ids were an area of their own have them
 * that way. Never changed; a later
 * version of these tables is a migration appended to this area's.
 */
export const PROCESSED_EVENTS_MIGRATIONS = [
  "CREATE TABLE processed_events (event_id TEXT PRIMARY KEY, processed_at INTEGER NOT NULL)",
  "CREATE INDEX processed_events_by_time ON processed_events (processed_at)",
];

export const eventIdsTables: AreaTables = {
  area: "event-ids",
  migrations: PROCESSED_EVENTS_MIGRATIONS,
  created: `${PROCESSED_EVENTS_MIGRATIONS[0]} WITHOUT ROWID; ${PROCESSED_EVENTS_MIGRATIONS[1]};`,
};

export function wasProcessed(sql: AreaSql, eventId: string): boolean {
  return sql.exec("SELECT 1 FROM processed_events WHERE event_id = ?", eventId).toArray().length > 0;
}

export function recordProcessed(sql: AreaSql, eventId: string, at: number): void {
  sql.exec("DELETE FROM processed_events WHERE processed_at < ?", at - IDEMPOTENCY_WINDOW_MS);
  sql.exec("INSERT INTO processed_events (event_id, processed_at) VALUES (?, ?)", eventId, at);
}
