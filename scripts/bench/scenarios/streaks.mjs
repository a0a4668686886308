// Streaks: what a streak adds to an event, and what the decision at a period's end costs per
// player. The event cost is measured as in the points scenario: two apps that differ only in the
// streaks the event keeps (1 and 20), the same load to each in interleaved rounds, "event CPU" being
// the CPU of the workerd that runs everything. The period's end needs the development clock, so it
// runs on a server of its own with DEV_CLOCK=on: players each keep one day of a streak, then one
// advance of the clock past the next day's end runs every player's alarm work (the streak lost),
// and the CPU of that server's runtime from the advance until it is idle again, divided by the
// players, is the alarm cost per player. Afterwards every player's streak is read back.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { createApp, mapPool, missingFor, sleep, withoutRateLimits } from "../api.mjs";
import { BENCH_VARS } from "../config.mjs";
import { createClient } from "../http.mjs";
import { cpuTimeMs, serverProcesses, totalMs, WORKER_RUNTIME } from "../profile.mjs";
import { startDevServerOnFreePort } from "../../lib/dev-server.mjs";

const SCENARIO = "streaks";
const EVENT = "practice";
const USERS = 50;
const CONCURRENCY = 32;
const MANY = 20;
/** Event CPU per streak the event keeps. */
const PER_STREAK_TARGET_US = 20;
/** Players whose streak ends at the same period's end. */
const ALARM_PLAYERS = 200;

async function streaksApp(client, adminToken, key, count) {
  const name = `Bench streaks ${key}`;
  const app = await createApp(client, adminToken, name);
  await withoutRateLimits(client, adminToken, app.appId, name);
  for (let i = 0; i < count; i++) {
    const r = await client.json("POST", `/api/v1/admin/apps/${app.appId}/streaks`, {
      token: adminToken,
      body: {
        key: `streak-${i}`,
        name: `Streak ${i}`,
        period: i % 2 ? "weekly" : "daily",
        event_name: EVENT,
        min_count: 1 + (i % 3),
        time_zone: "Europe/Berlin",
        freezes: { initial: 1, earn_every: 7, max: 2 },
      },
    });
    if (r.status !== 201) throw new Error(`streak: ${r.status} ${JSON.stringify(r.body)}`);
  }
  return { key, count, app, users: Array.from({ length: USERS }, (_, i) => `${key}-user-${i}`) };
}

const eventPhase = (ctx, v) => ({
  key: v.key,
  label: `streaks: ${v.count} streak${v.count > 1 ? "s" : ""} on the event`,
  concurrency: CONCURRENCY,
  make: (i) => ({
    method: "POST",
    path: "/api/v1/events",
    token: v.app.apiKey,
    body: { user_id: v.users[i % USERS], event_name: EVENT, meta_data: {} },
  }),
  before: async () => {
    await mapPool(v.users, 8, (user) =>
      ctx.client.request("POST", "/api/v1/events", {
        token: v.app.apiKey,
        body: { user_id: user, event_name: EVENT, meta_data: {} },
      }),
    );
    await ctx.settle();
  },
  after: () => ctx.settle(),
});

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "check", "streaks");
  if (why) return ctx.report.missing(SCENARIO, why);
  const variants = [
    await streaksApp(ctx.client, ctx.adminToken, "s1", 1),
    await streaksApp(ctx.client, ctx.adminToken, `s${MANY}`, MANY),
  ];
  const results = await compareInRounds(
    ctx,
    [ceilingPhase(variants[0].app.apiKey, CONCURRENCY), ...variants.map((v) => eventPhase(ctx, v))],
    { rounds: ctx.config.rounds, seconds: ctx.config.seconds, requests: ctx.config.events.requests },
  );
  for (const v of variants) {
    const r = results[v.key];
    ctx.report.add({
      scenario: `${SCENARIO}: ${v.count} streak${v.count > 1 ? "s" : ""} on the event, ${USERS} users, ${CONCURRENCY} concurrent`,
      metric: `events/s; event CPU (workerd)${r.runtimeCpuMs === undefined ? " n/a" : ` ${r.runtimeCpuMs.toFixed(2)} ms`}`,
      value: r.rps,
      ceiling: results.ceiling.rps,
      ratio: r.rps / results.ceiling.rps,
      p50: r.p50,
      p99: r.p99,
    });
  }
  const cpu = (key) => results[key].runtimeCpuMs;
  if (cpu("s1") !== undefined) {
    const perStreak = ((cpu(`s${MANY}`) - cpu("s1")) / (MANY - 1)) * 1000;
    ctx.report.add({
      scenario: `${SCENARIO}: per streak the event keeps`,
      metric: `event CPU (workerd): (${MANY} streaks − 1 streak) ÷ ${MANY - 1}, µs`,
      value: perStreak,
      unit: "µs",
      target: `≤ ${PER_STREAK_TARGET_US} µs`,
      pass: perStreak <= PER_STREAK_TARGET_US,
    });
  } else
    ctx.report.missing(`${SCENARIO}: CPU per streak`, "needs the benchmark's own local server (CPU of its processes)");
  if (!ctx.server.local)
    return ctx.report.missing(`${SCENARIO}: alarm per player`, "needs a local server with the development clock");
  await alarmCost(ctx);
}

