import { toIso } from "../shared/clock";
import { forbidden } from "../shared/domain-errors";
import { pageOffset, type Paging } from "../shared/paging";

/**
 * The `player_bans` table (migrations/0011_fair_play.sql). A row refuses the player everywhere
 * until it expires (its own requests see the expiry to the millisecond) and hides the player from
 * every leaderboard until it is deleted: at once when lifted, by the cron within a minute of the
 * expiry. Writes are operator actions across areas (src/players/bans.ts).
 */
export interface PlayerBan {
  reason: string;
  /** Service time (ms); null: until lifted. */
  expiresAt: number | null;
  bannedAt: string;
}

export interface BanRow {
  app_id: number;
  user_id: string;
  reason: string;
  expires_at: number | null;
  banned_at: string;
}

export const banOf = (row: BanRow): PlayerBan => ({
  reason: row.reason,
  expiresAt: row.expires_at,
  bannedAt: row.banned_at,
});

/** Whether the ban refuses the player at `now`. */
export const isInForce = (ban: PlayerBan, now: number) => ban.expiresAt === null || ban.expiresAt > now;

/** The 403 of a banned player: names the reason and the expiry, as every refused path does. */
export function bannedError(userId: string, ban: PlayerBan) {
  const until = ban.expiresAt === null ? "until the ban is lifted" : `until ${toIso(ban.expiresAt)}`;
  return forbidden(`Player ${userId} is banned ${until}: ${ban.reason}`);
}

export const presentBan = (row: BanRow) => ({
  app_id: String(row.app_id),
  user_id: row.user_id,
  reason: row.reason,
  expires_at: row.expires_at === null ? null : toIso(row.expires_at),
  banned_at: row.banned_at,
});

/** Bans or re-bans: a second ban replaces the reason and the expiry. */
export const upsertBanStatement = (db: D1Database, appId: number, userId: string, ban: PlayerBan) =>
  db
    .prepare(
      `INSERT INTO player_bans (app_id, user_id, reason, expires_at, banned_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (app_id, user_id) DO UPDATE SET reason = excluded.reason, expires_at = excluded.expires_at, banned_at = excluded.banned_at
       RETURNING *`,
    )
    .bind(appId, userId, ban.reason, ban.expiresAt, ban.bannedAt);

/** Lifts the ban; with `expiredBy`, only when it expired by then (the cron must not lift a ban renewed meanwhile). */
export const deleteBanStatement = (db: D1Database, appId: number, userId: string, expiredBy?: number) =>
  expiredBy === undefined
    ? db.prepare("DELETE FROM player_bans WHERE app_id = ? AND user_id = ? RETURNING *").bind(appId, userId)
    : db
        .prepare("DELETE FROM player_bans WHERE app_id = ? AND user_id = ? AND expires_at <= ? RETURNING *")
        .bind(appId, userId, expiredBy);

export async function readBan(db: D1Database, appId: number, userId: string): Promise<BanRow | null> {
  return db.prepare("SELECT * FROM player_bans WHERE app_id = ? AND user_id = ?").bind(appId, userId).first<BanRow>();
}

/** The bans in force at `now`, newest first; with `search`, those whose player id or reason contains it (any case). */
export async function listBans(
  db: D1Database,
  appId: number,
  now: number,
  paging: Paging,
  search = "",
): Promise<{ rows: BanRow[]; total: number }> {
  const inForce =
    "app_id = ?1 AND (expires_at IS NULL OR expires_at > ?2) AND (?3 = '' OR instr(lower(user_id), lower(?3)) > 0 OR instr(lower(reason), lower(?3)) > 0)";
  const [rows, total] = await db.batch<BanRow | { n: number }>([
    db
      .prepare(`SELECT * FROM player_bans WHERE ${inForce} ORDER BY banned_at DESC, user_id LIMIT ?4 OFFSET ?5`)
      .bind(appId, now, search, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM player_bans WHERE ${inForce}`).bind(appId, now, search),
  ]);
  return { rows: rows.results as BanRow[], total: (total.results[0] as { n: number }).n };
}

/** Bans that expired by `now` and are still to be lifted (the cron's work), oldest first. */
export async function expiredBans(db: D1Database, now: number, limit: number): Promise<BanRow[]> {
  const rows = await db
    .prepare("SELECT * FROM player_bans WHERE expires_at <= ? ORDER BY expires_at LIMIT ?")
    .bind(now, limit)
    .all<BanRow>();
  return rows.results;
}
