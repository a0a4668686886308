import { withUserInfoSql, type UserInfo } from "../auth/user-info";
import type { MemberType } from "./catalog";
import { rankRun, type RankedRow } from "./core/ranking";
import { COUNTS_SQL, MEMBER_RANK_SQL, MEMBER_SQL, PAGE_SQL } from "./rank-index";

/** One season of one board, for one member type: the unit every read works on. */
export interface BoardSlice {
  boardId: string;
  season: number;
  memberType: MemberType;
}

const bindSlice = (stmt: D1PreparedStatement, slice: BoardSlice, ...rest: unknown[]) =>
  stmt.bind(Number(slice.boardId), slice.season, slice.memberType, ...rest);

export const pageStatement = (db: D1Database, slice: BoardSlice, offset: number, limit: number) =>
  bindSlice(db.prepare(PAGE_SQL), slice, offset, limit);

const PAGE_WITH_INFO_SQL = withUserInfoSql(PAGE_SQL, "?6", "p.rank_key, p.member_id");

/** A page of users with their user info (pageUserInfos), in one statement: a page costs one round trip. */
export const userPageStatement = (db: D1Database, slice: BoardSlice, offset: number, limit: number, appId: string) =>
  bindSlice(db.prepare(PAGE_WITH_INFO_SQL), slice, offset, limit, Number(appId));

/** The user info on the rows of a userPageStatement (users without any get none). */
export function pageUserInfos(result: D1Result): Map<string, UserInfo> {
  const rows = result.results as { member_id: string; username: string | null; avatar_image: string | null }[];
  return new Map(rows.map((r) => [r.member_id, { username: r.username, avatarImage: r.avatar_image }]));
}

export function pageRows(result: D1Result, offset: number): RankedRow[] {
  const rows = result.results as { member_id: string; score: number; ahead: number }[];
  if (rows.length === 0) return [];
  return rankRun(
    rows.map((r) => ({ memberId: r.member_id, score: r.score })),
    offset,
    rows[0].ahead,
  );
}

/** Rows at 0-based positions offset .. offset + limit - 1, ranked; empty past the end. */
export async function readPage(db: D1Database, slice: BoardSlice, offset: number, limit: number): Promise<RankedRow[]> {
  return pageRows(await pageStatement(db, slice, offset, limit).run(), offset);
}

export interface MemberStanding {
  score: number;
  rank: number;
}

export const memberStatement = (db: D1Database, slice: BoardSlice, memberId: string) =>
  bindSlice(db.prepare(MEMBER_RANK_SQL), slice, memberId);

/**
 * A user's standing (MEMBER_RANK_SQL) and their user info (?5 the app's id) in one statement, one
 * row also without a score: a user's ranking on a board costs one statement, not two.
 */
const MEMBER_RANK_WITH_INFO_SQL = `SELECT r.score, r.ahead, i.username, i.avatar_image FROM (SELECT 1)
  LEFT JOIN (${MEMBER_RANK_SQL}) r ON true LEFT JOIN user_info i ON i.app_id = ?5 AND i.user_id = ?4`;

export const userStandingStatement = (db: D1Database, slice: BoardSlice, userId: string, appId: string) =>
  bindSlice(db.prepare(MEMBER_RANK_WITH_INFO_SQL), slice, userId, Number(appId));

/** The user info on the row of a userStandingStatement. */
export function standingUserInfo(result: D1Result, userId: string): Map<string, UserInfo> {
  const row = result.results[0] as { username: string | null; avatar_image: string | null };
  return new Map([[userId, { username: row.username, avatarImage: row.avatar_image }]]);
}

/** From a memberStatement or a userStandingStatement (whose row has no score when the member has none). */
export function memberStanding(result: D1Result): MemberStanding | null {
  const row = result.results[0] as { score: number | null; ahead: number } | undefined;
  return row && row.score !== null ? { score: row.score, rank: row.ahead + 1 } : null;
}

/** The member's score and rank, and its 0-based position in board order; null without a score. */
export async function readMemberPosition(
  db: D1Database,
  slice: BoardSlice,
  memberId: string,
): Promise<(MemberStanding & { position: number }) | null> {
  const row = await bindSlice(db.prepare(MEMBER_SQL), slice, memberId).first<{
    score: number;
    ahead: number;
    tied_before: number;
  }>();
  return row ? { score: row.score, rank: row.ahead + 1, position: row.ahead + row.tied_before } : null;
}

export const countsStatement = (db: D1Database, boardId: string, season: number) =>
  db.prepare(COUNTS_SQL).bind(Number(boardId), season);

export function memberCounts(result: D1Result): Record<MemberType, number> {
  const counts: Record<MemberType, number> = { user: 0, team: 0 };
  for (const row of result.results as { member_type: MemberType; n: number }[]) counts[row.member_type] = row.n;
  return counts;
}
