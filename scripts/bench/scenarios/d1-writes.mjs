// What the background consumer costs D1, on a Worker of its own: the service started with
// scripts/bench/consumer/worker.js as main, which hands synthetic batches of event messages
// straight to the service's consumer (no intake in front, batches one after the other, as one
// queue consumer invocation runs them) and counts D1's rows read and written, indexes included.
// Every figure is measured in interleaved rounds next to its yardstick: score updates applied per
// second against plain D1 inserts of the same number of rows per statement, and the analytics
// writes of each event against those of the Worker before migration 0008 (a row per event in
// analytics_events), run on a copy of that table as migrations/0002 created it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startDevServer } from "../../lib/dev-server.mjs";
import { projectRoot } from "../../lib/wrangler.mjs";
import { createApp } from "../api.mjs";
import { BENCH_VARS } from "../config.mjs";
import { createClient } from "../http.mjs";
import { d1DatabaseFile, rowCount, tableBytes } from "../storage.mjs";

const ENTRY = "scripts/bench/consumer/worker.js";
const MODES = ["consumer", "raw", "analytics", "days", "before"];
/** Batches per call of the benchmark route: enough that one HTTP call weighs nothing. */
const BATCHES_PER_CALL = 10;

/** The statements of migrations/0002 that create analytics_events and its indexes. */
function analyticsTableBefore0008() {
  const sql = readFileSync(path.join(projectRoot, "migrations/0002_events.sql"), "utf8").replace(/--.*$/gm, "");
  return sql
    .split(";")
    .map((s) => s.trim())
    .filter((s) => /\banalytics_events\b/.test(s));
}

