import { erasedSinceSql } from "../apps/erasure-tombstones";

export interface UserInfo {
  username: string | null;
  avatarImage: string | null;
}

export async function readUserInfo(db: D1Database, appId: string, userId: string): Promise<UserInfo> {
  const row = await db
    .prepare("SELECT username, avatar_image FROM user_info WHERE app_id = ? AND user_id = ?")
    .bind(Number(appId), userId)
    .first<{ username: string | null; avatar_image: string | null }>();
  return { username: row?.username ?? null, avatarImage: row?.avatar_image ?? null };
}

/** The stored row with its time, or null (the player's export). */
export async function findUserInfo(
  db: D1Database,
  appId: string,
  userId: string,
): Promise<(UserInfo & { updatedAt: string }) | null> {
  const row = await db
    .prepare("SELECT username, avatar_image, updated_at FROM user_info WHERE app_id = ? AND user_id = ?")
    .bind(Number(appId), userId)
    .first<{ username: string | null; avatar_image: string | null; updated_at: string }>();
  return row && { username: row.username, avatarImage: row.avatar_image, updatedAt: row.updated_at };
}

/**
 * Stores a player's info, unless the player was erased after `writtenAt` (the issue time of the
 * token that writes it): a request under way while its player is erased brings nothing back.
 * Answers whether it stored anything.
 */
export async function writeUserInfo(
  db: D1Database,
  appId: string,
  userId: string,
  info: UserInfo,
  nowIso: string,
  guard: { subject: string; writtenAt: number },
) {
  const result = await db
    .prepare(
      `INSERT INTO user_info (app_id, user_id, username, avatar_image, updated_at) SELECT ?1, ?2, ?3, ?4, ?5
       WHERE NOT ${erasedSinceSql("?6", "?7")}
       ON CONFLICT (app_id, user_id) DO UPDATE SET username = excluded.username, avatar_image = excluded.avatar_image, updated_at = excluded.updated_at`,
    )
    .bind(Number(appId), userId, info.username, info.avatarImage, nowIso, guard.subject, guard.writtenAt)
    .run();
  return result.meta.changes > 0;
}

/** Erasing a player: their info, by primary key. */
export const eraseUserInfoStatement = (db: D1Database, appId: number, userId: string) =>
  db.prepare("DELETE FROM user_info WHERE app_id = ? AND user_id = ?").bind(appId, userId);

/** The read of many users' info at once, for a D1 batch with other reads (leaderboard rows). */
const userInfosStatement = (db: D1Database, appId: string, userIds: string[]) =>
  db
    .prepare(
      "SELECT user_id, username, avatar_image FROM user_info WHERE app_id = ? AND user_id IN (SELECT value FROM json_each(?))",
    )
    .bind(Number(appId), JSON.stringify(userIds));

/**
 * `rowsSql` (rows with a `member_id`, ordered by `orderBy`) with each user's info beside it, as
 * `username` and `avatar_image` (null without any), for reading a page of users and their infos
 * in one statement. `appIdParam` is the SQL parameter of the app's id.
 */
export const withUserInfoSql = (rowsSql: string, appIdParam: string, orderBy: string) =>
  `SELECT p.*, i.username, i.avatar_image FROM (${rowsSql}) p
   LEFT JOIN user_info i ON i.app_id = ${appIdParam} AND i.user_id = p.member_id ORDER BY ${orderBy}`;

function userInfosOf(result: D1Result): Map<string, UserInfo> {
  const infos = new Map<string, UserInfo>();
  for (const r of result.results as { user_id: string; username: string | null; avatar_image: string | null }[]) {
    infos.set(r.user_id, { username: r.username, avatarImage: r.avatar_image });
  }
  return infos;
}

/** User info of many users at once, for leaderboard pages. */
export async function readUserInfos(db: D1Database, appId: string, userIds: string[]): Promise<Map<string, UserInfo>> {
  if (userIds.length === 0) return new Map();
  return userInfosOf(await userInfosStatement(db, appId, userIds).all());
}
