import type { UserEvent } from "../user/event";
import { monthOf } from "./core/periods";
import { chunkByJsonSize } from "../shared/chunks";

/** An accepted event as the background queue delivered it; `id` is the queue message's id. */
export interface EventRecord {
  id: string;
  event: UserEvent;
}

/** Rows travel as one JSON parameter: D1 binds at most 100 parameters per statement. */
const MAX_JSON_PARAMETER_CHARS = 512 * 1024;

const row = ({ id, event }: EventRecord) => ({
  id,
  app_id: Number(event.appId),
  user_id: event.userId,
  team_id: event.teamId,
  event_name: event.eventName,
  event_type: event.eventType,
  session_id: event.sessionId,
  meta_data: event.metaData,
  event_id: event.eventId,
  received_at: event.receivedAt,
  month: monthOf(event.receivedAt),
});

const field = (name: string) => `json_extract(r.value, '$.${name}')`;

// Counted before the rows are inserted, and only for rows not yet present: a replayed queue
// batch then adds neither rows nor counts. Events of a deleted app are dropped.
const COUNT_NEW_EVENTS = `
  INSERT INTO usage_counters (app_id, month, metric, count)
  SELECT ${field("app_id")}, ${field("month")}, 'events', COUNT(*)
  FROM json_each(?1) AS r
  WHERE NOT EXISTS (SELECT 1 FROM analytics_events a WHERE a.id = ${field("id")})
    AND EXISTS (SELECT 1 FROM apps WHERE apps.app_id = ${field("app_id")})
  GROUP BY 1, 2
  ON CONFLICT (app_id, month, metric) DO UPDATE SET count = count + excluded.count`;

const INSERT_EVENTS = `
  INSERT OR IGNORE INTO analytics_events
    (id, app_id, user_id, team_id, event_name, event_type, session_id, meta_data, event_id, received_at)
  SELECT ${["id", "app_id", "user_id", "team_id", "event_name", "event_type", "session_id"].map(field).join(", ")},
    json(${field("meta_data")}), ${field("event_id")}, ${field("received_at")}
  FROM json_each(?1) AS r
  WHERE EXISTS (SELECT 1 FROM apps WHERE apps.app_id = ${field("app_id")})`;

/** Keeps accepted events for analytics and counts them toward their app's monthly usage, in one D1 batch. */
export async function recordEvents(db: D1Database, records: EventRecord[]): Promise<void> {
  if (records.length === 0) return;
  const statements = chunkByJsonSize(records.map(row), MAX_JSON_PARAMETER_CHARS).flatMap((json) => [
    db.prepare(COUNT_NEW_EVENTS).bind(json),
    db.prepare(INSERT_EVENTS).bind(json),
  ]);
  await db.batch(statements);
}

export interface EventCounts {
  total: number;
  byName: { event_name: string; count: number }[];
  byDay: Map<string, number>;
}

/** Counts of an app's events received in [from, to), by event name and by UTC day. */
export async function countEvents(db: D1Database, appId: number, from: number, to: number): Promise<EventCounts> {
  const where = "WHERE app_id = ?1 AND received_at >= ?2 AND received_at < ?3";
  const [byName, byDay] = await db.batch<{ event_name: string; day: string; count: number }>([
    db.prepare(`SELECT event_name, COUNT(*) AS count FROM analytics_events ${where} GROUP BY event_name ORDER BY count DESC, event_name`)
      .bind(appId, from, to),
    db.prepare(
      `SELECT strftime('%Y-%m-%d', received_at / 1000, 'unixepoch') AS day, COUNT(*) AS count FROM analytics_events ${where} GROUP BY day`,
    ).bind(appId, from, to),
  ]);
  const names = byName.results.map((r) => ({ event_name: r.event_name, count: r.count }));
  return {
    total: names.reduce((sum, r) => sum + r.count, 0),
    byName: names,
    byDay: new Map(byDay.results.map((r) => [r.day, r.count])),
  };
}

/** Rows deleted per cron run: the minute cron catches up with large backlogs in bounded steps. */
const PRUNE_BATCH = 5000;

/** Drops analytics events received before `before` (retention). */
export async function pruneAnalytics(db: D1Database, before: number): Promise<number> {
  const result = await db
    .prepare(
      "DELETE FROM analytics_events WHERE rowid IN (SELECT rowid FROM analytics_events WHERE received_at < ? ORDER BY received_at LIMIT ?)",
    )
    .bind(before, PRUNE_BATCH)
    .run();
  return result.meta.changes;
}