export async function run(ctx) {
  const scenario = "background consumer";
  if (!ctx.server.local) return ctx.report.missing(scenario, "needs a local runtime (not BENCH_URL)");
  const { d1, seconds, rounds } = ctx.config;
  const persistTo = mkdtempSync(path.join(tmpdir(), "gamification-bench-d1-"));
  const server = await startDevServer({
    port: ctx.config.port + 2000,
    persistTo,
    vars: BENCH_VARS,
    entry: ENTRY,
    quiet: true,
    localTraces: false,
  });
  const client = createClient(server.url);
  try {
    const app = await createApp(client, BENCH_VARS.ADMIN_TOKEN, "Bench D1");
    await client.json("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
      token: BENCH_VARS.ADMIN_TOKEN,
      body: {
        name: "Bench kills",
        event_name: "kill-enemy",
        value_field: "amount",
        aggregation: "sum",
        sort_order_ascending: false,
      },
    });
    await client.json("POST", "/bench/d1/setup", { body: { before: analyticsTableBefore0008() } });

    let nextUser = 0;
    const call = async (mode, batches) => {
      const query = `mode=${mode}&app=${app.appId}&batches=${batches}&size=${d1.batchSize}&first=${nextUser}&users=${d1.users}`;
      nextUser += batches * d1.batchSize;
      return (await client.json("POST", `/bench/d1/run?${query}`)).body;
    };
    for (const mode of MODES) await call(mode, 2);
    const totals = Object.fromEntries(
      MODES.map((mode) => [mode, { ms: 0, d1Ms: 0, events: 0, rowsWritten: 0, rowsRead: 0 }]),
    );
    for (let round = 0; round < rounds; round++) {
      for (const mode of MODES) {
        const deadline = Date.now() + (seconds * 1000) / rounds;
        while (Date.now() < deadline) {
          const r = await call(mode, BATCHES_PER_CALL);
          for (const key of Object.keys(totals[mode])) totals[mode][key] += r[key];
        }
      }
    }
    const size = d1.batchSize;
    const perSecond = (mode) => (totals[mode].events / totals[mode].ms) * 1000;
    /** Events per second of time spent in D1 calls, for a mode that makes one call at a time. */
    const perD1Second = (mode) => (totals[mode].events / totals[mode].d1Ms) * 1000;
    const written = (mode) => totals[mode].rowsWritten / totals[mode].events;
    for (const mode of MODES) {
      const t = totals[mode];
      ctx.log(
        `d1 ${mode}: ${perSecond(mode).toFixed(0)} events/s, ${written(mode).toFixed(2)} rows written and ${(t.rowsRead / t.events).toFixed(1)} read per event, ` +
          `D1 busy ${((t.d1Ms / t.events) * size).toFixed(1)} ms per batch`,
      );
    }

    ctx.report.add({
      scenario: `${scenario}, batches of ${size} events of distinct users on 1 leaderboard (its own Worker, batches one after the other)`,
      metric: `score updates applied per second, with the events' archive (R2) and counts; ceiling: plain D1 inserts of ${size} rows per statement`,
      value: perSecond("consumer"),
      ceiling: perSecond("raw"),
      ratio: perSecond("consumer") / perSecond("raw"),
    });
    ctx.report.add({
      scenario: `${scenario}, analytics of batches of ${size} events (its own Worker, batches one after the other)`,
      metric:
        "events per second of time in D1 calls (the archive's R2 writes left out), now (one round trip for first deliveries); ceiling: before migration 0008",
      value: perD1Second("analytics"),
      ceiling: perD1Second("before"),
      ratio: perD1Second("analytics") / perD1Second("before"),
    });
    const perEvent = `D1 rows written per event (indexes included, as D1 bills them; ${size} events per batch)`;
    const before = written("before");
    const now = written("analytics");
    ctx.report.add({
      scenario: perEvent,
      metric: "analytics before migration 0008: a row of analytics_events with its 3 index entries, the usage count",
      value: before,
    });
    ctx.report.add({
      scenario: perEvent,
      metric: "analytics now: a receipt, the hourly counts, the usage count (the event itself goes to R2)",
      value: now,
      ceiling: before,
      ratio: now / before,
      target: "fewer",
      pass: now < before,
    });
    const days = written("days");
    ctx.report.add({
      scenario: perEvent,
      metric:
        "analytics now, every event a returning player's first of the UTC day: also the players per day and a retention cell",
      value: days,
      ceiling: now,
      ratio: days / now,
    });
    ctx.report.add({
      scenario: `${scenario}, analytics of batches of ${size} events, every one a returning player's first of the UTC day (its own Worker)`,
      metric:
        "events per second of time in D1 calls, counting the players per day and retention too; ceiling: the same events without",
      value: perD1Second("days"),
      ceiling: perD1Second("analytics"),
      ratio: perD1Second("days") / perD1Second("analytics"),
    });
    const allNow = written("consumer");
    const allBefore = allNow - now + before;
    ctx.report.add({
      scenario: perEvent,
      metric: "an event on 1 leaderboard, the whole consumer, before migration 0008",
      value: allBefore,
    });
    ctx.report.add({
      scenario: perEvent,
      metric: `an event on 1 leaderboard, the whole consumer, now (${(allNow * perSecond("consumer")).toFixed(0)} rows/s at the rate above)`,
      value: allNow,
      ceiling: allBefore,
      ratio: allNow / allBefore,
      target: "fewer",
      pass: allNow < allBefore,
    });
    reportStorage(ctx, persistTo, (await client.json("GET", "/bench/d1/archive")).body);
  } finally {
    client.close();
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
}

/**
 * What the events left behind: bytes of an event in R2, and in D1 of the two rows per event that
 * guard against redelivered queue messages (the analytics receipt, the leaderboards' claim).
 */
function reportStorage(ctx, persistTo, archive) {
  const scenario = "storage of event analytics";
  ctx.report.add({
    scenario,
    metric: `R2 bytes per archived event, gzip NDJSON (${archive.objects.toLocaleString("en-US")} objects)`,
    value: archive.bytes / archive.events,
    unit: "B",
  });
  const file = d1DatabaseFile(persistTo);
  const tables = file && tableBytes(file, "");
  if (!tables) return ctx.report.note("D1 bytes per row not measured: no sqlite3 tool.");
  for (const [table, what] of [
    ["event_receipts", "an analytics receipt, kept 6 to 8 hours"],
    ["leaderboard_applied_events", "a leaderboards' claim, kept 24 hours"],
  ]) {
    const rows = rowCount(file, table);
    if (!rows) continue;
    // The table's b-tree and those of its indexes (SQLite names an automatic one sqlite_autoindex_<table>_N).
    const pages = Object.entries(tables)
      .filter(
        ([name]) => name === table || name.startsWith(`${table}_`) || name.startsWith(`sqlite_autoindex_${table}_`),
      )
      .reduce((sum, [, t]) => sum + t.pages, 0);
    ctx.report.add({
      scenario,
      metric: `D1 bytes per row of ${table}: ${what}; pages of the table and its indexes (${rows.toLocaleString("en-US")} rows)`,
      value: pages / rows,
      unit: "B",
    });
  }
}
