// Fair play (docs/fair-play.md): what the rate-limit and ban checks cost an accepted event, what
// a refused (429) request costs next to an accepted event, and another player's event latency while
// one client floods, with and without the limits. Accepted events go to an app like the intake
// benchmark's (20 active challenges, 5 of which count the event, and a leaderboard); the cheapest
// accepted event there is, on an app with neither, is measured too.
import { createApp, mapPool, mintTokens, missingFor } from "../api.mjs";
import { runLoad } from "../http.mjs";
import { WORKER_RUNTIME } from "../profile.mjs";
import { createChallengeApp } from "../seed.mjs";

const SCENARIO = "fair play";
const CONCURRENCY = 16;
const BATCH = 500;
/** Users the accepted phase spreads its events over: none of them gets near its limit. */
const PLAYERS = 100;

/**
 * The functions of the checks, as the isolate's profile names them: the app's trust (bans, key
 * revocation, limits; cached), the per-app count, the refusals this isolate remembers, and the
 * per-player window in the player's object (src/events/*, src/auth/trust.ts, src/rules/sliding-window.ts).
 */
const CHECKS = new Set([
  "appTrust",
  "refuseBanned",
  "banInForce",
  "forbiddenReason",
  "refuseWhenFull",
  "knownRefusal",
  "rememberRefusal",
  "admitAppEvents",
  "appRefusal",
  "refundAppEvents",
  "reconcileAppEvents",
  "refusal",
  "takeEvent",
  "admit",
]);

/** Recording an applied event among the player's last ones (src/events/recent-events.ts). */
const RECENT_EVENTS = new Set(["recordRecentEvent"]);

const EVENT = "kill-enemy";
const event = { event_name: EVENT, meta_data: { amount: 1 } };
const single = (token) => ({ method: "POST", path: "/api/v1/events", token, body: event });
const batch = (token) => ({
  method: "POST",
  path: "/api/v1/events/batch",
  token,
  body: { events: Array.from({ length: BATCH }, () => event) },
});

/** An app as the intake benchmark's: 20 auto challenges (5 count the event) and a leaderboard. */
async function intakeApp(ctx, name) {
  const app = await createChallengeApp(ctx, { name, challenges: 20, listeningTo: EVENT, listening: 5 });
  await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
    token: ctx.adminToken,
    body: { name: "Bench fair play", event_name: EVENT, value_field: "amount", aggregation: "sum" },
  });
  return app;
}

async function fairPlayApp(ctx, name, rateLimits, { withChallenges = false } = {}) {
  const app = withChallenges ? await intakeApp(ctx, name) : await createApp(ctx.client, ctx.adminToken, name);
  if (rateLimits)
    await ctx.client.json("PUT", `/api/v1/admin/apps/${app.appId}`, {
      token: ctx.adminToken,
      body: { name, rate_limits: rateLimits },
    });
  const [flooder] = await mintTokens(ctx.client, app.apiKey, ["flooder"]);
  return { ...app, flooder };
}

let victims = 0;

/** Workerd's CPU (the runtime that runs the Worker, its objects, local D1 and queues) per request of a phase. */
const runtimeCpu = (result) => (result.serverCpuByRole?.[WORKER_RUNTIME] ?? NaN) / result.sent;

