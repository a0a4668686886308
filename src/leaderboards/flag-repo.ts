import { toIso } from "../shared/clock";
import { pageOffset, type Paging } from "../shared/paging";
import { erasedSinceSql } from "../apps/erasure-tombstones";
import { APPLY_PARAMS } from "./apply-params";
import type { MemberType } from "./catalog";
import type { FlagReason } from "./core/contributions";

/**
 * The review queue (`leaderboard_flags`, migrations/0011_fair_play.sql): submissions a board held
 * back, out of its bounds or past its pace. A flooding cheater must not fill D1, so one member
 * keeps at most MAX_FLAGS_PER_MEMBER pending flags per board (later ones are not recorded: the
 * member is already in the queue), the cron drops flags after FLAG_RETENTION_MS, and deleting a
 * board deletes its flags.
 */
export const MAX_FLAGS_PER_MEMBER = 100;
export const FLAG_RETENTION_MS = 30 * 86_400_000;

export interface FlagRow {
  flag_id: number;
  app_id: number;
  leaderboard_id: number;
  member_type: MemberType;
  member_id: string;
  value: number;
  reason: FlagReason;
  event_name: string;
  flagged_at: number;
}

export const presentFlag = (row: FlagRow) => ({
  flag_id: String(row.flag_id),
  member_type: row.member_type,
  member_id: row.member_id,
  value: row.value,
  reason: row.reason,
  event_name: row.event_name,
  flagged_at: toIso(row.flagged_at),
});

/**
 * Part of the applying transaction (apply.ts), with its binds (apply-params.ts): the contributions
 * held for review, by their short keys (Contribution). Only contributions of events this transaction claimed are recorded, so a
 * replayed batch flags nothing twice; nor those of a player erased since the event was received
 * (it would name them again).
 */
export const RECORD_FLAGS_SQL = `
  INSERT INTO leaderboard_flags (app_id, leaderboard_id, member_type, member_id, value, reason, event_name, flagged_at)
  SELECT c.value ->> 'p', c.value ->> 'b', c.value ->> 't', c.value ->> 'i', c.value ->> 'v', c.value ->> 'h', c.value ->> 'n', c.value ->> 'a'
  FROM json_each(${APPLY_PARAMS.held}) AS c
  JOIN leaderboard_applied_events e ON e.dedup_key = c.value ->> 'k' AND e.claim = ${APPLY_PARAMS.claim}
  WHERE (c.value ->> 'e' IS NULL OR NOT ${erasedSinceSql("c.value ->> 'e'", "c.value ->> 'a'")})
    AND (SELECT COUNT(*) FROM leaderboard_flags f
         WHERE f.leaderboard_id = c.value ->> 'b' AND f.member_type = c.value ->> 't' AND f.member_id = c.value ->> 'i') < ${MAX_FLAGS_PER_MEMBER}`;

/** Erasing a player: their held scores on every board of the app, by the member index of each board. */
export const eraseMemberFlagsStatement = (db: D1Database, appId: number, userId: string) =>
  db
    .prepare(
      `DELETE FROM leaderboard_flags WHERE leaderboard_id IN (SELECT leaderboard_id FROM leaderboards WHERE app_id = ?)
         AND member_type = 'user' AND member_id = ?`,
    )
    .bind(appId, userId);

/** A player's held scores on every board of the app, oldest first (the player export). */
export async function playerFlags(db: D1Database, appId: number, userId: string, limit: number): Promise<FlagRow[]> {
  const rows = await db
    .prepare(
      `SELECT * FROM leaderboard_flags WHERE leaderboard_id IN (SELECT leaderboard_id FROM leaderboards WHERE app_id = ?)
         AND member_type = 'user' AND member_id = ? ORDER BY flag_id LIMIT ?`,
    )
    .bind(appId, userId, limit)
    .all<FlagRow>();
  return rows.results;
}

/** A page of a board's queue, oldest first. */
export async function listFlags(
  db: D1Database,
  boardId: number,
  paging: Paging,
): Promise<{ rows: FlagRow[]; total: number }> {
  const [rows, total] = await db.batch<FlagRow | { n: number }>([
    db
      .prepare("SELECT * FROM leaderboard_flags WHERE leaderboard_id = ? ORDER BY flag_id LIMIT ? OFFSET ?")
      .bind(boardId, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM leaderboard_flags WHERE leaderboard_id = ?").bind(boardId),
  ]);
  return { rows: rows.results as FlagRow[], total: (total.results[0] as { n: number }).n };
}

export async function readFlag(db: D1Database, boardId: number, flagId: number): Promise<FlagRow | null> {
  return db
    .prepare("SELECT * FROM leaderboard_flags WHERE leaderboard_id = ? AND flag_id = ?")
    .bind(boardId, flagId)
    .first<FlagRow>();
}

export const deleteFlagStatement = (db: D1Database, flagId: number) =>
  db.prepare("DELETE FROM leaderboard_flags WHERE flag_id = ?").bind(flagId);

/** Rows one cron run deletes at most. */
const PRUNE_BATCH = 10_000;

/** Cron: flags past their retention (also those of deleted apps, whose boards took theirs along). */
export async function pruneFlags(db: D1Database, now: number): Promise<void> {
  await db
    .prepare(
      "DELETE FROM leaderboard_flags WHERE flag_id IN (SELECT flag_id FROM leaderboard_flags WHERE flagged_at < ? ORDER BY flagged_at LIMIT ?)",
    )
    .bind(now - FLAG_RETENTION_MS, PRUNE_BATCH)
    .run();
}
