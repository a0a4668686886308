// Event intake: many distinct users each with N active challenges (every event wakes an evicted
// object: half of them send their first event, which makes their object's event tables, the other
// half have sent one before), 100 users whose objects stay in memory, and one hot user with many
// concurrent senders;
// each against the trivial route with the same credential (API key, as a studio backend sends) and
// concurrency, and the first two against the runtime floor of the same operation (floor.mjs),
// measured in the same rounds. The users' first touch is measured too. Afterwards every counter is
// read back through the API.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { runLoad } from "../http.mjs";
import { cpuNote } from "../report.mjs";
import { createApp, mapPool, mintTokens, missingFor, waitFor, withoutRateLimits } from "../api.mjs";
import { countersOf, createChallengeApp, waitForUsage } from "../seed.mjs";
import { reportStoragePerUser, userObjectFiles } from "../storage.mjs";
import {
  addAgainstFloorRows,
  addObjectFloorRows,
  EVICTION_WAIT_MS,
  FLOOR_SCENARIO,
  IN_MEMORY_OBJECTS,
} from "../floor.mjs";

/** The intake's share of the trivial route, as a multiple of the floor's share for the same operation. */
const FLOOR_TARGET = 0.9;
/** One hot user's intake, and a first touch, as shares of the trivial route (the targets the benchmark checks). */
const HOT_USER_TARGET = 0.8;
const FIRST_TOUCH_TARGET = 0.5;

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
      body: {
        name: "Bench kills",
        event_name: EVENT,
        value_field: "amount",
        aggregation: "sum",
        sort_order_ascending: false,
      },
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

/** Access tokens of users, kept on the app (the counter check reads every user's challenges with them). */
async function tokensOf(ctx, app, users) {
  const tokens = await mintTokens(ctx.client, app.apiKey, users, 32);
  users.forEach((u, i) => {
    app.tokens.set(u, tokens[i]);
  });
  return tokens;
}

/**
 * One unmeasured event for each of `users`, booked as the measured ones are, then the wait until
 * their objects are evicted: the users a measured phase reaches afterwards are returning players.
 */
async function sendFirstEvents(ctx, app, users, concurrency) {
  const phase = eventPhase(app, { key: "first-events", label: "first events", concurrency, userOf: (i) => users[i] });
  const result = await runLoad(ctx.client, {
    concurrency,
    maxRequests: users.length,
    maxMs: Infinity,
    make: phase.make,
    onResult: phase.onResult,
  });
  if (result.ok !== users.length) throw new Error(`first events failed: ${JSON.stringify(result.failures)}`);
  await new Promise((resolve) => setTimeout(resolve, EVICTION_WAIT_MS));
}

/** First touch (the list route starts the automatic challenges) of users no measured phase touched. */
async function touchUsers(ctx, app, tokens) {
  const result = await runLoad(ctx.client, {
    concurrency: 32,
    maxRequests: tokens.length,
    maxMs: Infinity,
    make: (i) => ({ method: "GET", path: `/api/v1/challenges/personal/all/${app.appId}`, token: tokens[i] }),
  });
  if (result.ok !== tokens.length) throw new Error(`first touch failed: ${JSON.stringify(result.failures)}`);
}

const FIRST_TOUCH_CONCURRENCY = 32;

/**
 * The first touch of users (a list request that unlocks and activates their automatic challenges,
 * in an object that does not exist yet), measured in rounds with the trivial route (access token)
 * and with the floor's first call of a new object; then the users no round reached are touched.
 */