/** Sends the flooder past its per-player limit (its first minute's worth, in batches). */
async function exhaust(ctx, app, perMinute) {
  const { method, path, body } = batch(app.flooder);
  await mapPool(Array.from({ length: Math.ceil(perMinute / BATCH) + 1 }), 2, () =>
    ctx.client.request(method, path, { token: app.flooder, body }),
  );
}

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "fairplay");
  if (why) return ctx.report.missing(SCENARIO, why);
  const seconds = ctx.config.seconds;
  const limited = await fairPlayApp(ctx, "Bench fair play, default limits", undefined, { withChallenges: true });
  const bare = await fairPlayApp(ctx, "Bench fair play, no challenges");
  const perUser = (await ctx.client.json("GET", `/api/v1/admin/apps/${limited.appId}`, { token: ctx.adminToken })).body
    .rate_limits.per_user_per_minute;
  // The benchmark's own app may raise the limits: this one stands for an app without any.
  const open = await fairPlayApp(
    ctx,
    "Bench fair play, no limits",
    { per_user_per_minute: 1_000_000_000, per_app_per_minute: 1_000_000_000 },
    { withChallenges: true },
  );

  // Accepted events, spread over players who stay far below their limit, under the profiler.
  const userIds = Array.from({ length: PLAYERS }, (_, i) => `player-${i}`);
  const players = await mintTokens(ctx.client, limited.apiKey, userIds);
  // First touch: their automatic challenges start, as in the intake benchmark.
  await mapPool(players, CONCURRENCY, (token) =>
    ctx.client.json("GET", `/api/v1/challenges/personal/all/${limited.appId}`, { token }),
  );
  const barePlayers = await mintTokens(ctx.client, bare.apiKey, userIds);
  const acceptedPhase = (tokens) => () =>
    runLoad(ctx.client, {
      concurrency: CONCURRENCY,
      maxRequests: 4000,
      maxMs: seconds * 1000,
      make: (i) => single(tokens[i % PLAYERS]),
    });
  await runLoad(ctx.client, {
    concurrency: CONCURRENCY,
    maxRequests: 200,
    maxMs: 3000,
    make: (i) => single(players[i % PLAYERS]),
  });
  const accepted = await ctx.measured("fair play: accepted events", acceptedPhase(players), { profile: true });
  if (accepted.ok === 0) throw new Error(`no event accepted: ${JSON.stringify(accepted.failures)}`);
  const acceptedBare = await ctx.measured("fair play: accepted events, no challenges", acceptedPhase(barePlayers));
  const trivial = await ctx.measured("fair play: trivial route", () =>
    runLoad(ctx.client, {
      concurrency: CONCURRENCY,
      maxRequests: 8000,
      maxMs: seconds * 1000,
      make: () => ({ method: "GET", path: "/api/v1/auth/check", token: players[0] }),
    }),
  );
  const perEvent = (names) => (accepted.profile ? accepted.profile.timeUnder(names) / accepted.ok : undefined);
  const checksMs = perEvent(CHECKS);
  const recentMs = perEvent(RECENT_EVENTS);
  /** The isolate's whole CPU per accepted event (the Worker and the player's object share it). */
  const isolateMs = accepted.profile ? accepted.profile.busyMs / accepted.ok : undefined;
  const share = (ms) =>
    isolateMs ? `, ${((ms / isolateMs) * 100).toFixed(1)}% of the isolate's ${isolateMs.toFixed(2)} ms per event` : "";
  const noProfile = "n/a (no profile of the Worker's isolate: a local server on Linux is needed)";
  const acceptedScenario = `(access token, ${CONCURRENCY} concurrent, ${PLAYERS} players, 20 active challenges + 1 leaderboard)`;
  ctx.report.add({
    scenario: `${SCENARIO}: rate-limit and ban checks of an accepted event ${acceptedScenario}`,
    metric:
      checksMs === undefined
        ? noProfile
        : `CPU in the checks per accepted event (isolate profile; ${accepted.ok.toLocaleString("en-US")} events${share(checksMs)})`,
    value: checksMs,
    unit: "ms",
    target: "≤ 0.1 ms",
    pass: checksMs === undefined ? undefined : checksMs <= 0.1,
  });
  ctx.report.add({
    scenario: `${SCENARIO}: the player's recent events kept for the console ${acceptedScenario}`,
    metric:
      recentMs === undefined
        ? noProfile
        : `CPU recording the event among the player's recent ones, per accepted event (isolate profile${share(recentMs)})`,
    value: recentMs,
    unit: "ms",
  });

  // Refused requests: a client past its limit goes on sending.
  await exhaust(ctx, limited, perUser);
  const refused = await ctx.measured("fair play: refused requests", () =>
    runLoad(ctx.client, {
      concurrency: CONCURRENCY,
      maxRequests: 8000,
      maxMs: seconds * 1000,
      make: () => single(limited.flooder),
    }),
  );
  const refusedCount = refused.failures[429] ?? 0;
  const ratio = runtimeCpu(refused) / runtimeCpu(accepted);
  ctx.report.add({
    scenario: `${SCENARIO}: a refused (429) request next to an accepted event (${CONCURRENCY} concurrent)`,
    metric:
      `CPU of workerd per request: refused ${runtimeCpu(refused).toFixed(2)} vs accepted ${runtimeCpu(accepted).toFixed(2)} ms ` +
      `(20 challenges + 1 leaderboard; an event of an app without them ${runtimeCpu(acceptedBare).toFixed(2)} ms, ratio ${(runtimeCpu(refused) / runtimeCpu(acceptedBare)).toFixed(2)}; ` +
      `the trivial route ${runtimeCpu(trivial).toFixed(2)} ms; all server processes, wrangler's proxy included: ${(refused.serverCpu / refused.sent).toFixed(2)} vs ${(accepted.serverCpu / accepted.sent).toFixed(2)}); ` +
      `${refusedCount.toLocaleString("en-US")} of ${refused.sent.toLocaleString("en-US")} answered 429`,
    value: runtimeCpu(refused),
    ceiling: runtimeCpu(accepted),
    ratio,
    unit: "ms",
    p50: refused.p50,
    p99: refused.p99,
    target: "≤ 0.2",
    pass: Number.isFinite(ratio) ? ratio <= 0.2 && refusedCount === refused.sent : undefined,
  });

  // Another player's events while one client floods.
  const victimAlone = await victimLatency(ctx, limited, null, seconds);
  ctx.report.note(
    "Fair play, latency rows: the other player and the flooder send to one app with 20 automatic challenges (5 count the event) and a leaderboard, " +
      "with the default limits or with limits lifted (no limits).",
  );
  addLatencyRow(ctx, "nobody floods", victimAlone);
  for (const [shape, make] of [
    ["single events", single],
    [`${BATCH}-event batches`, batch],
  ]) {
    await exhaust(ctx, limited, perUser);
    addLatencyRow(
      ctx,
      `one client floods with ${shape}, default limits`,
      await victimLatency(ctx, limited, make, seconds),
      victimAlone,
    );
  }
  for (const [shape, make] of [
    ["single events", single],
    [`${BATCH}-event batches`, batch],
  ]) {
    addLatencyRow(
      ctx,
      `one client floods with ${shape}, no limits`,
      await victimLatency(ctx, open, make, seconds),
      victimAlone,
    );
  }
  ctx.report.note(
    `Fair play: ${perUser.toLocaleString("en-US")} events a minute per player by default. Past it, a flooding client's requests are refused by the isolate that ` +
      "receives them, before their body is parsed and without a call to the player's object. On one local workerd thread those refusals still share the CPU " +
      "with everybody's events; in production each request runs in an isolate near its client, so a flood's refusals take no CPU from other players' isolates, " +
      "and only the flooder's accepted minute (its limit) reaches the player's object and the queues.",
  );
}

