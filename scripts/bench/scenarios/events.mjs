// Event intake: many distinct users each with N active challenges, and one hot user with many
// concurrent senders; each against the trivial route with the same credential (API key, as a
// studio backend sends) and concurrency. Afterwards every counter is read back through the API.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { runLoad } from "../http.mjs";
import { cpuNote } from "../report.mjs";
import { createApp, mapPool, mintTokens, missingFor, waitFor, withoutRateLimits } from "../api.mjs";
import { countersOf, createChallengeApp, waitForUsage } from "../seed.mjs";
import { reportStoragePerUser, userObjectFiles } from "../storage.mjs";

const EVENT = "kill-enemy";
/** Amount of event i: varied, so that a lost or doubled event cannot hide in a round total. */
const amountOf = (i) => 1 + (i % 5);

/** The app both intake scenarios send to, created once. */
let shared;

async function eventApp(ctx) {
  if (shared) return shared;
  const { events } = ctx.config;
  const withChallenges = !missingFor(ctx.features, "challenges");
  const withLeaderboard = !missingFor(ctx.features, "leaderboards");
  const app = withChallenges
    ? await createChallengeApp(ctx, {
        name: "Bench intake",
        challenges: events.challengesPerUser,
        listeningTo: EVENT,
        listening: Math.min(events.listening, events.challengesPerUser),
      })
    : { ...(await createApp(ctx.client, ctx.adminToken, "Bench intake")), listeningIds: [], challengeCount: 0 };
  await withoutRateLimits(ctx.client, ctx.adminToken, app.appId, "Bench intake");
  if (withLeaderboard) {
    const board = await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
      token: ctx.adminToken,
      body: { name: "Bench kills", event_name: EVENT, value_field: "amount", aggregation: "sum", sort_order_ascending: false },
    });
    app.leaderboardId = board.body.leaderboard_id;
  }
  shared = { ...app, withChallenges, accepted: 0, expected: new Map(), tokens: new Map() };
  return shared;
}

const eventRequest = (app, user, amount) => ({
  method: "POST",
  path: "/api/v1/events",
  token: app.apiKey,
  body: { user_id: user, event_name: EVENT, meta_data: { amount } },
});

/** A phase of event requests; every accepted event is booked on its user. */
function eventPhase(app, { key, label, concurrency, userOf }) {
  return {
    key,
    label,
    concurrency,
    make: (i) => eventRequest(app, userOf(i), amountOf(i)),
    onResult: (i, r) => {
      if (r.status !== 200) return;
      app.accepted++;
      const user = userOf(i);
      app.expected.set(user, (app.expected.get(user) ?? 0) + amountOf(i));
    },
  };
}

/**
 * First touch of each user through the list route (auto challenges get unlocked and activated);
 * answers the load result of those list requests.
 */
async function touchUsers(ctx, app, users) {
  const tokens = await mintTokens(ctx.client, app.apiKey, users, 32);
  users.forEach((u, i) => app.tokens.set(u, tokens[i]));
  if (!app.withChallenges) return undefined;
  const result = await ctx.measured("first touch", () =>
    runLoad(ctx.client, {
      concurrency: 32,
      maxRequests: users.length,
      maxMs: Infinity,
      make: (i) => ({ method: "GET", path: `/api/v1/challenges/personal/all/${app.appId}`, token: tokens[i] }),
    }),
  );
  if (result.ok !== users.length) throw new Error(`first touch failed: ${JSON.stringify(result.failures)}`);
  return result;
}

export async function runDistinctUsers(ctx) {
  const SCENARIO_BASE = "event intake, distinct users";
  const why = missingFor(ctx.features, "events", "check");
  if (why) return ctx.report.missing(SCENARIO_BASE, why);
  const { events, seconds } = ctx.config;
  const app = await eventApp(ctx);
  const users = Array.from({ length: events.users }, (_, i) => `user-${i}`);
  const board = app.leaderboardId ? " + 1 leaderboard" : "";
  const scenario = `event intake, ${events.users.toLocaleString("en-US")} users × ${app.challengeCount} active challenges (${app.listeningIds.length} count the event)${board}`;
  if (!app.withChallenges) ctx.report.note(`Event intake ran without challenges: ${missingFor(ctx.features, "challenges")}.`);

  const doBefore = ctx.server.local ? userObjectFiles(ctx.server.persistTo) : undefined;
  const touch = await touchUsers(ctx, app, users);
  if (touch) {
    ctx.report.add({
      scenario: `first touch of a user: list request that unlocks and activates ${app.challengeCount} auto challenges`,
      metric: `users/s, 32 concurrent${touch.serverCpu === undefined ? "" : `; server CPU ${(touch.serverCpu / touch.sent).toFixed(1)} ms/user`}`,
      value: touch.rps,
      p50: touch.p50,
      p99: touch.p99,
    });
  }
  if (doBefore && app.withChallenges) reportStoragePerUser(ctx, doBefore, app.challengeCount, "after first touch");

  const concurrency = events.concurrency;
  const { ceiling, events: result } = await compareInRounds(
    ctx,
    [
      ceilingPhase(app.apiKey, concurrency),
      eventPhase(app, { key: "events", label: "event intake, distinct users", concurrency, userOf: (i) => users[i % users.length] }),
    ],
    { rounds: ctx.config.rounds, seconds, requests: events.requests },
  );
  addCeilingRow(ctx, `API key, ${concurrency} concurrent`, ceiling);
  addThroughputRow(ctx, scenario, `, ${concurrency} concurrent`, result, ceiling);
  if (doBefore && app.withChallenges) reportStoragePerUser(ctx, doBefore, app.challengeCount, `after ${app.accepted.toLocaleString("en-US")} events`);
}

