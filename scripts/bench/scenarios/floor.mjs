// The runtime floor: what this runtime itself allows, measured on a minimal Worker
// (scripts/bench/floor/) started next to the service. Its trivial route does one D1 read, as the
// service's trivial route does for its API key; its object route adds one read and one write in a
// SQLite Durable Object, the least an event does in its user's object. Called on objects that
// wrangler dev evicted (it drops an object idle for 10 s, so every event of the 10,000-user intake
// wakes its user's object) and on objects kept in memory. The ratios bound what intake can reach.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "../../lib/dev-server.mjs";
import { compareInRounds } from "../compare.mjs";
import { createClient, runLoad } from "../http.mjs";

const CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), "../floor/wrangler.toml");
/** wrangler dev evicts an object after 10 s without calls; a margin on top. */
const EVICTION_WAIT_MS = 12_000;
const IN_MEMORY_OBJECTS = 100;

export async function run(ctx) {
  const scenario = "runtime floor (a minimal Worker on the same runtime, none of the service's code)";
  if (!ctx.server.local) return ctx.report.missing(scenario, "needs a local runtime (not BENCH_URL)");
  const { floor, events, seconds, rounds } = ctx.config;
  const persistTo = mkdtempSync(path.join(tmpdir(), "gamification-bench-floor-"));
  const server = await startDevServer({ port: ctx.config.port + 1000, persistTo, config: CONFIG, readyPath: "/trivial", quiet: true, localTraces: false });
  const client = createClient(server.url);
  const object = (name) => ({ method: "GET", path: `/object?name=${name}` });
  try {
    const created = await runLoad(client, {
      concurrency: events.concurrency,
      maxRequests: floor.objects,
      maxMs: Infinity,
      make: (i) => object(`evicted-${i}`),
    });
    if (created.ok !== floor.objects) throw new Error(`creating the floor's objects failed: ${JSON.stringify(created.failures)}`);
    await new Promise((resolve) => setTimeout(resolve, EVICTION_WAIT_MS));

    const phases = [
      { key: "trivial", label: "floor: trivial route", concurrency: events.concurrency, make: () => ({ method: "GET", path: "/trivial" }) },
      // Request numbers are used once each, so every call wakes an object idle since its creation.
      { key: "evicted", label: "floor: evicted objects", concurrency: events.concurrency, make: (i) => object(`evicted-${i}`) },
      { key: "memory", label: "floor: objects in memory", concurrency: events.concurrency, make: (i) => object(`memory-${i % IN_MEMORY_OBJECTS}`) },
    ];
    // Bounded so that the evicted phase (after a warm-up of at most 200) never runs out of objects.
    const results = await compareInRounds({ ...ctx, client, measured: (_label, fn) => fn() }, phases, { rounds, seconds, requests: floor.objects - 210 });
    const trivial = results.trivial;
    const concurrent = `${events.concurrency} concurrent`;
    ctx.report.add({ scenario, metric: `trivial route: one D1 read (req/s, ${concurrent})`, value: trivial.rps, p50: trivial.p50, p99: trivial.p99 });
    for (const [key, what] of [
      ["evicted", `one read + one write in an object evicted since its last call, as at every event of the ${events.users.toLocaleString("en-US")}-user intake`],
      ["memory", `one read + one write in one of ${IN_MEMORY_OBJECTS} objects kept in memory`],
    ]) {
      const r = results[key];
      ctx.report.add({ scenario, metric: `${what} (req/s, ${concurrent})`, value: r.rps, ceiling: trivial.rps, ratio: r.rps / trivial.rps, p50: r.p50, p99: r.p99 });
    }
  } finally {
    client.close();
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
}
