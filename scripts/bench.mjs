// `npm run bench`: measures the service next to its ceilings on a local `wrangler dev` and prints
// one markdown table. Sizes and bounds: scripts/bench/config.mjs (environment variables). A scenario
// whose feature the server lacks is reported as "n/a (feature missing: ...)"; the others still run.
import os from "node:os";
import { BENCH_VARS, readConfig } from "./bench/config.mjs";
import { createClient } from "./bench/http.mjs";
import { createReport } from "./bench/report.mjs";
import { detectFeatures } from "./bench/api.mjs";
import { openServer } from "./bench/server.mjs";
import { createMeasure } from "./bench/measure.mjs";
import * as leaderboards from "./bench/scenarios/leaderboards.mjs";
import * as events from "./bench/scenarios/events.mjs";
import * as listing from "./bench/scenarios/listing.mjs";
import * as growth from "./bench/scenarios/growth.mjs";
import * as fanout from "./bench/scenarios/fanout.mjs";
import * as realtime from "./bench/scenarios/realtime.mjs";
import * as webhooks from "./bench/scenarios/webhooks.mjs";
import { openFloor } from "./bench/floor.mjs";
import * as d1Writes from "./bench/scenarios/d1-writes.mjs";
import * as broker from "./bench/scenarios/broker.mjs";
import * as intakeBreakdown from "./bench/scenarios/intake-breakdown.mjs";
import * as fairplay from "./bench/scenarios/fairplay.mjs";
import * as players from "./bench/scenarios/players.mjs";
import * as points from "./bench/scenarios/points.mjs";
import * as streaks from "./bench/scenarios/streaks.mjs";
import * as achievements from "./bench/scenarios/achievements.mjs";
import * as leagues from "./bench/scenarios/leagues.mjs";

const config = readConfig();
const report = createReport();
const log = (...args) => console.error(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...args);
const started = Date.now();

log(config.url ? `using ${config.url}` : `starting wrangler dev on port ${config.port}`);
const server = await openServer(config);
if (config.keepState && server.persistTo) log(`state kept in ${server.persistTo}`);
let client = createClient(server.url);
const measure = createMeasure({ server, config, log });
/** The runtime floor's server (bench/floor.mjs), started at its first use. */
let floorServer;
const stopAll = async () => {
  measure.closeProfiler();
  client.close();
  await server.stop();
  server.cleanup();
  await (await floorServer?.catch(() => undefined))?.stop();
};
process.on("SIGINT", () => stopAll().then(() => process.exit(130)));

const ctx = {
  config,
  report,
  log,
  server,
  get client() {
    return client;
  },
  /** Runs `fn` while the local server is stopped (its state kept), then starts it again. */
  async withServerStopped(fn) {
    measure.closeProfiler();
    client.close();
    await server.stop();
    try {
      return await fn();
    } finally {
      await server.start();
      client = createClient(server.url);
    }
  },
  /**
   * Runs a measured phase (a runLoad), adding the server's CPU time to its result, and a profile when asked
   * (measure.mjs).
   */
  measured: (label, fn, options) => measure.measured(label, fn, options),
  /** Waits until the server's processes are idle: the background queue has applied what a phase sent. */
  settle: () => measure.settle(),
  /** The runtime floor (needs a local runtime): its phases go into a scenario's rounds. */
  floor() {
    floorServer ??= openFloor(ctx);
    return floorServer;
  },
  adminToken: config.url ? config.adminToken : BENCH_VARS.ADMIN_TOKEN,
  features: await detectFeatures(client),
};
log("features missing:", JSON.stringify(Object.fromEntries(Object.entries(ctx.features).filter(([, v]) => v.length))));

// Leaderboards first: seeding them restarts the server.
const plan = [
  ["leaderboards", leaderboards.run],
  ["events", events.runDistinctUsers],
  ["hot-user", events.runHotUser],
  ["warm", events.runWarmUsers],
  ["d1", d1Writes.run],
  ["broker", broker.run],
  // Reads back the counters of the intake scenarios (no-op when none ran).
  ["counters", events.verifyCounters],
  ["listing", listing.run],
  ["points", points.run],
  ["streaks", streaks.run],
  ["achievements", achievements.run],
  ["leagues", leagues.run],
  ["growth", growth.run],
  ["realtime", realtime.run],
  ["fanout", fanout.run],
  ["webhooks", webhooks.run],
  // Last: its unlimited flood leaves the background queue the most work.
  ["fairplay", fairplay.run],
  ["intake-breakdown", intakeBreakdown.run],
  // Its own local D1, apart from the server's.
  ["players", players.run],
];
try {
  for (const [name, run] of plan) {
    if (name !== "counters" && !config.scenarios.includes(name)) continue;
    const t0 = Date.now();
    log(`scenario ${name}`);
    try {
      await run(ctx);
    } catch (err) {
      log(`scenario ${name} failed:`, err.stack ?? err);
      report.add({
        scenario: name,
        metric: `error: ${String(err.message ?? err)
          .split("\n")[0]
          .slice(0, 160)}`,
        target: "runs",
        pass: false,
      });
    }
    log(`scenario ${name} took ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
} finally {
  await stopAll();
}

const cpu = os.cpus();
console.log(report.markdown());
console.log(
  `\n${new Date().toISOString().slice(0, 10)}, ${cpu.length} × ${cpu[0]?.model.trim() ?? "cpu"}, ${Math.round(os.totalmem() / 2 ** 30)} GB, ` +
    `Node ${process.version}, ${config.url ? config.url : "local wrangler dev (workerd)"}; run took ${Math.round((Date.now() - started) / 1000)} s.`,
);
for (const note of report.notes) console.log(`- ${note}`);
process.exit(report.rows.some((r) => r.pass === false) ? 1 : 0);