async function measureFirstTouch(ctx, app, tokens, floor) {
  const touched = new Set();
  const phases = [
    ceilingPhase(tokens[0], FIRST_TOUCH_CONCURRENCY),
    {
      key: "touch",
      label: "first touch",
      concurrency: FIRST_TOUCH_CONCURRENCY,
      make: (i) => ({ method: "GET", path: `/api/v1/challenges/personal/all/${app.appId}`, token: tokens[i] }),
      // A user whose touch failed is touched again below (and the failure reported).
      onResult: (i, r) => r.status === 200 && touched.add(i),
      warmUpCount: FIRST_TOUCH_CONCURRENCY,
      // Leaves users for the intake to wake from eviction.
      requests: Math.floor((tokens.length - FIRST_TOUCH_CONCURRENCY) / 2),
    },
    // The floor as a request with an access token makes it: no D1 read (floor.mjs).
    ...(floor
      ? [
          floor.nothing(FIRST_TOUCH_CONCURRENCY),
          floor.freshForToken(FIRST_TOUCH_CONCURRENCY),
          floor.freshForToken(FIRST_TOUCH_CONCURRENCY, "send"),
          floor.freshForToken(FIRST_TOUCH_CONCURRENCY, "outbox"),
        ]
      : []),
  ];
  const results = await compareInRounds(ctx, phases, {
    rounds: ctx.config.rounds,
    seconds: ctx.config.seconds,
    requests: ctx.config.events.requests,
  });
  await touchUsers(
    ctx,
    app,
    tokens.filter((_, i) => !touched.has(i)),
  );
  return results;
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
  if (!app.withChallenges)
    ctx.report.note(`Event intake ran without challenges: ${missingFor(ctx.features, "challenges")}.`);
  const concurrency = events.concurrency;

  const floor = ctx.server.local ? await ctx.floor() : undefined;
  if (!floor) ctx.report.missing(FLOOR_SCENARIO, "needs a local runtime (not BENCH_URL)");
  // Created first: the first touch below outlasts the wait for their eviction.
  await floor?.createEvicted(ctx.config.floor.objects, concurrency);

  const doBefore = ctx.server.local ? userObjectFiles(ctx.server.persistTo) : undefined;
  const tokens = await tokensOf(ctx, app, users);
  if (app.withChallenges) {
    const touch = await measureFirstTouch(ctx, app, tokens, floor);
    addFirstTouchRows(ctx, app, touch);
    if (doBefore) reportStoragePerUser(ctx, doBefore, app.challengeCount, "after first touch");
  }

  // Half the users send their first event in the rounds (their objects make the event tables then);
  // the other half sent one before and come back, each in an object evicted since, as the floor's.
  const half = Math.floor(users.length / 2);
  const firstTimers = users.slice(0, half);
  const returning = users.slice(half);
  await sendFirstEvents(ctx, app, returning, concurrency);
  await floor?.untilEvicted();
  const results = await compareInRounds(
    ctx,
    [
      ceilingPhase(app.apiKey, concurrency),
      // Bounded by the users (its warm-up included), so that each event of the phase is its user's first.
      {
        ...eventPhase(app, {
          key: "events",
          label: "event intake, first events",
          concurrency,
          userOf: (i) => firstTimers[i % half],
        }),
        warmUpCount: concurrency,
        requests: Math.max(1, Math.min(events.requests, half - concurrency)),
      },
      eventPhase(app, {
        key: "returning",
        label: "event intake, returning users",
        concurrency,
        userOf: (i) => returning[i % returning.length],
      }),
      ...(floor
        ? [
            floor.trivial(concurrency),
            floor.evicted(concurrency),
            floor.evicted(concurrency, "send"),
            floor.evicted(concurrency, "outbox"),
          ]
        : []),
    ],
    { rounds: ctx.config.rounds, seconds, requests: events.requests },
  );
  const { ceiling, events: first, returning: back } = results;
  addCeilingRow(ctx, `API key, ${concurrency} concurrent`, ceiling);
  const firstScenario = `${scenario}, each event its user's first (the object makes its event tables)`;
  const backScenario = `${scenario}, each user's event after one before (the object evicted since)`;
  addThroughputRow(ctx, firstScenario, `, ${concurrency} concurrent`, first, ceiling);
  addThroughputRow(ctx, backScenario, `, ${concurrency} concurrent`, back, ceiling);
  if (floor) {
    const what = `one read + one write in an object evicted since its last call, as at every event of the ${events.users.toLocaleString("en-US")}-user intake`;
    const against = { results, concurrency, ceiling, floorName: "object evicted", target: FLOOR_TARGET };
    addObjectFloorRows(ctx, { ...against, key: "floor-evicted", what, scenario: firstScenario, figure: first });
    addAgainstFloorRows(ctx, { ...against, key: "floor-evicted", scenario: backScenario, figure: back });
  }
  if (doBefore && app.withChallenges)
    reportStoragePerUser(ctx, doBefore, app.challengeCount, `after ${app.accepted.toLocaleString("en-US")} events`);
}

/** Users whose objects stay in memory: the same load spread over few enough users that none is evicted. */
const WARM_USERS = IN_MEMORY_OBJECTS;

