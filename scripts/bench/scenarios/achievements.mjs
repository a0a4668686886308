// Achievements: what they add to an event, what they keep per player, and a list of 1,000. The
// event cost is measured as in the points scenario: apps that differ only in the achievements the
// event counts for (none, 1 and 50 metric ones; of the 50, half read the player's totals and half
// count on their own through a filter every event passes, all with thresholds never reached), the
// same load to each in interleaved rounds, "event CPU" being the CPU of the workerd that runs
// everything, background work included. The app without achievements still keeps the player's
// totals per event name (backdating). Storage per player is read from the objects' SQLite files of
// fresh players of each app. The list of 1,000 achievements (with an access token) is set against
// the runtime floor of an answer of its size from an object (floor.mjs). Afterwards every player's
// progress is read back and compared with the events accepted.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { cpuNote } from "../report.mjs";
import { createApp, mapPool, mintTokens, missingFor, withoutRateLimits } from "../api.mjs";
import { addAgainstFloorRow, addFloorRows, IN_MEMORY_OBJECTS } from "../floor.mjs";
import { tableBytes, userObjectFiles } from "../storage.mjs";

const SCENARIO = "achievements";
const EVENT = "slay";
const USERS = 50;
const CONCURRENCY = 32;
/** Event CPU per metric achievement counting the event. */
const PER_ACHIEVEMENT_TARGET_US = 20;
/** The list of 1,000 achievements as a share of the floor of an answer of its size from an object. */
const LIST_FLOOR_TARGET = 0.8;
const LIST_SIZE = 1000;
const LISTERS = 20;
const STORAGE_USERS = 20;
const STORAGE_EVENTS = 10;
/** Never reached in a run: every achievement keeps counting. */
const FAR = 1_000_000_000;

const create = async (ctx, appId, body) => {
  const r = await ctx.client.json("POST", `/api/v1/admin/apps/${appId}/achievements`, { token: ctx.adminToken, body });
  if (r.status !== 201) throw new Error(`achievement: ${r.status} ${JSON.stringify(r.body)}`);
};

/** The i-th metric achievement of the event: even ones read the totals, odd ones count on their own. */
const metric = (i, event = EVENT) => ({
  key: `${event}-${i}`,
  name: `${event} ${i}`,
  kind: "metric",
  event_name: event,
  aggregation: ["count", "sum", "max"][i % 3],
  threshold: FAR + i,
  ...(i % 2 === 1 ? { filters: [{ field: "realm", op: "ne", value: "nowhere" }] } : {}),
});

async function eventApp(ctx, key, achievements) {
  const name = `Bench achievements ${key}`;
  const app = await createApp(ctx.client, ctx.adminToken, name);
  await withoutRateLimits(ctx.client, ctx.adminToken, app.appId, name);
  await mapPool(
    Array.from({ length: achievements }, (_, i) => i),
    8,
    (i) => create(ctx, app.appId, metric(i)),
  );
  const users = Array.from({ length: USERS }, (_, i) => `${key}-user-${i}`);
  return { key, achievements, app, users, sent: new Map() };
}

const label = (n) => (n === 0 ? "no achievement" : `${n} metric achievement${n > 1 ? "s" : ""}`);

const eventPhase = (v) => ({
  key: v.key,
  label: `achievements: ${label(v.achievements)} on the event`,
  concurrency: CONCURRENCY,
  make: (i) => ({
    method: "POST",
    path: "/api/v1/events",
    token: v.app.apiKey,
    body: { user_id: v.users[i % USERS], event_name: EVENT, meta_data: {} },
  }),
  onResult: (i, r) => r.status === 200 && v.sent.set(v.users[i % USERS], (v.sent.get(v.users[i % USERS]) ?? 0) + 1),
  before: async () => {
    await mapPool(v.users, 8, async (user) => {
      const r = await v.client.request("POST", "/api/v1/events", {
        token: v.app.apiKey,
        body: { user_id: user, event_name: EVENT, meta_data: {} },
      });
      if (r.status === 200) v.sent.set(user, (v.sent.get(user) ?? 0) + 1);
    });
    await v.settle();
  },
  after: () => v.settle(),
});

