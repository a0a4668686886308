// The runtime floor: what this runtime itself allows, measured on a minimal Worker
// (scripts/bench/floor/) started next to the service, with none of the service's code. Its trivial
// route does one D1 read, as the service's trivial route does for its API key; its object route
// adds one read and one write in a SQLite Durable Object, the least an event does in its user's
// object; its text route answers a JSON text of a given size from an object, the least a list of
// that size costs. Figures of requests with an access token (lists, a first touch) are set against
// the same routes without the D1 read, and the route without I/O as their trivial route: the
// service checks a token's signature without I/O, so the D1 read would weigh on the floor's ratio
// alone. Each object phase also runs with one queue message sent from the object to a consumer that
// only acknowledges it: an accepted event is always handed on to background work, and on this
// runtime that hand-off costs about as much as the object call itself. And once more with that
// message through an outbox, as the service sends it: a row written with the object's write and
// deleted after the send, so that an object reset in between cannot lose it. Called on objects never
// called before (as a user's first touch), on objects that wrangler dev evicted (it drops an object
// idle for 10 s, so every event of the 10,000-user intake wakes its user's object), on objects kept
// in memory, and on one object that every request goes to (as a hot user's). Scenarios measure
// these phases in the same rounds as the service's figures, so each figure is set against its floor
// measured under the same load.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startDevServer } from "../lib/dev-server.mjs";
import { createClient, runLoad } from "./http.mjs";
import { createMeasure } from "./measure.mjs";

const CONFIG = path.join(path.dirname(fileURLToPath(import.meta.url)), "floor/wrangler.toml");
/** wrangler dev evicts an object after 10 s without calls; a margin on top. */
export const EVICTION_WAIT_MS = 12_000;
export const IN_MEMORY_OBJECTS = 100;

export const FLOOR_SCENARIO = "runtime floor (a minimal Worker on the same runtime, none of the service's code)";

/**
 * How an object phase hands on what it did, as the service hands on every accepted event: its
 * name in labels and what the object does after its write.
 */
