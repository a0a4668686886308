import { toDef, type LeaderboardRow } from "./catalog";
import { currentSeason } from "./core/season";
import { DELETE_MEMBER_SQL, PURGE_SEASON_SQL } from "./rank-index";
import { playerClaimPrefix } from "./core/contributions";
import { pruneFlags } from "./flag-repo";

/** Replay protection lasts this long: far beyond any queue redelivery of a failed batch. */
export const APPLIED_EVENTS_TTL_MS = 24 * 3600 * 1000;
/** Rows one cron run deletes at most, so that a run stays short whatever was left behind. */
const PURGE_BUDGET = 50_000;
const PURGE_CHUNK = 10_000;

/**
 * Cron's part (every minute). A new season needs no work at its start: seasons are computed from
 * the clock (core/season.ts), so readers and writers switch at the reset instant. What remains
 * is removing the rows of past seasons and of deleted boards, in bounded chunks, forgetting
 * replay claims after their TTL, and dropping review-queue flags past their retention.
 */
export async function runLeaderboardMaintenance(env: Env, now: number): Promise<void> {
  const db = env.DB;
  const seasons = await db
    .prepare(
      `SELECT s.leaderboard_id AS sid, s.season AS season, l.* FROM leaderboard_seasons s
       LEFT JOIN leaderboards l ON l.leaderboard_id = s.leaderboard_id`,
    )
    .all<Partial<LeaderboardRow> & { sid: number; season: number }>();
  let budget = PURGE_BUDGET;
  for (const row of seasons.results) {
    if (budget <= 0) break;
    const board = row.leaderboard_id == null ? null : toDef(row as LeaderboardRow);
    // A negative season holds the hidden rows of banned players of that season (rank-index.ts).
    if (board && currentSeason(board, now) === Math.abs(row.season)) continue;
    budget -= await purgeSeason(db, row.sid, row.season, Math.min(PURGE_CHUNK, budget));
  }
  await forgetOldClaims(db, now);
  await pruneFlags(db, now);
}

/** Up to PURGE_BUDGET expired claims per run: keeps up with about 70 million events a day. */
async function forgetOldClaims(db: D1Database, now: number): Promise<void> {
  const expire = db.prepare(
    `DELETE FROM leaderboard_applied_events WHERE dedup_key IN (
       SELECT dedup_key FROM leaderboard_applied_events WHERE applied_at < ? ORDER BY applied_at LIMIT ?)`,
  );
  for (let deleted = 0; deleted < PURGE_BUDGET; deleted += PURGE_CHUNK) {
    const result = await expire.bind(now - APPLIED_EVENTS_TTL_MS, PURGE_CHUNK).run();
    if (result.meta.changes < PURGE_CHUNK) break;
  }
}

/** Deletes up to `limit` rows and counts of a season; forgets the season once it is empty. */
async function purgeSeason(db: D1Database, boardId: number, season: number, limit: number): Promise<number> {
  const [rows, counts] = await db.batch(PURGE_SEASON_SQL.map((sql) => db.prepare(sql).bind(boardId, season, limit)));
  const deleted = rows.meta.changes + counts.meta.changes;
  if (rows.meta.changes < limit && counts.meta.changes < limit) {
    await db
      .prepare("DELETE FROM leaderboard_seasons WHERE leaderboard_id = ? AND season = ?")
      .bind(boardId, season)
      .run();
  }
  return deleted;
}

/**
 * Removes a member from the given boards, in every season, hidden rows of a banned player
 * included (SCILL's member reset; an operator's removal of one entry). Members behind move up:
 * the rank index moves with the rows. Answers how many rows went.
 */
export async function deleteMemberScores(
  db: D1Database,
  boardIds: string[],
  memberType: string,
  memberId: string,
): Promise<number> {
  if (boardIds.length === 0) return 0;
  const boards = JSON.stringify(boardIds.map(Number));
  const results = await db.batch(DELETE_MEMBER_SQL.map((sql) => db.prepare(sql).bind(boards, memberType, memberId)));
  return results[results.length - 1].meta.changes;
}

/**
 * Erasing a player: their rows, in every season, on each board of the app and on boards deleted
 * but not yet purged (their app is no longer known; such rows are garbage either way), by primary
 * key; and the replay claims of their events, one range of keys. A team's rows keep their scores:
 * they name no one.
 */
export async function playerScoreStatements(
  db: D1Database,
  appId: number,
  userId: string,
  subject: string,
): Promise<D1PreparedStatement[]> {
  const boards = await db
    .prepare(
      `SELECT leaderboard_id FROM leaderboards WHERE app_id = ?
       UNION SELECT s.leaderboard_id FROM leaderboard_seasons s WHERE NOT EXISTS (SELECT 1 FROM leaderboards l WHERE l.leaderboard_id = s.leaderboard_id)`,
    )
    .bind(appId)
    .all<{ leaderboard_id: number }>();
  const boardIds = JSON.stringify(boards.results.map((b) => b.leaderboard_id));
  const prefix = playerClaimPrefix(appId, subject);
  // The keys just above the prefix: its last character (':') plus one.
  const claims = db
    .prepare("DELETE FROM leaderboard_applied_events WHERE dedup_key >= ? AND dedup_key < ?")
    .bind(prefix, `${prefix.slice(0, -1)};`);
  return [...DELETE_MEMBER_SQL.map((sql) => db.prepare(sql).bind(boardIds, "user", userId)), claims];
}