/** Pages and row data of fresh players' objects of one app, after STORAGE_EVENTS events each. */
async function storageOf(ctx, v) {
  const before = new Set(userObjectFiles(ctx.server.persistTo));
  await mapPool(
    Array.from({ length: STORAGE_USERS }, (_, i) => `${v.key}-stored-${i}`),
    4,
    async (user) => {
      for (let i = 0; i < STORAGE_EVENTS; i++)
        await ctx.client.request("POST", "/api/v1/events", {
          token: v.app.apiKey,
          body: { user_id: user, event_name: EVENT, meta_data: {} },
        });
    },
  );
  await ctx.settle();
  const files = userObjectFiles(ctx.server.persistTo).filter((f) => !before.has(f));
  const sizes = files.map((f) => tableBytes(f, ""));
  if (files.length === 0 || !sizes.every(Boolean)) return undefined;
  const mean = (pick) => sizes.reduce((sum, t) => sum + pick(t), 0) / sizes.length;
  const sum = (t, prefix) =>
    Object.entries(t)
      .filter(([name]) => prefix === "" || name.includes(prefix))
      .reduce((a, [, b]) => a + b.pages, 0);
  return {
    pages: mean((t) => sum(t, "")),
    achievementPages: mean((t) => sum(t, "ach_")),
    achievementRows: mean((t) =>
      Object.entries(t)
        .filter(([name]) => name.includes("ach_"))
        .reduce((a, [, b]) => a + b.payload, 0),
    ),
  };
}

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "check", "achievements");
  if (why) return ctx.report.missing(SCENARIO, why);
  const variants = [await eventApp(ctx, "a0", 0), await eventApp(ctx, "a1", 1), await eventApp(ctx, "a50", 50)];
  for (const v of variants) Object.assign(v, { client: ctx.client, settle: () => ctx.settle() });

  if (ctx.server.local && ctx.server.persistTo)
    for (const v of [variants[0], variants[2]]) {
      const stored = await storageOf(ctx, v);
      if (!stored) {
        ctx.report.missing(`${SCENARIO}: storage per player`, "needs the sqlite3 tool");
        break;
      }
      ctx.report.add({
        scenario: `${SCENARIO}: storage per player, ${label(v.achievements)} (${STORAGE_EVENTS} events of one name)`,
        metric: `bytes in the achievements' SQLite pages (row data ${Math.round(stored.achievementRows)} B); the whole object ${Math.round(stored.pages)} B`,
        value: stored.achievementPages,
        unit: "B",
      });
    }

  // The list: 1,000 achievements of every kind, on many events.
  const listApp = await createApp(ctx.client, ctx.adminToken, "Bench achievements list");
  await withoutRateLimits(ctx.client, ctx.adminToken, listApp.appId, "Bench achievements list");
  await mapPool(
    Array.from({ length: LIST_SIZE }, (_, i) => i),
    8,
    (i) =>
      create(
        ctx,
        listApp.appId,
        i % 10 === 9
          ? { key: `manual-${i}`, name: `Manual ${i}`, kind: "manual", hidden: i % 20 === 19, sort_order: i }
          : { ...metric(i, `event-${i % 25}`), sort_order: i, description: `Do event-${i % 25} often enough` },
      ),
  );
  const tokens = await mintTokens(
    ctx.client,
    listApp.apiKey,
    Array.from({ length: LISTERS }, (_, i) => `lister-${i}`),
  );
  const listPath = `/api/v1/achievements/${listApp.appId}`;
  const counts = await mapPool(
    tokens,
    8,
    async (token) => (await ctx.client.json("GET", listPath, { token })).body.achievements.length,
  );
  if (counts.some((n) => n !== LIST_SIZE))
    throw new Error(`the list has ${counts.find((n) => n !== LIST_SIZE)} achievements, not ${LIST_SIZE}`);
  const bytes = Buffer.byteLength((await ctx.client.request("GET", listPath, { token: tokens[0] })).text);

  const floor = ctx.server.local ? await ctx.floor() : undefined;
  const results = await compareInRounds(
    ctx,
    [
      ceilingPhase(variants[0].app.apiKey, CONCURRENCY),
      ...variants.map(eventPhase),
      { ...ceilingPhase(tokens[0], CONCURRENCY), key: "ceiling-token" },
      {
        key: "list",
        label: `achievements: list of ${LIST_SIZE}`,
        concurrency: CONCURRENCY,
        make: (i) => ({ method: "GET", path: listPath, token: tokens[i % tokens.length] }),
      },
      ...(floor ? [floor.nothing(CONCURRENCY), floor.textForToken(CONCURRENCY, bytes)] : []),
    ],
    { rounds: ctx.config.rounds, seconds: ctx.config.seconds, requests: ctx.config.events.requests },
  );
  const cpu = (key) => results[key].runtimeCpuMs;
  for (const v of variants) {
    const r = results[v.key];
    ctx.report.add({
      scenario: `${SCENARIO}: ${label(v.achievements)} on the event, ${USERS} users, ${CONCURRENCY} concurrent`,
      metric: `events/s; event CPU (workerd)${r.runtimeCpuMs === undefined ? " n/a" : ` ${r.runtimeCpuMs.toFixed(2)} ms`}`,
      value: r.rps,
      ceiling: results.ceiling.rps,
      ratio: r.rps / results.ceiling.rps,
      p50: r.p50,
      p99: r.p99,
    });
  }
  if (cpu("a1") !== undefined) {
    const perAchievement = ((cpu("a50") - cpu("a1")) / 49) * 1000;
    ctx.report.add({
      scenario: `${SCENARIO}: per metric achievement counting the event`,
      metric: "event CPU (workerd): (50 achievements − 1) ÷ 49, µs",
      value: perAchievement,
      unit: "µs",
      target: `≤ ${PER_ACHIEVEMENT_TARGET_US} µs`,
      pass: perAchievement <= PER_ACHIEVEMENT_TARGET_US,
    });
  } else
    ctx.report.missing(
      `${SCENARIO}: CPU per achievement`,
      "needs the benchmark's own local server (CPU of its processes)",
    );

  const list = results.list;
  const tokenCeiling = results["ceiling-token"];
  const listScenario = `${SCENARIO}: list of ${LIST_SIZE.toLocaleString("en-US")} (${Math.round(bytes / 1024)} KB JSON), ${LISTERS} players`;
  ctx.report.add({
    scenario: listScenario,
    metric: `throughput, ${CONCURRENCY} concurrent (req/s${cpuNote(list, tokenCeiling)})`,
    value: list.rps,
    ceiling: tokenCeiling.rps,
    ratio: list.rps / tokenCeiling.rps,
    p50: list.p50,
    p99: list.p99,
  });
  if (floor) {
    const floorKey = `floor-text-${bytes}`;
    addFloorRows(
      ctx,
      results,
      floorKey,
      `one read in one of ${IN_MEMORY_OBJECTS} objects kept in memory, which answers ${Math.round(bytes / 1024)} KB of JSON made once, as large as the list of ${LIST_SIZE.toLocaleString("en-US")} achievements, no D1 read (as with an access token)`,
      CONCURRENCY,
      "access-token",
    );
    addAgainstFloorRow(ctx, {
      scenario: listScenario,
      figure: list,
      ceiling: tokenCeiling,
      results,
      floorKey,
      floorName: `${Math.round(bytes / 1024)} KB answer from an object`,
      target: LIST_FLOOR_TARGET,
      credential: "access-token",
    });
  }
  await verify(ctx, variants);
}

/** Every player's progress exact: the count aggregation of each app equals the events accepted. */
async function verify(ctx, variants) {
  let wrong = 0;
  let checked = 0;
  for (const v of variants.filter((v) => v.achievements > 0)) {
    await mapPool(v.users, 8, async (user) => {
      checked++;
      const r = await ctx.client.json(
        "GET",
        `/api/v1/achievements/${v.app.appId}?user_id=${encodeURIComponent(user)}`,
        {
          token: v.app.apiKey,
        },
      );
      const counted = r.body.achievements.find((a) => a.key === `${EVENT}-0`);
      if (counted?.progress !== (v.sent.get(user) ?? 0)) wrong++;
    });
  }
  ctx.report.add({
    scenario: `${SCENARIO}: progress read back`,
    metric: `players whose count differs from the events accepted, of ${checked}`,
    value: wrong,
    target: "0",
    pass: wrong === 0,
  });
}
