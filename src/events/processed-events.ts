import type { AreaSchema, AreaSql } from "../user/schema";

/**
 * The event ids a user's object has applied, so that a retried event (same `event_id`) is
 * acknowledged without being applied again. Ids are kept for IDEMPOTENCY_WINDOW_MS, well beyond
 * the promised 24 hours, and pruned as new ids arrive.
 */
export const IDEMPOTENCY_WINDOW_MS = 48 * 3600 * 1000;

export const eventsSchema: AreaSchema = {
  area: "events",
  migrations: [
    "CREATE TABLE processed_events (event_id TEXT PRIMARY KEY, processed_at INTEGER NOT NULL)",
    "CREATE INDEX processed_events_by_time ON processed_events (processed_at)",
    // src/events/recent-events.ts
    "CREATE TABLE recent_events (seq INTEGER PRIMARY KEY AUTOINCREMENT, event TEXT NOT NULL)",
    // src/events/archive-identity.ts
    "CREATE TABLE archive_identity (id INTEGER PRIMARY KEY CHECK (id = 1), user_ref TEXT NOT NULL)",
  ],
  // recent_events' `seq` only orders the events kept, the newest of which stays: no AUTOINCREMENT.
  created: `CREATE TABLE processed_events (event_id TEXT PRIMARY KEY, processed_at INTEGER NOT NULL) WITHOUT ROWID;
    CREATE INDEX processed_events_by_time ON processed_events (processed_at);
    CREATE TABLE recent_events (seq INTEGER PRIMARY KEY, event TEXT NOT NULL);
    CREATE TABLE archive_identity (id INTEGER PRIMARY KEY CHECK (id = 1), user_ref TEXT NOT NULL);`,
};

export function wasProcessed(sql: AreaSql, eventId: string): boolean {
  return sql.exec("SELECT 1 FROM processed_events WHERE event_id = ?", eventId).toArray().length > 0;
}

export function recordProcessed(sql: AreaSql, eventId: string, at: number): void {
  sql.exec("DELETE FROM processed_events WHERE processed_at < ?", at - IDEMPOTENCY_WINDOW_MS);
  sql.exec("INSERT INTO processed_events (event_id, processed_at) VALUES (?, ?)", eventId, at);
}