/** Waits until the processes stay idle for 1.5 s (the background queue has nothing left). */
async function idle(processes) {
  let last = totalMs(cpuTimeMs(processes));
  let quietSince = Date.now();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && Date.now() - quietSince < 1500) {
    await sleep(100);
    const now = totalMs(cpuTimeMs(processes));
    if (now - last > 10) quietSince = Date.now();
    last = now;
  }
}

async function alarmCost(ctx) {
  const persistTo = mkdtempSync(path.join(tmpdir(), "gamification-bench-streaks-"));
  const server = await startDevServerOnFreePort({
    persistTo,
    vars: { ...BENCH_VARS, DEV_CLOCK: "on" },
    quiet: true,
    localTraces: false,
  });
  const client = createClient(server.url);
  try {
    const token = BENCH_VARS.ADMIN_TOKEN;
    const v = await streaksApp(client, token, "alarm", 1);
    const players = Array.from({ length: ALARM_PLAYERS }, (_, i) => `alarm-player-${i}`);
    // min_count of the first streak is 1: one event keeps today.
    await mapPool(players, 16, (user) =>
      client.request("POST", "/api/v1/events", {
        token: v.app.apiKey,
        body: { user_id: user, event_name: EVENT, meta_data: {} },
      }),
    );
    const processes = serverProcesses(Number(new URL(server.url).port));
    await idle(processes);
    // The freeze bridges tomorrow; the day after, the streak is lost: two decisions per player.
    const before = cpuTimeMs(processes);
    const t0 = Date.now();
    const r = await client.json("POST", "/api/v1/admin/dev/clock/advance", {
      token,
      body: { advance_seconds: 3 * 86_400 },
    });
    if (r.status !== 200) throw new Error(`clock advance: ${r.status} ${JSON.stringify(r.body)}`);
    const wallMs = Date.now() - t0;
    await idle(processes);
    const after = cpuTimeMs(processes);
    const runtimeMs = (after[WORKER_RUNTIME] ?? 0) - (before[WORKER_RUNTIME] ?? 0);
    ctx.report.add({
      scenario: `${SCENARIO}: a period's end for ${ALARM_PLAYERS} players who never return (freeze used, then lost)`,
      metric: `alarm CPU (workerd) per player, with the development clock's own D1 reads and writes, ms; the advance took ${wallMs} ms`,
      value: runtimeMs / ALARM_PLAYERS,
      unit: "ms",
    });
    let wrong = 0;
    await mapPool(players, 8, async (user) => {
      const s = await client.json("GET", `/api/v1/streaks/${v.app.appId}?user_id=${user}`, { token: v.app.apiKey });
      const streak = s.body?.streaks?.[0] ?? {};
      if (streak.length !== 0 || streak.lost_length !== 1 || streak.freezes !== 0) wrong++;
    });
    ctx.report.add({
      scenario: `${SCENARIO}: streaks read back after the period's end`,
      metric: `players whose streak is not lost after its freeze, of ${ALARM_PLAYERS}`,
      value: wrong,
      target: "0",
      pass: wrong === 0,
    });
  } finally {
    client.close();
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
