import type { MemberType } from "../../src/leaderboards/catalog";
import { LEVELS } from "../../src/leaderboards/core/rank-key";
import { REBUILD_COUNTS_SQL, SEED_SQL } from "../../src/leaderboards/rank-index";

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
