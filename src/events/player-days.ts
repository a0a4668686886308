import { HOUR_MS, hourStart } from "./core/archive-layout";

/**
 * The read side of the players per day and retention cells (migrations/0015_player_days.sql),
 * which the background consumer writes with the event counts (analytics-store.ts), and the cron's
 * retention of them. Days are UTC days as YYYY-MM-DD.
 */

export interface PlayerDayRow {
  day: string;
  active: number;
  new: number;
}

export interface RetentionCell {
  first_day: string;
  active_day: string;
  players: number;
}

/** Rows of the app's days in [from, to] (both included), by day. */
export async function readPlayerDays(db: D1Database, appId: number, from: string, to: string): Promise<PlayerDayRow[]> {
  const rows = await db
    .prepare("SELECT day, active, new FROM player_days WHERE app_id = ? AND day >= ? AND day <= ? ORDER BY day")
    .bind(appId, from, to)
    .all<PlayerDayRow>();
  return rows.results;
}

/** The retention cells of players first seen in [from, to], at the given days since their first day. */
export async function readRetentionCells(
  db: D1Database,
  appId: number,
  from: string,
  to: string,
): Promise<RetentionCell[]> {
  const rows = await db
    .prepare(
      `SELECT first_day, active_day, players FROM player_retention
       WHERE app_id = ? AND first_day >= ? AND first_day <= ? ORDER BY first_day, active_day`,
    )
    .bind(appId, from, to)
    .all<RetentionCell>();
  return rows.results;
}

/** The app's first day with players counted: where its players per day start, or null before any. */
export async function playerDataStart(db: D1Database, appId: number): Promise<string | null> {
  const row = await db
    .prepare("SELECT day FROM player_days WHERE app_id = ? ORDER BY day LIMIT 1")
    .bind(appId)
    .first<{ day: string }>();
  return row?.day ?? null;
}

/** The app's events in each of the `hours` UTC hours that end with the current one, oldest first. */
export async function eventsByHour(
  db: D1Database,
  appId: number,
  now: number,
  hours: number,
): Promise<{ hour: number; count: number }[]> {
  const last = hourStart(now);
  const first = last - (hours - 1) * HOUR_MS;
  const rows = await db
    .prepare(
      "SELECT hour, SUM(count) AS count FROM event_counts WHERE app_id = ? AND hour >= ? AND hour <= ? GROUP BY hour",
    )
    .bind(appId, first, last)
    .all<{ hour: number; count: number }>();
  const counts = new Map(rows.results.map((r) => [r.hour, r.count]));
  return Array.from({ length: hours }, (_, i) => {
    const hour = first + i * HOUR_MS;
    return { hour, count: counts.get(hour) ?? 0 };
  });
}

/** The app's events by name received in the UTC hours that start in [from, to). */
export async function eventNameCounts(
  db: D1Database,
  appId: number,
  from: number,
  to: number,
): Promise<{ event_name: string; count: number }[]> {
  const rows = await db
    .prepare(
      `SELECT event_name, SUM(count) AS count FROM event_counts WHERE app_id = ? AND hour >= ? AND hour < ?
       GROUP BY event_name ORDER BY count DESC, event_name`,
    )
    .bind(appId, from, to)
    .all<{ event_name: string; count: number }>();
  return rows.results;
}

/** Rows one statement deletes at most: a cron run stays short whatever piled up. */
const PRUNE_CHUNK = 10_000;

/** Drops the players per day and the retention cells of first days before `beforeDay` (retention). */
export async function prunePlayerDays(db: D1Database, beforeDay: string): Promise<number> {
  const [days, cells] = await db.batch([
    db
      .prepare(
        `DELETE FROM player_days WHERE (app_id, day) IN (
           SELECT app_id, day FROM player_days WHERE day < ? ORDER BY day LIMIT ?)`,
      )
      .bind(beforeDay, PRUNE_CHUNK),
    db
      .prepare(
        `DELETE FROM player_retention WHERE (app_id, first_day, active_day) IN (
           SELECT app_id, first_day, active_day FROM player_retention WHERE first_day < ? ORDER BY first_day LIMIT ?)`,
      )
      .bind(beforeDay, PRUNE_CHUNK),
  ]);
  return days.meta.changes + cells.meta.changes;
}
