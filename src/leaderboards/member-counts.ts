import type { LeaderboardDef, MemberType } from "./catalog";
import { currentSeason } from "./core/season";
import { countsStatement, memberCounts } from "./board-repo";

/** Users and teams on each board's current season, from the rank index's top level: one D1 batch. */
export async function boardMemberCounts(
  db: D1Database,
  boards: LeaderboardDef[],
  now: number,
): Promise<Record<MemberType, number>[]> {
  if (boards.length === 0) return [];
  const results = await db.batch(boards.map((board) => countsStatement(db, board.id, currentSeason(board, now))));
  return results.map(memberCounts);
}