const HAND_OFFS = {
  send: {
    name: "one queue message",
    what: "then one queue message from the object (its consumer only acknowledges it)",
  },
  outbox: {
    name: "one queue message through an outbox",
    what: "then one queue message from the object through an outbox: the message also written as a row with the object's write, that row deleted after the send in a second commit",
  },
};
/** The floor's server, started once per run at its first use; `stop` ends it with the run. */
export async function openFloor(ctx) {
  const persistTo = mkdtempSync(path.join(tmpdir(), "gamification-bench-floor-"));
  const server = await startDevServer({
    port: ctx.config.port + 1000,
    persistTo,
    config: CONFIG,
    readyPath: "/trivial",
    quiet: true,
    localTraces: false,
  });
  const client = createClient(server.url);
  /** `handOff`: none, "send" (one queue message) or "outbox" (the message also as a row, deleted after the send). */
  const object = (name, handOff, token = false) => ({
    method: "GET",
    path: `/object?name=${name}${handOff ? `&${handOff}=1` : ""}${token ? "&token=1" : ""}`,
  });
  /** The key and label of an object phase, by its hand-off, and the prefix of its objects' names. */
  const named = (key, label, handOff) =>
    handOff ? [`${key}-${handOff}`, `${label}, ${HAND_OFFS[handOff].name}`] : [key, label];
  const pool = (handOff) => (handOff ? `${handOff}-` : "");
  let evictedAt = 0;
  let evictedCount = 0;
  // The floor's CPU per request, from its own processes, as the service's phases measure theirs.
  const measure = createMeasure({ server: { url: server.url, local: true }, config: { profile: false }, log: ctx.log });
  const phase = (key, label, concurrency, make, extra = {}) => ({
    key,
    label: `floor: ${label}`,
    concurrency,
    client,
    measure: measure.measured,
    make,
    ...extra,
  });
  return {
    /** One D1 read. */
    trivial: (concurrency) =>
      phase("floor-trivial", "trivial route", concurrency, () => ({ method: "GET", path: "/trivial" })),
    /** No I/O: against the trivial route, what one D1 round trip adds. */
    nothing: (concurrency) =>
      phase("floor-nothing", "route without I/O", concurrency, () => ({ method: "GET", path: "/nothing" })),
    /** The first call of an object, as with an access token (no D1 read): each request number names a new one. */
    freshForToken: (concurrency, handOff) =>
      phase(...named("floor-fresh-token", "new objects, no D1 read", handOff), concurrency, (i) =>
        object(`fresh-${pool(handOff)}${i}`, handOff, true),
      ),
    /** Request numbers are used once each, so every call wakes an object idle since its creation. */
    evicted: (concurrency, handOff) =>
      // Bounded so that the phase (after a warm-up of at most 200) never runs out of objects.
      phase(
        ...named("floor-evicted", "evicted objects", handOff),
        concurrency,
        (i) => object(`evicted-${pool(handOff)}${i}`, handOff),
        {
          requests: evictedCount - 210,
        },
      ),
    memory: (concurrency, handOff) =>
      phase(...named("floor-memory", "objects in memory", handOff), concurrency, (i) =>
        object(`memory-${pool(handOff)}${i % IN_MEMORY_OBJECTS}`, handOff),
      ),
    /** Every request to one object, as every event of one hot user goes to that user's object. */
    hot: (concurrency, handOff) =>
      phase(...named("floor-hot", "one object", handOff), concurrency, () => object(`hot-${pool(handOff)}`, handOff)),
    /**
     * An answer of `size` bytes made once, from one of the objects kept in memory, as with an access token (no D1
     * read).
     */
    textForToken: (concurrency, size) =>
      phase(`floor-text-${size}`, `${size} bytes from objects in memory, no D1 read`, concurrency, (i) => ({
        method: "GET",
        path: `/object-text?name=memory-${i % IN_MEMORY_OBJECTS}&size=${size}&token=1`,
      })),
    /**
     * Creates `count` objects for each evicted phase (each hand-off), with their tables; they are evicted
     * EVICTION_WAIT_MS later.
     */
    async createEvicted(count, concurrency) {
      const handOffs = [undefined, ...Object.keys(HAND_OFFS)];
      const make = (i) => {
        const handOff = handOffs[Math.floor(i / count)];
        return object(`evicted-${pool(handOff)}${i % count}`, handOff);
      };
      const total = handOffs.length * count;
      const created = await runLoad(client, { concurrency, maxRequests: total, maxMs: Infinity, make });
      if (created.ok !== total)
        throw new Error(`creating the floor's objects failed: ${JSON.stringify(created.failures)}`);
      evictedAt = Date.now();
      evictedCount = count;
    },
    /** Waits until wrangler dev has evicted the objects createEvicted made. */
    async untilEvicted() {
      const wait = evictedAt + EVICTION_WAIT_MS - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    },
    async stop() {
      client.close();
      await server.stop();
      rmSync(persistTo, { recursive: true, force: true });
    },
  };
}

/**
 * The floor's trivial route for each credential of the service's figures: for an API key one D1
 * read (the service reads the key), for an access token no I/O (the service checks its signature).
 */
const FLOOR_TRIVIAL = {
  "api-key": { key: "floor-trivial", label: "trivial route: one D1 read" },
  "access-token": { key: "floor-nothing", label: "trivial route for access tokens: no I/O" },
};

/**
 * Whether the floor lets any service reach a target: a figure cannot pass its floor on the same
 * runtime, so a target the floor itself misses lies beyond what the runtime allows. Said in the
 * pass/fail column of the floor's rows, without counting as a failure of the run.
 */
const reachability = (floorRatio, target) => ({
  target: `the service's target ≥ ${target}×`,
  verdict: floorRatio >= target ? "within the floor" : "**beyond the floor**",
});

/**
 * The floor's trivial route for `credential` and one of its phases, as measured in a scenario's
 * rounds; with `trivialTarget`, the service's target for the operation against its trivial route.
 */
export function addFloorRows(ctx, results, key, what, concurrency, credential = "api-key", trivialTarget) {
  const { key: trivialKey, label } = FLOOR_TRIVIAL[credential];
  const trivial = results[trivialKey];
  ctx.report.add({
    scenario: FLOOR_SCENARIO,
    metric: `${label} (req/s, ${concurrency} concurrent)`,
    value: trivial.rps,
    p50: trivial.p50,
    p99: trivial.p99,
  });
  addFloorRow(ctx, results, key, what, concurrency, trivialKey, trivialTarget);
}

function addFloorRow(ctx, results, key, what, concurrency, trivialKey, trivialTarget) {
  const trivial = results[trivialKey];
  const r = results[key];
  const ratio = r.rps / trivial.rps;
  ctx.report.add({
    scenario: FLOOR_SCENARIO,
    metric: `${what} (req/s, ${concurrency} concurrent)`,
    value: r.rps,
    ceiling: trivial.rps,
    ratio,
    p50: r.p50,
    p99: r.p99,
    ...(trivialTarget === undefined ? {} : reachability(ratio, trivialTarget)),
  });
}

