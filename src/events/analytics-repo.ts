import type { EventRecord } from "./core/event-record";
import { monthOf } from "./core/periods";
import { HOUR_MS, hourStart } from "./core/archive-layout";
import { chunkBy, chunkByJsonSize, jsonBytes } from "../shared/chunks";

/** Rows travel as one JSON parameter: D1 binds at most 100 parameters per statement. */
const MAX_JSON_PARAMETER_CHARS = 512 * 1024;
/**
 * Replay protection lasts this long: a message comes back only within its queue's retries (10,
 * each ending within an invocation's 15 minutes at worst), so 6 hours is more than twice the
 * longest redelivery. Kept short because a receipt is kept per event, so this window is what the
 * receipts take of D1 at a high event rate (docs/capacity.md).
 */
const EVENT_RECEIPT_HOURS = 6;
/**
 * Receipts are filed under the 2-hour period they were written in (its first hour, counted from
 * the epoch: the primary key's first column), so that expiring them is a range delete and a
 * receipt costs one row write, without an index on time. A message is looked up in each period a
 * receipt of it can still be kept in: four, each one seek of the primary key.
 */
const RECEIPT_PERIOD_HOURS = 2;
const receiptPeriod = (now: number) => Math.floor(now / HOUR_MS / RECEIPT_PERIOD_HOURS) * RECEIPT_PERIOD_HOURS;
const receiptPeriods = (now: number) =>
  JSON.stringify(
    Array.from(
      { length: EVENT_RECEIPT_HOURS / RECEIPT_PERIOD_HOURS + 1 },
      (_, i) => receiptPeriod(now) - i * RECEIPT_PERIOD_HOURS,
    ),
  );

const DAY_MS = 86_400_000;
/** Retention cells count a player active 1 to this many days after their first day. */
export const RETENTION_MAX_DAYS = 90;

/** Days from one UTC day (YYYY-MM-DD) to another. */
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS);

/**
 * A player's first event of a day adds `day` (active, and `new` when it is their first day) and,
 * 1 to 90 days after their first day, `cohort` (their first day: a retention cell).
 */
function activeDayFields(record: EventRecord): { day?: string; new?: number; cohort?: string } {
  const active = record.activeDay;
  if (!active) return {};
  const since = active.firstDay === null ? null : daysBetween(active.firstDay, active.day);
  return {
    day: active.day,
    new: active.firstDay === active.day ? 1 : 0,
    ...(active.firstDay !== null && since !== null && since >= 1 && since <= RETENTION_MAX_DAYS
      ? { cohort: active.firstDay }
      : {}),
  };
}

const row = (record: EventRecord) => ({
  id: record.id,
  app_id: Number(record.event.appId),
  event_name: record.event.eventName,
  hour: hourStart(record.event.receivedAt),
  month: monthOf(record.event.receivedAt),
  ...activeDayFields(record),
});

const field = (name: string) => `json_extract(r.value, '$.${name}')`;

/** Not counted before (?2: the receipt periods). */
const UNCOUNTED = `NOT EXISTS (SELECT 1 FROM event_receipts e
    WHERE e.period IN (SELECT value FROM json_each(?2)) AND e.message_id = ${field("id")})`;

/** Not counted before, of an app that still exists: an app's counts go with it. */
const FRESH = `${UNCOUNTED} AND EXISTS (SELECT 1 FROM apps WHERE apps.app_id = ${field("app_id")})`;

const SELECT_UNCOUNTED = `SELECT ${field("id")} AS id FROM json_each(?1) AS r WHERE ${UNCOUNTED}`;

// Both counts run before the receipts are written, in the same transaction, and only for
// messages without a receipt: a replayed queue batch adds nothing.
const COUNT_USAGE = `
  INSERT INTO usage_counters (app_id, month, metric, count)
  SELECT ${field("app_id")}, ${field("month")}, 'events', COUNT(*)
  FROM json_each(?1) AS r WHERE ${FRESH}
  GROUP BY 1, 2
  ON CONFLICT (app_id, month, metric) DO UPDATE SET count = count + excluded.count`;

const COUNT_HOURS = `
  INSERT INTO event_counts (app_id, hour, event_name, count)
  SELECT ${field("app_id")}, ${field("hour")}, ${field("event_name")}, COUNT(*)
  FROM json_each(?1) AS r WHERE ${FRESH}
  GROUP BY 1, 2, 3
  ON CONFLICT (app_id, hour, event_name) DO UPDATE SET count = count + excluded.count`;

const COUNT_PLAYER_DAYS = `
  INSERT INTO player_days (app_id, day, active, new)
  SELECT ${field("app_id")}, ${field("day")}, COUNT(*), SUM(${field("new")})
  FROM json_each(?1) AS r WHERE ${field("day")} IS NOT NULL AND ${FRESH}
  GROUP BY 1, 2
  ON CONFLICT (app_id, day) DO UPDATE SET active = active + excluded.active, new = new + excluded.new`;

const COUNT_RETENTION = `
  INSERT INTO player_retention (app_id, first_day, active_day, players)
  SELECT ${field("app_id")}, ${field("cohort")}, ${field("day")}, COUNT(*)
  FROM json_each(?1) AS r WHERE ${field("cohort")} IS NOT NULL AND ${FRESH}
  GROUP BY 1, 2, 3
  ON CONFLICT (app_id, first_day, active_day) DO UPDATE SET players = players + excluded.players`;