export async function runHotUser(ctx) {
  const SCENARIO = "event intake, one hot user";
  const why = missingFor(ctx.features, "events", "check");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { hotUser, seconds } = ctx.config;
  const app = await eventApp(ctx);
  const user = "hot-user";
  await touchUsers(ctx, app, [user]);
  const concurrency = hotUser.senders;
  const { ceiling, events: result } = await compareInRounds(
    ctx,
    [ceilingPhase(app.apiKey, concurrency), eventPhase(app, { key: "events", label: "event intake, hot user", concurrency, userOf: () => user })],
    { rounds: ctx.config.rounds, seconds, requests: hotUser.requests },
  );
  addCeilingRow(ctx, `API key, ${concurrency} concurrent`, ceiling);
  const scenario = `${SCENARIO} (${app.challengeCount} active challenges${app.leaderboardId ? " + 1 leaderboard" : ""}), ${concurrency} concurrent senders`;
  addThroughputRow(ctx, scenario, "", result, ceiling);
}

/** The intake's throughput against the trivial route's, with its target, and any failed requests. */
function addThroughputRow(ctx, scenario, detail, result, ceiling) {
  ctx.report.add({
    scenario,
    metric: `throughput${detail} (events/s${cpuNote(result, ceiling)})`,
    value: result.rps,
    ceiling: ceiling.rps,
    ratio: result.rps / ceiling.rps,
    p50: result.p50,
    p99: result.p99,
    target: "≥ 0.5× trivial",
    pass: result.rps / ceiling.rps >= 0.5,
  });
  reportFailures(ctx, scenario, result);
}

function addCeilingRow(ctx, label, ceiling) {
  ctx.report.add({ scenario: `trivial route GET /api/v1/auth/check (${label})`, metric: "throughput (req/s)", value: ceiling.rps, p50: ceiling.p50, p99: ceiling.p99 });
}

function reportFailures(ctx, scenario, result) {
  if (result.sent === result.ok) return;
  ctx.report.add({
    scenario,
    metric: `failed requests: ${JSON.stringify(result.failures)}`,
    value: result.sent - result.ok,
    target: "0",
    pass: false,
  });
}

/**
 * No event lost, every counter exact: each user's listening challenges, the app's monthly usage
 * (events and unlocked challenges) and the leaderboard scores, all read through the API.
 */
export async function verifyCounters(ctx) {
  const app = shared;
  if (!app) return;
  const scenario = "event intake, end of run";
  const users = [...app.tokens.keys()];
  const expectedEvents = app.accepted;
  if (!missingFor(ctx.features, "usage")) {
    const usage = await waitForUsage(ctx, app.appId, (u) => u.events >= expectedEvents, 60_000);
    ctx.report.add({ scenario, metric: "events counted in usage = events accepted", value: usage.events, ceiling: expectedEvents, target: "exact", pass: usage.events === expectedEvents });
    if (app.withChallenges) {
      const unlocks = users.length * app.challengeCount;
      ctx.report.add({ scenario, metric: "unlocked challenges in usage = users × challenges", value: usage.unlocked_challenges, ceiling: unlocks, target: "exact", pass: usage.unlocked_challenges === unlocks });
    }
  }
  if (app.withChallenges) {
    let wrong = 0;
    let checked = 0;
    const samples = [];
    await mapPool(users, 32, async (user) => {
      const counters = await countersOf(ctx, app, app.tokens.get(user));
      const expected = app.expected.get(user) ?? 0;
      for (const id of app.listeningIds) {
        checked++;
        if (counters.get(id) !== expected) {
          wrong++;
          if (samples.length < 3) samples.push(`${user}/${id}: ${counters.get(id)} ≠ ${expected}`);
        }
      }
    });
    ctx.report.add({ scenario, metric: "challenge counters exact (all users)", value: checked - wrong, ceiling: checked, target: "all exact", pass: wrong === 0 });
    if (wrong) ctx.report.note(`Wrong challenge counters, e.g. ${samples.join("; ")}.`);
  }
  if (app.leaderboardId) {
    const scoreOf = (user) =>
      ctx.client.json("GET", `/api/v1/leaderboards-members/user/${encodeURIComponent(user)}/${app.leaderboardId}`, { token: app.apiKey, expect: null });
    // Scores arrive through the background queue: wait until the busiest user's score is complete.
    const [busiest, most] = [...app.expected].reduce((a, b) => (b[1] > a[1] ? b : a), ["", -1]);
    if (busiest) await waitFor(async () => ((await scoreOf(busiest)).body?.member?.score === most ? true : undefined), 60_000);
    let wrong = 0;
    const samples = [];
    await mapPool(users, 32, async (user) => {
      const r = await scoreOf(user);
      const score = r.body?.member?.score;
      const expected = app.expected.get(user) ?? 0;
      const unranked = r.status === 404 || score === 0 || score === null || score === undefined;
      if (expected === 0 ? !unranked : score !== expected) {
        wrong++;
        if (samples.length < 3) samples.push(`${user}: ${r.status} ${JSON.stringify(r.body).slice(0, 120)} ≠ ${expected}`);
      }
    });
    ctx.report.add({ scenario, metric: "leaderboard scores exact (all users)", value: users.length - wrong, ceiling: users.length, target: "all exact", pass: wrong === 0 });
    if (wrong) ctx.report.note(`Wrong leaderboard scores, e.g. ${samples.join("; ")}.`);
  }
}