export async function runWarmUsers(ctx) {
  const SCENARIO = `event intake, ${WARM_USERS} users kept in memory`;
  const why = missingFor(ctx.features, "events", "check");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { events, seconds } = ctx.config;
  const app = await eventApp(ctx);
  const users = Array.from({ length: WARM_USERS }, (_, i) => `warm-user-${i}`);
  const tokens = await tokensOf(ctx, app, users);
  if (app.withChallenges) await touchUsers(ctx, app, tokens);
  const floor = ctx.server.local ? await ctx.floor() : undefined;
  const concurrency = events.concurrency;
  const results = await compareInRounds(
    ctx,
    [
      ceilingPhase(app.apiKey, concurrency),
      eventPhase(app, {
        key: "events",
        label: "event intake, warm users",
        concurrency,
        userOf: (i) => users[i % WARM_USERS],
      }),
      ...(floor
        ? [
            floor.trivial(concurrency),
            floor.memory(concurrency),
            floor.memory(concurrency, "send"),
            floor.memory(concurrency, "outbox"),
          ]
        : []),
    ],
    { rounds: ctx.config.rounds, seconds, requests: events.requests },
  );
  const { ceiling, events: result } = results;
  const scenario = `${SCENARIO} (${app.challengeCount} active challenges, ${app.listeningIds.length} count the event${app.leaderboardId ? ", + 1 leaderboard" : ""})`;
  addCeilingRow(ctx, `API key, ${concurrency} concurrent`, ceiling);
  addThroughputRow(ctx, scenario, `, ${concurrency} concurrent`, result, ceiling);
  if (floor) {
    const what = `one read + one write in one of ${IN_MEMORY_OBJECTS} objects kept in memory`;
    addObjectFloorRows(ctx, {
      results,
      key: "floor-memory",
      what,
      concurrency,
      scenario,
      figure: result,
      ceiling,
      floorName: "object kept in memory",
      target: FLOOR_TARGET,
    });
  }
}

export async function runHotUser(ctx) {
  const SCENARIO = "event intake, one hot user";
  const why = missingFor(ctx.features, "events", "check");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { hotUser, seconds } = ctx.config;
  const app = await eventApp(ctx);
  const user = "hot-user";
  const tokens = await tokensOf(ctx, app, [user]);
  if (app.withChallenges) await touchUsers(ctx, app, tokens);
  const concurrency = hotUser.senders;
  const floor = ctx.server.local ? await ctx.floor() : undefined;
  const results = await compareInRounds(
    ctx,
    [
      ceilingPhase(app.apiKey, concurrency),
      eventPhase(app, { key: "events", label: "event intake, hot user", concurrency, userOf: () => user }),
      ...(floor
        ? [
            floor.trivial(concurrency),
            floor.hot(concurrency),
            floor.hot(concurrency, "send"),
            floor.hot(concurrency, "outbox"),
          ]
        : []),
    ],
    { rounds: ctx.config.rounds, seconds, requests: hotUser.requests },
  );
  const { ceiling, events: result } = results;
  addCeilingRow(ctx, `API key, ${concurrency} concurrent`, ceiling);
  const scenario = `${SCENARIO} (${app.challengeCount} active challenges${app.leaderboardId ? " + 1 leaderboard" : ""}), ${concurrency} concurrent senders`;
  addThroughputRow(ctx, scenario, "", result, ceiling, HOT_USER_TARGET);
  if (floor) {
    const what = "one read + one write in one object, every request to the same one";
    addObjectFloorRows(ctx, {
      results,
      key: "floor-hot",
      what,
      concurrency,
      scenario,
      figure: result,
      ceiling,
      floorName: "one object for every request",
      trivialTarget: HOT_USER_TARGET,
    });
  }
}

