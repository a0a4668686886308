/**
 * The board order as one integer: `rank_key` is lower for a better score whatever the sort order,
 * so one index and one rank index serve ascending and descending boards alike. Scores are
 * integers within ±MAX_SCORE; the offset makes every key positive (1 .. 2^54 - 1).
 *
 * Keys exceed JavaScript's safe integers: they are computed and compared inside SQL only, from
 * the score and the sort order (see KEY_SQL), and never read into JavaScript.
 */
export const MAX_SCORE = Number.MAX_SAFE_INTEGER;
export const KEY_OFFSET_SQL = "9007199254740992";

/** The rank key of a score in SQL; `ascending` is an SQL expression worth 0 or 1. */
export const keySql = (score: string, ascending: string) =>
  `((CASE WHEN ${ascending} THEN ${score} ELSE -(${score}) END) + ${KEY_OFFSET_SQL})`;

export const clampScore = (score: number) => Math.max(-MAX_SCORE, Math.min(MAX_SCORE, score));

/** The rank index: a 256-way radix tree over the 54-bit key (levels 0..6, bits 8L..8L+7). */
export const RADIX_BITS = 8;
export const LEVELS = 7;
