import { SYNC_BANNED_MEMBER_SQL } from "./rank-index";

/**
 * The statements that hide a banned player from every board of the app, or show them again, as
 * `player_bans` says: put them after the write of the ban (or of its lifting) in one D1 batch.
 */
export const syncBannedMemberStatements = (db: D1Database, appId: number, userId: string) =>
  SYNC_BANNED_MEMBER_SQL.map((sql) => db.prepare(sql).bind(appId, userId));
