// How an event's cost grows with what the event feeds: apps that differ in one dimension each, the
// same load to each, in interleaved rounds with the trivial route. Challenges in the app (20, 200,
// 1,000, of which 5 count the event) and challenges that count it (5 vs 1,000); leaderboards the
// event feeds (1, 10, 50, on the 20-challenge app), and 1 and 50 again with an MQTT client that
// follows every board (the consumer then ranks the members and publishes every change; nobody
// follows the others, so their changes are not even built). "Event CPU" is the CPU time of the
// workerd that runs the Worker, its objects, local D1 and the queues, per event, including the
// background queue's work for it (each phase waits until the server is idle again). Afterwards
// every user's counters and scores are read back and compared.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { mapPool, mintTokens, missingFor, waitFor, withoutRateLimits } from "../api.mjs";
import { countersOf, createChallengeApp } from "../seed.mjs";
import { BenchClient, loadCodec } from "../mqtt-client.mjs";

const SCENARIO = "event growth";
const EVENT = "kill-enemy";
/** Users per app, all kept in memory. */
const USERS = 50;
const CONCURRENCY = 32;
const amountOf = (i) => 1 + (i % 3);

/**
 * [key, challenges in the app, challenges counting the event, leaderboards on the event, every board followed over
 * MQTT]
 */
const VARIANTS = [
  ["c20", 20, 5, 0],
  ["c200", 200, 5, 0],
  ["c1000", 1000, 5, 0],
  ["c1000-all", 1000, 1000, 0],
  ["b1", 20, 5, 1],
  ["b10", 20, 5, 10],
  ["b50", 20, 5, 50],
  ["b1-followed", 20, 5, 1, true],
  ["b50-followed", 20, 5, 50, true],
];

const describe = ({ challenges, counting, boards, followed }) =>
  boards > 0
    ? `${boards} leaderboard${boards > 1 ? "s" : ""} on the event${followed ? `, ${boards > 1 ? "each" : "it"} followed over MQTT` : ""} (${challenges} challenges, ${counting} count it)`
    : `${challenges.toLocaleString("en-US")} challenges in the app, ${counting.toLocaleString("en-US")} count the event`;

/** One MQTT client that follows every board of the variant: each board's changes are then ranked and published. */
async function followBoards(ctx, app, boardIds) {
  const codec = await loadCodec();
  const client = await BenchClient.open(
    `${ctx.client.baseUrl.replace(/^http/, "ws")}/mqtt`,
    codec,
    `growth-${app.appId}`,
  );
  for (const id of boardIds) {
    const link = await ctx.client.json("GET", `/api/v1/auth/leaderboard-topic-link?leaderboard_id=${id}`, {
      token: app.apiKey,
    });
    await client.subscribe(link.body.topic);
  }
  return client;
}

async function variantApp(ctx, [key, challenges, counting, boards, followed = false]) {
  const name = `Bench growth ${key}`;
  const app = await createChallengeApp(ctx, { name, challenges, listeningTo: EVENT, listening: counting });
  await withoutRateLimits(ctx.client, ctx.adminToken, app.appId, name);
  const boardIds = [];
  for (let b = 0; b < boards; b++) {
    const r = await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
      token: ctx.adminToken,
      body: {
        name: `Growth ${b + 1}`,
        event_name: EVENT,
        value_field: "amount",
        aggregation: "sum",
        sort_order_ascending: false,
      },
    });
    boardIds.push(r.body.leaderboard_id);
  }
  const follower = followed ? await followBoards(ctx, app, boardIds) : null;
  const users = Array.from({ length: USERS }, (_, i) => `${key}-user-${i}`);
  const tokens = await mintTokens(ctx.client, app.apiKey, users);
  // First touch: the automatic challenges start.
  await mapPool(tokens, 8, (token) =>
    ctx.client.json("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token }),
  );
  return { key, challenges, counting, boards, followed, follower, app, boardIds, users, tokens, expected: new Map() };
}

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "challenges", "leaderboards", "check", "mqtt");
  if (why) return ctx.report.missing(SCENARIO, why);
  const variants = [];
  try {
    for (const variant of VARIANTS) variants.push(await variantApp(ctx, variant));
    await measure(ctx, variants);
  } finally {
    for (const v of variants) v.follower?.close();
  }
}

