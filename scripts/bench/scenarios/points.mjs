// Points systems: what a trigger adds to an event, and grants for one player. The event cost is
// measured as in the growth scenario: two apps that differ only in the triggers the event feeds
// (1 and 50, on one system), the same load to each in interleaved rounds, "event CPU" being the
// CPU of the workerd that runs everything, background work included. Grants go to one player,
// every request to the same object, against the runtime floor of one object (floor.mjs). Afterwards
// the balances are read back and compared with what the accepted requests credited.
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { createApp, mapPool, missingFor, withoutRateLimits } from "../api.mjs";
import { addAgainstFloorRows } from "../floor.mjs";

const SCENARIO = "points";
const EVENT = "slay";
const USERS = 50;
const CONCURRENCY = 32;
const GRANTERS = 100;
/** Event CPU per trigger the event feeds: the budget of a counting challenge. */
const PER_TRIGGER_TARGET_US = 20;
/** Grants to one player as a share of the runtime floor of one object (the hot user's target). */
const GRANTS_FLOOR_TARGET = 0.8;

async function triggerApp(ctx, key, triggers) {
  const name = `Bench points ${key}`;
  const app = await createApp(ctx.client, ctx.adminToken, name);
  await withoutRateLimits(ctx.client, ctx.adminToken, app.appId, name);
  const r = await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/points-systems`, {
    token: ctx.adminToken,
    body: {
      key: "xp",
      name: "XP",
      spendable: true,
      levels: [
        { level: 1, name: "One", points: 0 },
        { level: 2, name: "Two", points: 1000 },
      ],
      triggers: Array.from({ length: triggers }, (_, i) => ({ event_name: EVENT, every: 1 + (i % 3), points: 1 })),
    },
  });
  if (r.status !== 201) throw new Error(`points system: ${r.status} ${JSON.stringify(r.body)}`);
  const users = Array.from({ length: USERS }, (_, i) => `${key}-user-${i}`);
  return { key, triggers, app, users, sent: new Map() };
}

const eventPhase = (v) => ({
  key: v.key,
  label: `points: ${v.triggers} trigger${v.triggers > 1 ? "s" : ""} on the event`,
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

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "check", "points");
  if (why) return ctx.report.missing(SCENARIO, why);
  const variants = [await triggerApp(ctx, "t1", 1), await triggerApp(ctx, "t50", 50)];
  for (const v of variants) Object.assign(v, { client: ctx.client, settle: () => ctx.settle() });
  const granted = { app: variants[0].app, user: "grant-hot-user", ok: 0 };
  const floor = ctx.server.local ? await ctx.floor() : undefined;
  const results = await compareInRounds(
    ctx,
    [
      ceilingPhase(variants[0].app.apiKey, CONCURRENCY),
      ...variants.map(eventPhase),
      ceilingPhase(granted.app.apiKey, GRANTERS),
      {
        key: "grants",
        label: `points: grants to one player, ${GRANTERS} concurrent`,
        concurrency: GRANTERS,
        make: (i) => ({
          method: "POST",
          path: `/api/v1/points/${granted.app.appId}/xp/grant`,
          token: granted.app.apiKey,
          body: { user_id: granted.user, amount: 1, reason: "bench", idempotency_key: `g-${i}` },
        }),
        onResult: (_i, r) => r.status === 200 && granted.ok++,
      },
      ...(floor ? [floor.trivial(GRANTERS), floor.hot(GRANTERS)] : []),
    ].map((phase, i) => (phase.key === "ceiling" && i > 0 ? { ...phase, key: "ceiling-grants" } : phase)),
    { rounds: ctx.config.rounds, seconds: ctx.config.seconds, requests: ctx.config.events.requests },
  );
  const cpu = (key) => results[key].runtimeCpuMs;
  for (const v of variants) {
    const r = results[v.key];
    ctx.report.add({
      scenario: `${SCENARIO}: ${v.triggers} trigger${v.triggers > 1 ? "s" : ""} on the event, ${USERS} users, ${CONCURRENCY} concurrent`,
      metric: `events/s; event CPU (workerd)${r.runtimeCpuMs === undefined ? " n/a" : ` ${r.runtimeCpuMs.toFixed(2)} ms`}`,
      value: r.rps,
      ceiling: results.ceiling.rps,
      ratio: r.rps / results.ceiling.rps,
      p50: r.p50,
      p99: r.p99,
    });
  }
  if (cpu("t1") !== undefined) {
    const perTrigger = ((cpu("t50") - cpu("t1")) / 49) * 1000;
    ctx.report.add({
      scenario: `${SCENARIO}: per trigger the event feeds`,
      metric: "event CPU (workerd): (50 triggers − 1 trigger) ÷ 49, µs",
      value: perTrigger,
      unit: "µs",
      target: `≤ ${PER_TRIGGER_TARGET_US} µs`,
      pass: perTrigger <= PER_TRIGGER_TARGET_US,
    });
  } else
    ctx.report.missing(`${SCENARIO}: CPU per trigger`, "needs the benchmark's own local server (CPU of its processes)");
  const grants = results.grants;
  const ceiling = results["ceiling-grants"];
  const scenario = `${SCENARIO}: grants to one player, ${GRANTERS} concurrent`;
  ctx.report.add({
    scenario,
    metric: "grants/s",
    value: grants.rps,
    ceiling: ceiling.rps,
    ratio: grants.rps / ceiling.rps,
    p50: grants.p50,
    p99: grants.p99,
  });
  if (floor)
    addAgainstFloorRows(ctx, {
      results,
      key: "floor-hot",
      scenario,
      figure: grants,
      ceiling,
      floorName: "one object for every request",
      target: GRANTS_FLOOR_TARGET,
    });
  await verify(ctx, variants, granted);
}

/** Every balance exact: the grants accepted, and the points each user's events gave. */
async function verify(ctx, variants, granted) {
  const read = async (app, user) =>
    (
      await ctx.client.json("GET", `/api/v1/points/${app.appId}?user_id=${encodeURIComponent(user)}`, {
        token: app.apiKey,
      })
    ).body.systems.find((s) => s.key === "xp")?.balance ?? 0;
  let wrong = 0;
  let checked = 0;
  const expectedOf = (v, events) =>
    Array.from({ length: v.triggers }, (_, i) => Math.floor(events / (1 + (i % 3)))).reduce((a, b) => a + b, 0);
  for (const v of variants) {
    await mapPool(v.users, 8, async (user) => {
      checked++;
      if ((await read(v.app, user)) !== expectedOf(v, v.sent.get(user) ?? 0)) wrong++;
    });
  }
  checked++;
  if ((await read(granted.app, granted.user)) !== granted.ok) wrong++;
  ctx.report.add({
    scenario: `${SCENARIO}: balances read back`,
    metric: `balances that differ from what was credited, of ${checked}`,
    value: wrong,
    target: "0",
    pass: wrong === 0,
  });
}
