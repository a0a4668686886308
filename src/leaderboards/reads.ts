import { readUserInfos } from "../auth/user-info";
import type { LeaderboardDef, MemberType } from "./catalog";
import type { RankedRow } from "./core/ranking";
import { currentSeason } from "./core/season";
import { rowOf, unrankedRow, type BoardPage, type MemberRow, type Presentation } from "./core/present";
import {
  countsStatement,
  memberCounts,
  memberStanding,
  memberStatement,
  pageRows,
  pageStatement,
  pageUserInfos,
  readMemberPosition,
  readPage,
  standingUserInfo,
  userPageStatement,
  userStandingStatement,
  type BoardSlice,
} from "./board-repo";

/** The reads behind the public endpoints, in as few D1 round trips as their answers allow. */

const sliceOf = (board: LeaderboardDef, memberType: MemberType, now: number): BoardSlice => ({
  boardId: board.id,
  season: currentSeason(board, now),
  memberType,
});

/** Fills `p.infos` with the user info of the users among the rows (teams have none). */
async function loadInfos(db: D1Database, appId: string, rows: MemberRow[], p: Presentation) {
  const userIds = [...new Set(rows.filter((r) => r.memberType === "user").map((r) => r.memberId))];
  p.infos = await readUserInfos(db, appId, userIds);
}

/** One page of users (with their info) and of teams of each board, with member counts: one D1 batch. */
export async function readBoardPages(
  db: D1Database,
  appId: string,
  boards: LeaderboardDef[],
  p: Presentation,
  offset: number,
  limit: number,
) {
  const statements = boards.flatMap((board) => [
    userPageStatement(db, sliceOf(board, "user", p.now), offset, limit, appId),
    pageStatement(db, sliceOf(board, "team", p.now), offset, limit),
    countsStatement(db, board.id, currentSeason(board, p.now)),
  ]);
  const results = statements.length > 0 ? await db.batch(statements) : [];
  p.infos = new Map();
  return boards.map((board, i): BoardPage => {
    const [users, teams, counts] = results.slice(i * 3, i * 3 + 3);
    for (const [userId, info] of pageUserInfos(users)) p.infos.set(userId, info);
    const rowsOf = (type: MemberType, result: D1Result) => pageRows(result, offset).map((r) => rowOf(type, r));
    return { board, rows: { user: rowsOf("user", users), team: rowsOf("team", teams) }, counts: memberCounts(counts) };
  });
}

/**
 * The member's row on each board: score and rank, or score 0 and rank -1 without a score. One
 * statement per board, in one D1 round trip; a user's info comes with the first board's.
 */
export async function readMemberRows(
  db: D1Database,
  appId: string,
  boards: LeaderboardDef[],
  memberType: MemberType,
  memberId: string,
  p: Presentation,
) {
  if (boards.length === 0) return [];
  const withInfo = memberType === "user";
  const statements = boards.map((b, i) =>
    withInfo && i === 0
      ? userStandingStatement(db, sliceOf(b, memberType, p.now), memberId, appId)
      : memberStatement(db, sliceOf(b, memberType, p.now), memberId),
  );
  const results = statements.length === 1 ? [await statements[0].run()] : await db.batch(statements);
  p.infos = withInfo ? standingUserInfo(results[0], memberId) : new Map();
  return boards.map((_, i): MemberRow => {
    const standing = memberStanding(results[i]);
    return standing ? { memberType, memberId, ...standing } : unrankedRow(memberType, memberId);
  });
}

/** The member and `range` rows on each side of it, in board order. */
export async function readAround(
  db: D1Database,
  appId: string,
  board: LeaderboardDef,
  memberType: MemberType,
  memberId: string,
  range: number,
  p: Presentation,
) {
  const slice = sliceOf(board, memberType, p.now);
  const me = await readMemberPosition(db, slice, memberId);
  let member: MemberRow = unrankedRow(memberType, memberId);
  let members: MemberRow[] = [];
  if (me) {
    member = { memberType, memberId, score: me.score, rank: me.rank };
    const offset = Math.max(0, me.position - range);
    const rows: RankedRow[] = await readPage(db, slice, offset, me.position - offset + range + 1);
    members = rows.map((r) => rowOf(memberType, r));
  }
  await loadInfos(db, appId, [member, ...members], p);
  return { member, members };
}

/** One stored score of a member: every season the store still holds, the current one included. */
export interface StoredScore {
  boardId: string;
  /** Start (ms) of the season. */
  season: number;
  score: number;
  /** received_at (ms) of the newest event the score took. */
  lastAt: number;
}

/** Every score row of a user on these boards, by primary key (the player's export). */
export async function storedScores(db: D1Database, boardIds: string[], userId: string): Promise<StoredScore[]> {
  if (boardIds.length === 0) return [];
  const rows = await db
    .prepare(
      `SELECT leaderboard_id, season, score, last_at FROM leaderboard_scores
       WHERE leaderboard_id IN (SELECT value FROM json_each(?)) AND member_type = 'user' AND member_id = ? ORDER BY leaderboard_id, season`,
    )
    .bind(JSON.stringify(boardIds.map(Number)), userId)
    .all<{ leaderboard_id: number; season: number; score: number; last_at: number }>();
  return rows.results.map((r) => ({
    boardId: String(r.leaderboard_id),
    season: r.season,
    score: r.score,
    lastAt: r.last_at,
  }));
}
