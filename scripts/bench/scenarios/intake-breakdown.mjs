// Diagnostic (BENCH_SCENARIOS=intake-breakdown, not in the default run): what an event costs, part
// by part. The same load goes, in interleaved rounds, to apps that differ in one thing each: no
// challenges; challenges of which none counts the event; N counting; N counting plus a leaderboard.
// The differences in server CPU per event between neighbours are the cost of each part.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { mapPool, mintTokens, missingFor } from "../api.mjs";
import { createChallengeApp } from "../seed.mjs";

const EVENT = "kill-enemy";
const USERS = 100;

export async function run(ctx) {
  const scenario = "intake breakdown";
  const why = missingFor(ctx.features, "events", "challenges", "leaderboards", "check");
  if (why) return ctx.report.missing(scenario, why);
  const { events, seconds } = ctx.config;
  const n = Math.min(events.listening, events.challengesPerUser);
  const variants = [
    ["no challenges", 0, 0, false],
    [`${events.challengesPerUser} challenges, none counts the event`, events.challengesPerUser, 0, false],
    [`${events.challengesPerUser} challenges, ${n} count the event`, events.challengesPerUser, n, false],
    [
      `${events.challengesPerUser} challenges, ${n} count the event, + 1 leaderboard`,
      events.challengesPerUser,
      n,
      true,
    ],
  ];
  const users = Array.from({ length: USERS }, (_, i) => `bd-user-${i}`);
  const phases = [];
  for (const [label, challenges, listening, board] of variants) {
    const app = await createChallengeApp(ctx, {
      name: `Breakdown: ${label}`,
      challenges,
      listeningTo: EVENT,
      listening,
    });
    if (board) {
      await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
        token: ctx.adminToken,
        body: {
          name: "Breakdown",
          event_name: EVENT,
          value_field: "amount",
          aggregation: "sum",
          sort_order_ascending: false,
        },
      });
    }
    if (challenges > 0) {
      const tokens = await mintTokens(ctx.client, app.apiKey, users);
      await mapPool(tokens, 16, (token) =>
        ctx.client.json("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token }),
      );
    }
    phases.push({
      key: label,
      label: `breakdown: ${label}`,
      concurrency: events.concurrency,
      apiKey: app.apiKey,
      make: (i) => ({
        method: "POST",
        path: "/api/v1/events",
        token: app.apiKey,
        body: { user_id: users[i % USERS], event_name: EVENT, meta_data: { amount: 1 } },
      }),
    });
  }
  phases.unshift(ceilingPhase(phases[0].apiKey, events.concurrency));
  const results = await compareInRounds(ctx, phases, {
    rounds: Math.max(ctx.config.rounds, 4),
    seconds,
    requests: events.requests,
  });
  const ceiling = results.ceiling;
  for (const phase of phases) {
    const r = results[phase.key];
    const cpu = r.serverCpuMs === undefined ? "" : `; server CPU ${r.serverCpuMs.toFixed(1)} ms/req`;
    ctx.report.add({
      scenario: `${scenario}, ${USERS} users, ${events.concurrency} concurrent: ${phase.key === "ceiling" ? "trivial route (API key)" : phase.key}`,
      metric: `req/s${cpu}`,
      value: r.rps,
      ceiling: phase.key === "ceiling" ? undefined : ceiling.rps,
      ratio: phase.key === "ceiling" ? undefined : r.rps / ceiling.rps,
      p50: r.p50,
      p99: r.p99,
    });
  }
}