/**
 * For a target set against the bare object floor (`target`, as the benchmark's target is stated): each
 * hand-off's floor against the bare one, in the same rounds. An event is always handed on, so this
 * is the most any service can reach of the bare floor with that hand-off.
 */
function addHandOffAgainstBareRows(ctx, { results, key, what, concurrency, target, credential }) {
  const trivial = results[FLOOR_TRIVIAL[credential].key];
  const bare = results[key].rps / trivial.rps;
  for (const [handOff, row] of Object.entries(HAND_OFFS)) {
    const measured = results[`${key}-${handOff}`];
    if (!measured) continue;
    const ratio = measured.rps / trivial.rps / bare;
    ctx.report.add({
      scenario: FLOOR_SCENARIO,
      metric: `${what}, ${row.what}, against the same without its message (${concurrency} concurrent): the most of the bare floor a service that hands each event on this way can reach`,
      value: ratio,
      ...reachability(ratio, target),
    });
  }
}

/**
 * An intake figure against an object phase of the floor (`key`, as the benchmark states its target),
 * then against the same phase with its queue message (`key`-send, when measured): the least the
 * operation an event is, handed on to background work, costs on this runtime.
 */
export function addObjectFloorRows(
  ctx,
  {
    results,
    key,
    what,
    concurrency,
    scenario,
    figure,
    ceiling,
    floorName,
    target,
    trivialTarget,
    credential = "api-key",
  },
) {
  addFloorRows(ctx, results, key, what, concurrency, credential, trivialTarget);
  for (const [handOff, row] of Object.entries(HAND_OFFS)) {
    if (results[`${key}-${handOff}`])
      addFloorRow(
        ctx,
        results,
        `${key}-${handOff}`,
        `${what}, ${row.what}`,
        concurrency,
        FLOOR_TRIVIAL[credential].key,
        trivialTarget,
      );
  }
  if (target !== undefined) addHandOffAgainstBareRows(ctx, { results, key, what, concurrency, target, credential });
  addAgainstFloorRows(ctx, { results, key, scenario, figure, ceiling, floorName, target, credential });
}

/**
 * A figure against an object phase of the floor and against the same phase with each hand-off measured (rows of the
 * phases already added).
 */
export function addAgainstFloorRows(
  ctx,
  { results, key, scenario, figure, ceiling, floorName, target, credential = "api-key" },
) {
  addAgainstFloorRow(ctx, { scenario, figure, ceiling, results, floorKey: key, floorName, target, credential });
  for (const [handOff, row] of Object.entries(HAND_OFFS)) {
    if (!results[`${key}-${handOff}`]) continue;
    addAgainstFloorRow(ctx, {
      scenario,
      figure,
      ceiling,
      results,
      floorKey: `${key}-${handOff}`,
      floorName: `${floorName}, ${row.name}`,
      target,
      credential,
    });
  }
}

/**
 * The service's figure against the floor of the same operation (`floorKey` of `results`): its ratio
 * to the service's trivial route over the floor's ratio to the floor's trivial route, both measured
 * in the same rounds, with the target when the operation has one; the CPU of both runtimes per
 * request beside it.
 */
export function addAgainstFloorRow(
  ctx,
  { scenario, figure, ceiling, results, floorKey, floorName, target, credential = "api-key" },
) {
  const floorFigure = results[floorKey];
  const floorTrivial = results[FLOOR_TRIVIAL[credential].key];
  const service = figure.rps / ceiling.rps;
  const floor = floorFigure.rps / floorTrivial.rps;
  const ratio = service / floor;
  const cpu = (r) => r.runtimeCpuMs?.toFixed(2);
  const cpuNote =
    figure.runtimeCpuMs === undefined || floorFigure.runtimeCpuMs === undefined
      ? ""
      : `; workerd CPU per request: ${cpu(figure)} vs trivial ${cpu(ceiling)} ms, floor ${cpu(floorFigure)} vs ${cpu(floorTrivial)} ms`;
  ctx.report.add({
    scenario,
    metric: `against the runtime floor "${floorName}": (requests/s ÷ trivial route) ÷ (floor's requests/s ÷ floor's trivial route)${cpuNote}`,
    value: service,
    ceiling: floor,
    ratio,
    ...(target === undefined ? {} : { target: `≥ ${target}× floor`, pass: ratio >= target }),
  });
}
