import { notFound } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { conflictOnDuplicate, encodeColumns, keyClash, named } from "../../shared/statements";
import { fieldsOf } from "../../kit/catalog";
import { writeConfig, writeConfigRow } from "../../apps/config-write";
import { auditOf, type Actor } from "../../apps/audit-log";
import { toDef, type LeaderboardRow } from "../catalog";
import { presentAdmin } from "../core/present";
import { LeaderboardFields, type LeaderboardInput } from "./schemas";

/**
 * D1 access of the admin API's leaderboards. Writes go through writeConfig (the catalog version
 * moves with them); each is built by a `...Statement` function, which catalog documents use too.
 */

/** The row's columns: the admin input's fields but its key, in its order. */
const COLUMNS = fieldsOf(LeaderboardFields.shape, "key") as (keyof LeaderboardInput)[];
const ENCODING: Partial<Record<keyof LeaderboardInput, (value: never) => unknown>> = {
  name: JSON.stringify,
  event_name: (name: string | null) => name ?? "",
  filters: JSON.stringify,
  sort_order_ascending: (ascending: boolean) => (ascending ? 1 : 0),
  authoritative: (authoritative: boolean) => (authoritative ? 1 : 0),
};

/** A board without a schedule keeps no reset time or zone. */
const values = (input: LeaderboardInput) => {
  const scheduled = input.period_range !== null && input.period_range !== "never";
  return encodeColumns(
    COLUMNS,
    ENCODING,
    scheduled ? input : { ...input, period_range_reset_at_time: null, period_range_time_zone: null },
  );
};

/** The columns a board's input writes, by name. */
export const boardColumns = (input: LeaderboardInput) => named(COLUMNS, values(input));

/** Creates a board whose first season starts at `now`. */
export function insertBoardStatement(
  db: D1Database,
  appId: number,
  input: LeaderboardInput,
  now: number,
  nowIso: string,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO leaderboards (app_id, chosen_key, ${COLUMNS.join(", ")}, season_origin, created_at, updated_at)
       VALUES (?, ?, ${COLUMNS.map(() => "?").join(", ")}, ?, ?, ?) RETURNING *`,
    )
    .bind(appId, input.key ?? null, ...values(input), now, nowIso, nowIso);
}

/**
 * Replaces a board; a key left out keeps the current one. A new sort order or schedule starts a
 * new season at `now` (stored scores are keyed by the old order and seasons); every other change
 * applies to events from now on.
 */
export function updateBoardStatement(
  db: D1Database,
  current: LeaderboardRow,
  input: LeaderboardInput,
  now: number,
  nowIso: string,
): D1PreparedStatement {
  const columns = boardColumns(input);
  const restart =
    columns.sort_order_ascending !== current.sort_order_ascending ||
    (columns.period_range ?? "never") !== (current.period_range ?? "never") ||
    columns.period_range_reset_at_time !== current.period_range_reset_at_time ||
    columns.period_range_time_zone !== current.period_range_time_zone;
  return db
    .prepare(
      `UPDATE leaderboards SET chosen_key = COALESCE(?, chosen_key), ${COLUMNS.map((c) => `${c} = ?`).join(", ")}, season_origin = ?, updated_at = ?
       WHERE leaderboard_id = ? RETURNING *`,
    )
    .bind(input.key ?? null, ...values(input), restart ? now : current.season_origin, nowIso, current.leaderboard_id);
}

/** Its scores are removed by cron in bounded chunks (no cascade over millions of rows). */
export function deleteBoardStatement(db: D1Database, leaderboardId: number): D1PreparedStatement {
  return db.prepare("DELETE FROM leaderboards WHERE leaderboard_id = ?").bind(leaderboardId);
}

const boardAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "leaderboard");
/** A board as the admin API shows it. */
export const presentBoardRow = (row: LeaderboardRow, now: number) => presentAdmin(toDef(row), now);

export async function insertBoard(
  db: D1Database,
  appId: number,
  input: LeaderboardInput,
  now: number,
  nowIso: string,
  actor: Actor,
) {
  const statement = insertBoardStatement(db, appId, input, now, nowIso);
  const audit = boardAudit(actor, appId).created(input);
  return (await conflictOnDuplicate(keyClash("leaderboard", input.key), () =>
    writeConfigRow<LeaderboardRow>(db, appId, statement, audit),
  ))!;
}

export async function updateBoard(
  db: D1Database,
  current: LeaderboardRow,
  input: LeaderboardInput,
  now: number,
  nowIso: string,
  actor: Actor,
) {
  const statement = updateBoardStatement(db, current, input, now, nowIso);
  const audit = boardAudit(actor, current.app_id).updated(current.leaderboard_id, presentBoardRow(current, now), input);
  return (await conflictOnDuplicate(keyClash("leaderboard", input.key), () =>
    writeConfigRow<LeaderboardRow>(db, current.app_id, statement, audit),
  ))!;
}

/** Starts a new, empty season at `now` (SCILL's board reset); cron removes the old rows. */
export async function restartBoard(
  db: D1Database,
  board: LeaderboardRow,
  now: number,
  nowIso: string,
  actor: Actor,
): Promise<void> {
  const statement = db
    .prepare("UPDATE leaderboards SET season_origin = ?, updated_at = ? WHERE leaderboard_id = ?")
    .bind(now, nowIso, board.leaderboard_id);
  const audit = boardAudit(actor, board.app_id).updated(
    board.leaderboard_id,
    presentBoardRow(board, now),
    { season_started_at: nowIso },
    "reset",
  );
  await writeConfig(db, board.app_id, [statement], [audit]);
}

export async function requireBoard(db: D1Database, appId: number, boardId: string): Promise<LeaderboardRow> {
  const id = parseId(boardId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM leaderboards WHERE app_id = ? AND leaderboard_id = ?")
          .bind(appId, id)
          .first<LeaderboardRow>();
  if (!row) throw notFound(`Leaderboard ${boardId} not found`);
  return row;
}

/** A page by id; `search` (the console's) matches a part of the name, in any language, or of the event name. */
export async function listBoards(db: D1Database, appId: number, limit: number, offset: number, search = "") {
  const where =
    "app_id = ?1 AND (?2 = '' OR instr(lower(name), lower(?2)) > 0 OR instr(lower(event_name), lower(?2)) > 0)";
  const [rows, total] = await db.batch<LeaderboardRow | { n: number }>([
    db
      .prepare(`SELECT * FROM leaderboards WHERE ${where} ORDER BY leaderboard_id LIMIT ?3 OFFSET ?4`)
      .bind(appId, search, limit, offset),
    db.prepare(`SELECT COUNT(*) AS n FROM leaderboards WHERE ${where}`).bind(appId, search),
  ]);
  return { rows: rows.results as LeaderboardRow[], total: (total.results[0] as { n: number }).n };
}

export async function deleteBoard(db: D1Database, board: LeaderboardRow, now: number, actor: Actor): Promise<void> {
  const audit = boardAudit(actor, board.app_id).deleted(board.leaderboard_id, presentBoardRow(board, now));
  await writeConfig(db, board.app_id, [deleteBoardStatement(db, board.leaderboard_id)], [audit]);
}
