/**
 * Competition ranking ("1, 1, 3"): a member's rank is one more than the number of members with a
 * strictly better score, so equal scores share a rank and the next distinct score skips the
 * shared places. Within equal scores rows are listed by member id.
 */
export interface ScoredRow {
  memberId: string;
  score: number;
}

export interface RankedRow extends ScoredRow {
  rank: number;
}

/**
 * Ranks a run of consecutive rows of the board that starts at 0-based position `offset`, given
 * `ahead`, the number of members strictly better than the first row. A row whose score differs
 * from the one before starts a new group, so its rank is its own position.
 */
export function rankRun(rows: ScoredRow[], offset: number, ahead: number): RankedRow[] {
  const ranked: RankedRow[] = [];
  rows.forEach((row, i) => {
    const rank = i === 0 ? ahead + 1 : row.score === rows[i - 1].score ? ranked[i - 1].rank : offset + i + 1;
    ranked.push({ ...row, rank });
  });
  return ranked;
}

/** Rank of a member who has no score in the current season (SCILL's documented convention). */
export const UNRANKED = -1;