function addFirstTouchRows(ctx, app, results) {
  const { ceiling, touch } = results;
  const scenario = `first touch of a user: list request that unlocks and activates ${app.challengeCount} auto challenges`;
  ctx.report.add({
    scenario: `trivial route GET /api/v1/auth/check (access token, ${FIRST_TOUCH_CONCURRENCY} concurrent)`,
    metric: "throughput (req/s)",
    value: ceiling.rps,
    p50: ceiling.p50,
    p99: ceiling.p99,
  });
  const ratio = touch.rps / ceiling.rps;
  ctx.report.add({
    scenario,
    metric: `users/s, ${FIRST_TOUCH_CONCURRENCY} concurrent${cpuNote(touch, ceiling)}`,
    value: touch.rps,
    ceiling: ceiling.rps,
    ratio,
    p50: touch.p50,
    p99: touch.p99,
    target: `≥ ${FIRST_TOUCH_TARGET}× trivial`,
    pass: ratio >= FIRST_TOUCH_TARGET,
  });
  reportFailures(ctx, scenario, touch);
  if (!results["floor-fresh-token"]) return;
  const what =
    "one read + one write in an object never called before, as at a user's first touch, no D1 read (as with an access token)";
  addObjectFloorRows(ctx, {
    results,
    key: "floor-fresh-token",
    what,
    concurrency: FIRST_TOUCH_CONCURRENCY,
    scenario,
    figure: touch,
    ceiling,
    floorName: "new object",
    credential: "access-token",
    trivialTarget: FIRST_TOUCH_TARGET,
  });
}

/** The intake's throughput against the trivial route, with its target if any, and any failed requests. */
function addThroughputRow(ctx, scenario, detail, result, ceiling, target) {
  const ratio = result.rps / ceiling.rps;
  ctx.report.add({
    scenario,
    metric: `throughput${detail} (events/s${cpuNote(result, ceiling)})`,
    value: result.rps,
    ceiling: ceiling.rps,
    ratio,
    p50: result.p50,
    p99: result.p99,
    ...(target === undefined ? {} : { target: `≥ ${target}× trivial`, pass: ratio >= target }),
  });
  reportFailures(ctx, scenario, result);
}

function addCeilingRow(ctx, label, ceiling) {
  ctx.report.add({
    scenario: `trivial route GET /api/v1/auth/check (${label})`,
    metric: "throughput (req/s)",
    value: ceiling.rps,
    p50: ceiling.p50,
    p99: ceiling.p99,
  });
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
    ctx.report.add({
      scenario,
      metric: "events counted in usage = events accepted",
      value: usage.events,
      ceiling: expectedEvents,
      target: "exact",
      pass: usage.events === expectedEvents,
    });
    if (app.withChallenges) {
      const unlocks = users.length * app.challengeCount;
      ctx.report.add({
        scenario,
        metric: "unlocked challenges in usage = users × challenges",
        value: usage.unlocked_challenges,
        ceiling: unlocks,
        target: "exact",
        pass: usage.unlocked_challenges === unlocks,
      });
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
    ctx.report.add({
      scenario,
      metric: "challenge counters exact (all users)",
      value: checked - wrong,
      ceiling: checked,
      target: "all exact",
      pass: wrong === 0,
    });
    if (wrong) ctx.report.note(`Wrong challenge counters, e.g. ${samples.join("; ")}.`);
  }
  if (app.leaderboardId) {
    const scoreOf = (user) =>
      ctx.client.json("GET", `/api/v1/leaderboards-members/user/${encodeURIComponent(user)}/${app.leaderboardId}`, {
        token: app.apiKey,
        expect: null,
      });
    // Scores arrive through the background queue: wait until the busiest user's score is complete.
    const [busiest, most] = [...app.expected].reduce((a, b) => (b[1] > a[1] ? b : a), ["", -1]);
    if (busiest)
      await waitFor(async () => ((await scoreOf(busiest)).body?.member?.score === most ? true : undefined), 60_000);
    let wrong = 0;
    const samples = [];
    await mapPool(users, 32, async (user) => {
      const r = await scoreOf(user);
      const score = r.body?.member?.score;
      const expected = app.expected.get(user) ?? 0;
      const unranked = r.status === 404 || score === 0 || score === null || score === undefined;
      if (expected === 0 ? !unranked : score !== expected) {
        wrong++;
        if (samples.length < 3)
          samples.push(`${user}: ${r.status} ${JSON.stringify(r.body).slice(0, 120)} ≠ ${expected}`);
      }
    });
    ctx.report.add({
      scenario,
      metric: "leaderboard scores exact (all users)",
      value: users.length - wrong,
      ceiling: users.length,
      target: "all exact",
      pass: wrong === 0,
    });
    if (wrong) ctx.report.note(`Wrong leaderboard scores, e.g. ${samples.join("; ")}.`);
  }
}
