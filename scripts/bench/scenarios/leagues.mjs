// Leagues: what a league adds to an event, and the end of a season of 100,000 players. The event
// cost is measured as in the points scenario: two apps that differ only in whether a league counts
// the event, the same load to each in interleaved rounds, "event CPU" being the CPU of the workerd
// that runs everything, background work (cohort placement, score batches) included. The season's
// end runs the service's own chunked decision against a local D1 of its own
// (league-season-end.mjs): the time to decide every cohort and the D1 rows written per player.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { createApp, missingFor, withoutRateLimits } from "../api.mjs";
import { measureSeasonEnd } from "../league-season-end.mjs";

const SCENARIO = "leagues";
const EVENT = "earn-xp";
const USERS = 300;
const CONCURRENCY = 32;
const SEASON_PLAYERS = 100_000;
const COHORT = 30;
/** A season of 100,000 players ends in minutes, not hours. */
const SEASON_END_TARGET_S = 300;
/** Rows written by the season's end per player: one per cohort, not one per player. */
const ROWS_PER_PLAYER_TARGET = 0.1;

async function leagueApp(ctx, key, leagues) {
  const name = `Bench leagues ${key}`;
  const app = await createApp(ctx.client, ctx.adminToken, name);
  await withoutRateLimits(ctx.client, ctx.adminToken, app.appId, name);
  for (let i = 0; i < leagues; i++) {
    const r = await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/leagues`, {
      token: ctx.adminToken,
      body: {
        key: `league-${i}`,
        name: "League",
        event_name: EVENT,
        value_field: "xp",
        tiers: [
          { key: "bronze", name: "Bronze" },
          { key: "silver", name: "Silver" },
        ],
        cohort_size: COHORT,
        promote: 5,
        demote: 5,
        schedule: { period: "weekly", reset_at_time: "00:00:00", time_zone: "UTC" },
      },
    });
    if (r.status !== 201) throw new Error(`league: ${r.status} ${JSON.stringify(r.body)}`);
  }
  const users = Array.from({ length: USERS }, (_, i) => `${key}-user-${i}`);
  return { key, leagues, app, users };
}

const eventPhase = (ctx, v) => ({
  key: v.key,
  label: `leagues: ${v.leagues} league${v.leagues === 1 ? "" : "s"} on the event`,
  concurrency: CONCURRENCY,
  make: (i) => ({
    method: "POST",
    path: "/api/v1/events",
    token: v.app.apiKey,
    body: { user_id: v.users[i % USERS], event_name: EVENT, meta_data: { xp: 1 + (i % 7) } },
  }),
  after: () => ctx.settle(),
});

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "check", "leagues");
  if (why) return ctx.report.missing(SCENARIO, why);
  const variants = [await leagueApp(ctx, "l0", 0), await leagueApp(ctx, "l1", 1)];
  const results = await compareInRounds(
    ctx,
    [ceilingPhase(variants[0].app.apiKey, CONCURRENCY), ...variants.map((v) => eventPhase(ctx, v))],
    { rounds: ctx.config.rounds, seconds: ctx.config.seconds, requests: ctx.config.events.requests },
  );
  for (const v of variants) {
    const r = results[v.key];
    ctx.report.add({
      scenario: `${SCENARIO}: ${v.leagues} league${v.leagues === 1 ? "" : "s"} on the event, ${USERS} users, ${CONCURRENCY} concurrent`,
      metric: `events/s; event CPU (workerd)${r.runtimeCpuMs === undefined ? " n/a" : ` ${r.runtimeCpuMs.toFixed(2)} ms`}`,
      value: r.rps,
      ceiling: results.ceiling.rps,
      ratio: r.rps / results.ceiling.rps,
      p50: r.p50,
      p99: r.p99,
    });
  }
  if (results.l1.runtimeCpuMs !== undefined) {
    const perLeague = (results.l1.runtimeCpuMs - results.l0.runtimeCpuMs) * 1000;
    ctx.report.add({
      scenario: `${SCENARIO}: event cost of a league`,
      metric: "event CPU (workerd): 1 league − no league, µs",
      value: perLeague,
      unit: "µs",
    });
  } else
    ctx.report.missing(
      `${SCENARIO}: event cost of a league`,
      "needs the benchmark's own local server (CPU of its processes)",
    );

  const end = await measureSeasonEnd({ players: SEASON_PLAYERS, cohort: COHORT, log: ctx.log });
  ctx.report.add({
    scenario: `${SCENARIO}: season end of ${SEASON_PLAYERS.toLocaleString("en-US")} players in cohorts of ${COHORT}, local D1`,
    metric: `seconds to decide ${end.cohorts.toLocaleString("en-US")} cohorts in ${end.chunks} chunks`,
    value: end.seconds,
    unit: "s",
    target: `≤ ${SEASON_END_TARGET_S} s`,
    pass: end.seconds <= SEASON_END_TARGET_S,
  });
  const perPlayer = end.rowsWritten / end.players;
  ctx.report.add({
    scenario: `${SCENARIO}: season end of ${SEASON_PLAYERS.toLocaleString("en-US")} players in cohorts of ${COHORT}, local D1`,
    metric: `D1 rows written per player (${end.rowsWritten.toLocaleString("en-US")} rows, ${end.statements.toLocaleString("en-US")} statements)`,
    value: perPlayer,
    target: `≤ ${ROWS_PER_PLAYER_TARGET}`,
    pass: perPlayer <= ROWS_PER_PLAYER_TARGET,
  });
}