const RECORD_RECEIPTS = `
  INSERT INTO event_receipts (period, message_id)
  SELECT ?3, ${field("id")} FROM json_each(?1) AS r WHERE ${FRESH}
  ON CONFLICT (period, message_id) DO NOTHING`;

/** The records that no earlier delivery counted: what is left to archive and count. */
export async function uncountedEvents(db: D1Database, records: EventRecord[], now: number): Promise<EventRecord[]> {
  if (records.length === 0) return [];
  const periods = receiptPeriods(now);
  const results = await db.batch<{ id: string }>(
    chunkByJsonSize(records.map(row), MAX_JSON_PARAMETER_CHARS).map((json) =>
      db.prepare(SELECT_UNCOUNTED).bind(json, periods),
    ),
  );
  const fresh = new Set(results.flatMap((r) => r.results.map((x) => x.id)));
  return records.filter((r) => fresh.has(r.id));
}

/**
 * Counts accepted events per app, UTC hour and event name and toward their app's monthly usage,
 * the players' first events of a day per app and day (active, new) and as retention cells, and
 * keeps a receipt of each message, in one D1 transaction. The raw events are in the archive.
 */
export async function recordEvents(db: D1Database, records: EventRecord[], now: number): Promise<void> {
  if (records.length === 0) return;
  const periods = receiptPeriods(now);
  const chunks = chunkBy(records.map(row), jsonBytes, Number.POSITIVE_INFINITY, MAX_JSON_PARAMETER_CHARS);
  const statements = chunks.flatMap((chunk) => {
    const json = JSON.stringify(chunk);
    // Most events are not a player's first of the day: their chunks skip the players' statements.
    const days = chunk.some((r) => r.day !== undefined);
    const cells = chunk.some((r) => r.cohort !== undefined);
    return [
      db.prepare(COUNT_USAGE).bind(json, periods),
      db.prepare(COUNT_HOURS).bind(json, periods),
      ...(days ? [db.prepare(COUNT_PLAYER_DAYS).bind(json, periods)] : []),
      ...(cells ? [db.prepare(COUNT_RETENTION).bind(json, periods)] : []),
      db.prepare(RECORD_RECEIPTS).bind(json, periods, receiptPeriod(now)),
    ];
  });
  await db.batch(statements);
}

export interface EventCounts {
  total: number;
  byName: { event_name: string; count: number }[];
  byDay: Map<string, number>;
}

/** Counts of an app's events received in the UTC hours that start in [from, to), by event name and by UTC day. */
export async function countEvents(db: D1Database, appId: number, from: number, to: number): Promise<EventCounts> {
  const where = "WHERE app_id = ?1 AND hour >= ?2 AND hour < ?3";
  const [byName, byDay] = await db.batch<{ event_name: string; day: string; count: number }>([
    db
      .prepare(
        `SELECT event_name, SUM(count) AS count FROM event_counts ${where} GROUP BY event_name ORDER BY count DESC, event_name`,
      )
      .bind(appId, from, to),
    db
      .prepare(
        `SELECT strftime('%Y-%m-%d', hour / 1000, 'unixepoch') AS day, SUM(count) AS count FROM event_counts ${where} GROUP BY day`,
      )
      .bind(appId, from, to),
  ]);
  const names = byName.results.map((r) => ({ event_name: r.event_name, count: r.count }));
  return {
    total: names.reduce((sum, r) => sum + r.count, 0),
    byName: names,
    byDay: new Map(byDay.results.map((r) => [r.day, r.count])),
  };
}

/** Rows one statement deletes, and one cron run at most: runs stay short whatever piled up. */
const PRUNE_CHUNK = 10_000;
const PRUNE_BUDGET = 100_000;

/** Runs a bounded DELETE (bound to the chunk size) until it deletes less than a chunk or the budget is spent. */
async function deleteInChunks(statement: D1PreparedStatement): Promise<number> {
  let deleted = 0;
  while (deleted < PRUNE_BUDGET) {
    const { changes } = (await statement.run()).meta;
    deleted += changes;
    if (changes < PRUNE_CHUNK) break;
  }
  return deleted;
}

/** Drops the counts of hours that ended by `before` (retention). */
export function pruneEventCounts(db: D1Database, before: number): Promise<number> {
  return deleteInChunks(
    db
      .prepare(
        `DELETE FROM event_counts WHERE (app_id, hour, event_name) IN (
           SELECT app_id, hour, event_name FROM event_counts WHERE hour <= ? ORDER BY hour LIMIT ?)`,
      )
      .bind(before - HOUR_MS, PRUNE_CHUNK),
  );
}

/** Drops the receipts of periods that ended EVENT_RECEIPT_HOURS ago: their messages can no longer come back. */
export function pruneEventReceipts(db: D1Database, now: number): Promise<number> {
  return deleteInChunks(
    db
      .prepare(
        `DELETE FROM event_receipts WHERE (period, message_id) IN (
           SELECT period, message_id FROM event_receipts WHERE period < ? ORDER BY period LIMIT ?)`,
      )
      .bind(receiptPeriod(now) - EVENT_RECEIPT_HOURS, PRUNE_CHUNK),
  );
}
