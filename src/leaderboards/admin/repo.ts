import { notFound } from "../../shared/errors";
import { parseId } from "../../shared/ids";
import { writeConfig, writeConfigRow } from "../../apps/config-write";
import type { LeaderboardRow } from "../catalog";
import { deleteBoardFlagsStatement } from "../flag-store";
import type { LeaderboardInput } from "./schemas";

/** D1 access of the admin API's leaderboards. Writes go through writeConfig (the catalog version moves with them). */

const columns = (input: LeaderboardInput) => {
  const scheduled = input.period_range !== null && input.period_range !== "never";
  return [
    JSON.stringify(input.name),
    input.event_name,
    input.value_field,
    JSON.stringify(input.filters),
    input.aggregation,
    input.sort_order_ascending ? 1 : 0,
    input.period_range,
    scheduled ? input.period_range_reset_at_time : null,
    scheduled ? input.period_range_time_zone : null,
    input.authoritative ? 1 : 0,
    input.min_value,
    input.max_value,
    input.max_events_per_minute,
  ];
};

export async function insertBoard(db: D1Database, appId: number, input: LeaderboardInput, now: number, nowIso: string) {
  const statement = db
    .prepare(
      `INSERT INTO leaderboards (app_id, name, event_name, value_field, filters, aggregation, sort_order_ascending,
         period_range, period_range_reset_at_time, period_range_time_zone, authoritative, min_value, max_value, max_events_per_minute,
         season_origin, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
    )
    .bind(appId, ...columns(input), now, nowIso, nowIso);
  return (await writeConfigRow<LeaderboardRow>(db, appId, statement))!;
}

/**
 * Replaces a board. A new sort order or schedule starts a new season at `now` (stored scores are
 * keyed by the old order and seasons); every other change applies to events from now on.
 */
export async function updateBoard(db: D1Database, current: LeaderboardRow, input: LeaderboardInput, now: number, nowIso: string) {
  const values = columns(input);
  const [, , , , , ascending, range, time, zone] = values;
  const restart =
    ascending !== current.sort_order_ascending ||
    (range ?? "never") !== (current.period_range ?? "never") ||
    time !== current.period_range_reset_at_time ||
    zone !== current.period_range_time_zone;
  const statement = db
    .prepare(
      `UPDATE leaderboards SET name = ?, event_name = ?, value_field = ?, filters = ?, aggregation = ?, sort_order_ascending = ?,
         period_range = ?, period_range_reset_at_time = ?, period_range_time_zone = ?, authoritative = ?, min_value = ?, max_value = ?,
         max_events_per_minute = ?, season_origin = ?, updated_at = ?
       WHERE leaderboard_id = ? RETURNING *`,
    )
    .bind(...values, restart ? now : current.season_origin, nowIso, current.leaderboard_id);
  return (await writeConfigRow<LeaderboardRow>(db, current.app_id, statement))!;
}

/** Starts a new, empty season at `now` (SCILL's board reset); cron removes the old rows. */
export async function restartBoard(db: D1Database, board: LeaderboardRow, now: number, nowIso: string): Promise<void> {
  const statement = db.prepare("UPDATE leaderboards SET season_origin = ?, updated_at = ? WHERE leaderboard_id = ?").bind(now, nowIso, board.leaderboard_id);
  await writeConfig(db, board.app_id, [statement]);
}

export async function requireBoard(db: D1Database, appId: number, boardId: string): Promise<LeaderboardRow> {
  const id = parseId(boardId);
  const row =
    id === null
      ? null
      : await db.prepare("SELECT * FROM leaderboards WHERE app_id = ? AND leaderboard_id = ?").bind(appId, id).first<LeaderboardRow>();
  if (!row) throw notFound(`Leaderboard ${boardId} not found`);
  return row;
}

export async function listBoards(db: D1Database, appId: number, limit: number, offset: number) {
  const [rows, total] = await db.batch<LeaderboardRow | { n: number }>([
    db.prepare("SELECT * FROM leaderboards WHERE app_id = ? ORDER BY leaderboard_id LIMIT ? OFFSET ?").bind(appId, limit, offset),
    db.prepare("SELECT COUNT(*) AS n FROM leaderboards WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as LeaderboardRow[], total: (total.results[0] as { n: number }).n };
}

/** Deletes the board and its review queue; its scores are removed by cron in bounded chunks (no cascade over millions of rows). */
export async function deleteBoard(db: D1Database, board: LeaderboardRow): Promise<void> {
  await writeConfig(db, board.app_id, [
    db.prepare("DELETE FROM leaderboards WHERE leaderboard_id = ?").bind(board.leaderboard_id),
    deleteBoardFlagsStatement(db, board.leaderboard_id),
  ]);
}
