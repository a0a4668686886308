import type { Paging } from "../shared/paging";
import { toIso } from "../shared/clock";

/**
 * The registry of an app's players, read side (the write side and its table are in
 * src/apps/player-registry.ts): one page of players, with their username and whether a ban is in
 * force, in one D1 round trip. Sorted by an index; a search by id prefix walks the primary key, a
 * search by username reads the app's user info (the players who stored some).
 */

export const PLAYER_SORTS = ["last_seen", "first_seen", "id"] as const;
export type PlayerSort = (typeof PLAYER_SORTS)[number];

const ORDER: Record<PlayerSort, string> = {
  last_seen: "p.last_seen_at DESC, p.user_id",
  first_seen: "p.first_seen_at DESC, p.user_id",
  id: "p.user_id",
};

export interface PlayerRow {
  user_id: string;
  username: string | null;
  first_seen_at: number;
  last_seen_at: number;
  events: number;
  banned: number;
}

export interface PlayerQuery extends Paging {
  search?: string;
  sort: PlayerSort;
}

/**
 * Above every character: `prefix` up to this bounds the ids that start with `prefix` (text compares by UTF-8 bytes).
 */
const AFTER_ALL = "\u{10FFFF}";

/**
 * `search` matches a prefix of the id (case as typed, by the key) or a part of the username (any
 * case) of the players with user info.
 */
export async function listPlayers(db: D1Database, appId: number, now: number, query: PlayerQuery) {
  const search = query.search?.trim() ?? "";
  // A search reads each part's matches by its own index, and only then those players by key (CROSS
  // JOIN keeps that order): walking the sort's index over every player would read them all.
  const matches = `(SELECT m.user_id FROM players m WHERE m.app_id = ?1 AND m.user_id >= ?2 AND m.user_id < ?3
      UNION SELECT u.user_id FROM user_info u WHERE u.app_id = ?1 AND instr(lower(u.username), lower(?2)) > 0)`;
  const from = search ? `${matches} AS s CROSS JOIN players p ON p.app_id = ?1 AND p.user_id = s.user_id` : "players p";
  const where = search ? "" : "WHERE p.app_id = ?1";
  const args = search ? [appId, search, search + AFTER_ALL] : [appId];
  const n = args.length;
  const [rows, total] = await db.batch<unknown>([
    db
      .prepare(
        `SELECT p.user_id, u.username, p.first_seen_at, p.last_seen_at, p.events,
           (b.user_id IS NOT NULL AND (b.expires_at IS NULL OR b.expires_at > ?${n + 1})) AS banned
         FROM ${from}
         LEFT JOIN user_info u ON u.app_id = p.app_id AND u.user_id = p.user_id
         LEFT JOIN player_bans b ON b.app_id = p.app_id AND b.user_id = p.user_id
         ${where} ORDER BY ${ORDER[query.sort]} LIMIT ?${n + 2} OFFSET ?${n + 3}`,
      )
      .bind(...args, now, query.pageSize, (query.currentPage - 1) * query.pageSize),
    db.prepare(`SELECT COUNT(*) AS n FROM ${from} ${where}`).bind(...args),
  ]);
  return { rows: rows.results as PlayerRow[], total: (total.results[0] as { n: number }).n };
}

/** A player of the list as the admin API answers it. */
export const presentPlayer = (row: PlayerRow) => ({
  user_id: row.user_id,
  username: row.username,
  first_seen_at: toIso(row.first_seen_at),
  last_seen_at: toIso(row.last_seen_at),
  events: row.events,
  banned: row.banned === 1,
});
