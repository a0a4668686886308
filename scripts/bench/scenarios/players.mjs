// The players list of the admin API and console at scale: a page and the searches among
// `BENCH_PLAYERS` players (1,000,000 by default), each against the floor of one D1 round trip
// measured in the same run (players-registry.mjs).
import { measurePlayersRegistry } from "../players-registry.mjs";

/** A page or a search costs a few round trips, never a scan of the players. */
const TARGET_RATIO = 4;

export async function run(ctx) {
  const players = ctx.config.players;
  const { floor, rows } = await measurePlayersRegistry({ players, samples: 20, log: ctx.log });
  ctx.report.add({
    scenario: "players",
    metric: "floor: one D1 round trip (SELECT 1)",
    p50: floor.p50,
    p99: floor.p99,
  });
  for (const row of rows) {
    const ratio = row.p50 / floor.p50;
    ctx.report.add({
      scenario: "players",
      metric: `${row.label} of ${players.toLocaleString("en-US")} (total ${row.total.toLocaleString("en-US")})`,
      ratio,
      p50: row.p50,
      p99: row.p99,
      target: `≤ ${TARGET_RATIO}× one round trip`,
      pass: ratio <= TARGET_RATIO,
    });
  }
}