/**
 * A fresh player (so that no phase brings it near its own limit) sends one event at a time while the flooder (if any)
 * sends at CONCURRENCY.
 */
async function victimLatency(ctx, app, make, seconds) {
  const maxMs = seconds * 1000;
  const [victimToken] = await mintTokens(ctx.client, app.apiKey, [`victim-${++victims}`]);
  const flood = make
    ? runLoad(ctx.client, { concurrency: CONCURRENCY, maxRequests: Infinity, maxMs, make: () => make(app.flooder) })
    : Promise.resolve(null);
  const victim = ctx.measured("fair play: another player", () =>
    runLoad(ctx.client, { concurrency: 1, maxRequests: Infinity, maxMs, make: () => single(victimToken) }),
  );
  const [flooded, measured] = await Promise.all([flood, victim]);
  return { victim: measured, flood: flooded };
}

function addLatencyRow(ctx, label, { victim, flood }, alone) {
  const floodNote = flood
    ? `; flooder: ${flood.sent.toLocaleString("en-US")} requests, ${(flood.failures[429] ?? 0).toLocaleString("en-US")} answered 429, ${flood.ok.toLocaleString("en-US")} accepted`
    : "";
  ctx.report.add({
    scenario: `${SCENARIO}: another player's event latency, ${label}`,
    metric: `p50 ms (one event at a time, ${victim.ok.toLocaleString("en-US")} sent${victim.sent > victim.ok ? `, ${victim.sent - victim.ok} failed` : ""}${floodNote})`,
    value: victim.p50,
    ceiling: alone?.victim.p50,
    ratio: alone ? victim.p50 / alone.victim.p50 : undefined,
    p50: victim.p50,
    p99: victim.p99,
  });
}
