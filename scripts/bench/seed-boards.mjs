// Fills leaderboards straight into the local D1 of a stopped `wrangler dev`, with the leaderboards
// seeding code of the tests (test/support/seed-board.ts), through a platform proxy on the same state.
// Run as a child process (its runtime is noisy on the console):
//   node scripts/bench/seed-boards.mjs <persist-to dir> '<JSON {boards: [{id, size}], prefix, multiplier, modulus}>'
// and prints one JSON line: the rows of the score and rank-index tables afterwards.
import path from "node:path";
import { getPlatformProxy } from "wrangler";
import { projectRoot } from "../lib/wrangler.mjs";
import { importTs } from "./import-ts.mjs";

const [persistTo, specJson] = process.argv.slice(2);
const spec = JSON.parse(specJson);
const { seedBoard } = await importTs("test/support/seed-board.ts");
const proxy = await getPlatformProxy({
  configPath: path.join(projectRoot, "wrangler.toml"),
  // `wrangler dev --persist-to X` keeps its state under X/v3.
  persist: { path: path.join(persistTo, "v3") },
});
try {
  const db = proxy.env.DB;
  for (const board of spec.boards) {
    const row = await db
      .prepare("SELECT season_origin, period_range FROM leaderboards WHERE leaderboard_id = ?")
      .bind(Number(board.id))
      .first();
    if (row.period_range && row.period_range !== "never")
      throw new Error(`board ${board.id} has a reset schedule; seed boards without one`);
    // A board without a reset schedule has one season, which starts at its origin.
    await seedBoard(db, {
      boardId: board.id,
      season: row.season_origin,
      ascending: false,
      prefix: spec.prefix,
      count: board.size,
      multiplier: spec.multiplier,
      modulus: spec.modulus,
    });
  }
  const count = async (table) => (await db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first()).n;
  console.log(
    JSON.stringify({ scoreRows: await count("leaderboard_scores"), countRows: await count("leaderboard_rank_counts") }),
  );
} finally {
  await proxy.dispose();
}