async function measure(ctx, variants) {
  const phases = [
    ceilingPhase(variants[0].app.apiKey, CONCURRENCY),
    ...variants.map((v) => ({
      key: v.key,
      label: `growth: ${describe(v)}`,
      concurrency: CONCURRENCY,
      make: (i) => ({
        method: "POST",
        path: "/api/v1/events",
        token: v.app.apiKey,
        body: { user_id: v.users[i % USERS], event_name: EVENT, meta_data: { amount: amountOf(i) } },
      }),
      onResult: (i, r) =>
        r.status === 200 && v.expected.set(v.users[i % USERS], (v.expected.get(v.users[i % USERS]) ?? 0) + amountOf(i)),
      // A round of the other phases outlasts wrangler dev's eviction of idle objects (10 s): one
      // event per user wakes them again, and its queue work is done, before the round is measured.
      before: async () => {
        await mapPool(v.users, 8, async (user) => {
          const r = await ctx.client.request("POST", "/api/v1/events", {
            token: v.app.apiKey,
            body: { user_id: user, event_name: EVENT, meta_data: { amount: 1 } },
          });
          if (r.status === 200) v.expected.set(user, (v.expected.get(user) ?? 0) + 1);
        });
        await ctx.settle();
      },
      // The background queue's work for the phase's events counts in the phase.
      after: () => ctx.settle(),
    })),
  ];
  const results = await compareInRounds(ctx, phases, {
    rounds: ctx.config.rounds,
    seconds: ctx.config.seconds,
    requests: ctx.config.events.requests,
  });
  const ceiling = results.ceiling;
  ctx.report.add({
    scenario: `trivial route GET /api/v1/auth/check (API key, ${CONCURRENCY} concurrent)`,
    metric: "throughput (req/s)",
    value: ceiling.rps,
    p50: ceiling.p50,
    p99: ceiling.p99,
  });
  const cpu = (key) => results[key].runtimeCpuMs;
  for (const v of variants) {
    const r = results[v.key];
    ctx.report.add({
      scenario: `${SCENARIO}: ${describe(v)}, ${USERS} users in memory, ${CONCURRENCY} concurrent`,
      metric: `events/s; event CPU (workerd, background work included)${r.runtimeCpuMs === undefined ? " n/a" : ` ${r.runtimeCpuMs.toFixed(2)} ms vs trivial ${ceiling.runtimeCpuMs.toFixed(2)} ms`}`,
      value: r.rps,
      ceiling: ceiling.rps,
      ratio: r.rps / ceiling.rps,
      p50: r.p50,
      p99: r.p99,
    });
    if (r.ok !== r.sent)
      ctx.report.add({
        scenario: `${SCENARIO}: ${describe(v)}`,
        metric: `failed requests: ${JSON.stringify(r.failures)}`,
        value: r.sent - r.ok,
        target: "0",
        pass: false,
      });
  }
  if (cpu("c20") !== undefined) {
    const perChallenge = ((cpu("c1000-all") - cpu("c1000")) / (1000 - 5)) * 1000;
    ctx.report.add({
      scenario: `${SCENARIO}: per challenge that counts the event`,
      metric: "event CPU (workerd): (1,000 counting − 5 counting, both of 1,000 challenges) ÷ 995, µs",
      value: perChallenge,
      unit: "µs",
      target: "≤ 20 µs",
      pass: perChallenge <= 20,
    });
    const boardsRatio = cpu("b50") / cpu("b1");
    ctx.report.add({
      scenario: `${SCENARIO}: 50 leaderboards on the event vs 1`,
      metric: "event CPU (workerd), ms per event",
      value: cpu("b50"),
      ceiling: cpu("b1"),
      ratio: boardsRatio,
      unit: "ms",
      target: "≤ 1.5×",
      pass: boardsRatio <= 1.5,
    });
    const perBoard = ((cpu("b50") - cpu("b1")) / 49) * 1000;
    ctx.report.add({
      scenario: `${SCENARIO}: per leaderboard the event feeds`,
      metric: "event CPU (workerd): (50 boards − 1 board) ÷ 49, µs",
      value: perBoard,
      unit: "µs",
      target: "≤ 50 µs",
      pass: perBoard <= 50,
    });
    const messages = variants
      .filter((v) => v.followed)
      .map((v) => `${v.boards} board${v.boards > 1 ? "s" : ""}: ${v.follower.published.toLocaleString("en-US")}`)
      .join(", ");
    ctx.report.add({
      scenario: `${SCENARIO}: 50 leaderboards on the event vs 1, every board followed over MQTT`,
      metric: `event CPU (workerd), ms per event; members ranked and every change published (messages received, ${messages})`,
      value: cpu("b50-followed"),
      ceiling: cpu("b1-followed"),
      ratio: cpu("b50-followed") / cpu("b1-followed"),
      unit: "ms",
    });
    ctx.report.add({
      scenario: `${SCENARIO}: per leaderboard the event feeds, every board followed over MQTT`,
      metric: "event CPU (workerd): (50 boards − 1 board, all followed) ÷ 49, µs",
      value: ((cpu("b50-followed") - cpu("b1-followed")) / 49) * 1000,
      unit: "µs",
    });
  } else {
    ctx.report.missing(
      `${SCENARIO}: CPU per challenge and per leaderboard`,
      "needs the benchmark's own local server (CPU of its processes)",
    );
  }
  await verify(ctx, variants);
}

