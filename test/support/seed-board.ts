import type { MemberType } from "../../src/leaderboards/catalog";
import { keySql, LEVELS, RADIX_BITS } from "../../src/leaderboards/core/rank-key";

/**
 * Seeding a board directly: members `<prefix><i>` for i in ?5..?6 with
 * score (i * ?7) % ?8, on ?1 board, ?2 season, ?3 type, ?4 prefix, ?9 ascending (0/1), ?10 time.
 * Run REBUILD_COUNTS_SQL afterwards.
 */
const SEED_SQL = `WITH RECURSIVE
  seq(i) AS (SELECT CAST(?5 AS INTEGER) UNION ALL SELECT i + 1 FROM seq WHERE i < CAST(?6 AS INTEGER)),
  seeded(i, score) AS (SELECT i, (i * CAST(?7 AS INTEGER)) % CAST(?8 AS INTEGER) FROM seq)
  INSERT INTO leaderboard_scores (leaderboard_id, member_type, member_id, season, score, rank_key, last_at)
  SELECT CAST(?1 AS INTEGER), ?3, ?4 || i, CAST(?2 AS INTEGER), score, ${keySql("score", "?9")}, CAST(?10 AS INTEGER) FROM seeded WHERE true
  ON CONFLICT (leaderboard_id, member_type, member_id, season)
  DO UPDATE SET score = excluded.score, rank_key = excluded.rank_key, last_at = excluded.last_at`;

/** Recomputes the counts of one level (?4) of ?1 board, ?2 season, ?3 type from the rows. */
const REBUILD_COUNTS_SQL: readonly string[] = [
  `DELETE FROM leaderboard_rank_counts WHERE leaderboard_id = ?1 AND season = ?2 AND member_type = ?3 AND level = ?4`,
  `INSERT INTO leaderboard_rank_counts (leaderboard_id, season, member_type, level, node, n)
   SELECT ?1, ?2, ?3, CAST(?4 AS INTEGER), rank_key >> CAST(?4 * ${RADIX_BITS} AS INTEGER), COUNT(*) FROM leaderboard_scores
   WHERE leaderboard_id = ?1 AND season = ?2 AND member_type = ?3 GROUP BY rank_key >> CAST(?4 * ${RADIX_BITS} AS INTEGER)`,
];

export interface SeedOptions {
  boardId: string;
  /** The season to fill: currentSeason(board, now) for the board as it is now. */
  season: number;
  ascending: boolean;
  memberType?: MemberType;
  /** Members are `${prefix}${i}` for i = 1..count. */
  prefix?: string;
  count: number;
  /** Score of member i: (i * multiplier) % modulus. A modulus below count makes ties. */
  multiplier: number;
  modulus: number;
  /** Rows per INSERT statement (bounded so that one statement stays short on D1). */
  chunk?: number;
}

/** The score seedBoard gives member i. */
export const seededScore = (i: number, o: Pick<SeedOptions, "multiplier" | "modulus">) =>
  (i * o.multiplier) % o.modulus;

/**
 * Fills a board directly with `count` members and rebuilds its rank index: what tests of large
 * boards and the benchmarks use instead of millions of events. Not reachable through the API.
 */
export async function seedBoard(db: D1Database, o: SeedOptions): Promise<void> {
  const memberType = o.memberType ?? "user";
  const prefix = o.prefix ?? "m";
  const chunk = o.chunk ?? 50_000;
  const board = Number(o.boardId);
  for (let from = 1; from <= o.count; from += chunk) {
    const to = Math.min(o.count, from + chunk - 1);
    await db
      .prepare(SEED_SQL)
      .bind(board, o.season, memberType, prefix, from, to, o.multiplier, o.modulus, o.ascending ? 1 : 0, o.season)
      .run();
  }
  for (let level = 0; level < LEVELS; level++) {
    await db.batch(REBUILD_COUNTS_SQL.map((sql) => db.prepare(sql).bind(board, o.season, memberType, level)));
  }
  await db
    .prepare("INSERT INTO leaderboard_seasons (leaderboard_id, season) VALUES (?, ?) ON CONFLICT DO NOTHING")
    .bind(board, o.season)
    .run();
}