/** Every user's counters of the challenges that count the event, and their score on every board, exact. */
async function verify(ctx, variants) {
  let checked = 0;
  let wrong = 0;
  const samples = [];
  for (const v of variants) {
    await mapPool(v.users, 8, async (user, u) => {
      const expected = v.expected.get(user) ?? 0;
      const counters = await countersOf(ctx, v.app, v.tokens[u]);
      for (const id of v.app.listeningIds) {
        checked++;
        if (counters.get(id) !== expected && ++wrong && samples.length < 3)
          samples.push(`${v.key} ${user}/${id}: ${counters.get(id)} ≠ ${expected}`);
      }
    });
  }
  ctx.report.add({
    scenario: `${SCENARIO}, end of run`,
    metric: "challenge counters exact (every user of every app)",
    value: checked - wrong,
    ceiling: checked,
    target: "all exact",
    pass: wrong === 0,
  });
  let scores = 0;
  let wrongScores = 0;
  for (const v of variants.filter((v) => v.boards > 0)) {
    const scoresOf = async (user) => {
      const r = await ctx.client.json("GET", `/api/v1/leaderboards-members/user/${user}`, {
        token: v.app.apiKey,
        expect: null,
      });
      return new Map((r.body ?? []).map((entry) => [String(entry.leaderboard_id), entry.member?.score ?? 0]));
    };
    // Scores arrive through the background queue: wait until the last user's are complete.
    const last = v.users[v.users.length - 1];
    await waitFor(
      async () =>
        [...(await scoresOf(last)).values()].every((s) => s === (v.expected.get(last) ?? 0)) ? true : undefined,
      60_000,
    );
    await mapPool(v.users, 8, async (user) => {
      const expected = v.expected.get(user) ?? 0;
      const byBoard = await scoresOf(user);
      for (const id of v.boardIds) {
        scores++;
        if ((byBoard.get(String(id)) ?? 0) !== expected && ++wrongScores && samples.length < 6)
          samples.push(`${v.key} ${user} board ${id}: ${byBoard.get(String(id))} ≠ ${expected}`);
      }
    });
  }
  ctx.report.add({
    scenario: `${SCENARIO}, end of run`,
    metric: "leaderboard scores exact (every user on every board)",
    value: scores - wrongScores,
    ceiling: scores,
    target: "all exact",
    pass: wrongScores === 0,
  });
  if (samples.length) ctx.report.note(`Event growth: wrong counters or scores, e.g. ${samples.join("; ")}.`);
}
