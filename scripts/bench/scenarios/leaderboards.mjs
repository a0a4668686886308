// Leaderboard reads at 10k, 100k and 1M members: rank of a member, the top page and a page in the
// middle of the board, against the trivial route with the same access token and concurrency.
// Boards are created through the admin API and filled straight into local D1 with the
// leaderboards seeding code of the tests (test/support/seed-board.ts) while the server is stopped.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { projectRoot } from "../../lib/wrangler.mjs";
import { ceilingPhase } from "../ceiling.mjs";
import { compareInRounds } from "../compare.mjs";
import { FLOOR_SCENARIO } from "../floor.mjs";
import { cpuNote } from "../report.mjs";
import { createApp, mintTokens, missingFor } from "../api.mjs";
import { d1DatabaseFile, d1Files, tableBytes } from "../storage.mjs";

const SCENARIO = "leaderboard";
/** Member i scores (i × MULTIPLIER) mod MODULUS: a prime above every size, so all scores differ. */
const MULTIPLIER = 7919;
const MODULUS = 1_000_003;
const PAGE_SIZE = 25;
/** p50 latency of each read on the largest board, as a multiple of the trivial route's at most. */
const TARGETS = { "rank of a member": 1.5, "top page": 2, "middle page": 2 };
const PREFIX = "m";

const sizeLabel = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));

export async function run(ctx) {
  const why = missingFor(ctx.features, "leaderboards", "check");
  if (why) return ctx.report.missing(SCENARIO, why);
  if (!ctx.server.local)
    return ctx.report.missing(SCENARIO, "seeding needs the benchmark's own local server: unset BENCH_URL");
  const { leaderboards: cfg } = ctx.config;
  if (cfg.sizes.some((n) => n >= MODULUS)) throw new Error(`board sizes must stay below ${MODULUS}`);

  const app = await createApp(ctx.client, ctx.adminToken, "Bench leaderboards");
  const boards = [];
  for (const size of cfg.sizes) {
    const r = await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
      token: ctx.adminToken,
      body: {
        name: `Bench ${sizeLabel(size)}`,
        event_name: "achieve-score",
        value_field: "score",
        aggregation: "max",
        sort_order_ascending: false,
      },
    });
    boards.push({ id: r.body.leaderboard_id, size });
  }
  const [token] = await mintTokens(ctx.client, app.apiKey, ["lb-reader"]);

  const t0 = Date.now();
  const seeded = await ctx.withServerStopped(() => seedBoards(ctx, boards));
  ctx.log(
    `seeded ${boards.map((b) => sizeLabel(b.size)).join(" + ")} members in ${((Date.now() - t0) / 1000).toFixed(0)} s`,
  );
  reportStorage(ctx, seeded);

  const { concurrency, requests, seconds } = cfg;
  for (const board of boards) await checkAnswers(ctx, token, board, rankerOf(board.size));
  const reads = {
    "rank of a member": (board) => (i) =>
      `/api/v1/leaderboards-members/user/${PREFIX}${1 + ((i * 104_729) % board.size)}/${board.id}`,
    "top page": (board) => () => `/api/v1/leaderboards/${board.id}?currentPage=1&pageSize=${PAGE_SIZE}`,
    "middle page": (board) => () =>
      `/api/v1/leaderboards/${board.id}?currentPage=${middlePage(board.size)}&pageSize=${PAGE_SIZE}`,
  };
  const phases = [{ ...ceilingPhase(token, concurrency), warmUpCount: 50 }];
  for (const [what, pathFor] of Object.entries(reads)) {
    for (const board of boards) {
      const pathOf = pathFor(board);
      phases.push({
        key: `${what}@${board.size}`,
        label: `${SCENARIO} ${sizeLabel(board.size)}, ${what}`,
        concurrency,
        warmUpCount: 50,
        make: (i) => ({ method: "GET", path: pathOf(i), token }),
      });
    }
  }
  const floor = await ctx.floor();
  phases.push({ ...floor.nothing(concurrency), warmUpCount: 50 }, { ...floor.trivial(concurrency), warmUpCount: 50 });
  const results = await compareInRounds(ctx, phases, { rounds: ctx.config.rounds, seconds, requests });
  const ceiling = results.ceiling;
  ctx.report.add({
    scenario: `trivial route (access token, ${concurrency} concurrent)`,
    metric: "latency (ms)",
    value: ceiling.p50,
    unit: "ms",
    p50: ceiling.p50,
    p99: ceiling.p99,
  });

  const largest = Math.max(...cfg.sizes);
  for (const board of boards) {
    for (const what of Object.keys(reads)) {
      const result = results[`${what}@${board.size}`];
      if (result.ok !== result.sent) throw new Error(`${board.size} ${what}: ${JSON.stringify(result.failures)}`);
      const ratio = result.p50 / ceiling.p50;
      const target = board.size === largest ? TARGETS[what] : undefined;
      ctx.report.add({
        scenario: `${SCENARIO} ${sizeLabel(board.size)} members`,
        metric: `${what} (p50 ms; ${Math.round(result.rps)} req/s${cpuNote(result, ceiling)})`,
        value: result.p50,
        unit: "ms",
        ceiling: ceiling.p50,
        ratio,
        p50: result.p50,
        p99: result.p99,
        ...(target === undefined ? {} : { target: `≤ ${target}× trivial`, pass: ratio <= target }),
      });
    }
  }
  addReadFloorRows(
    ctx,
    results,
    results[`rank of a member@${largest}`],
    `rank of a member at ${sizeLabel(largest)}`,
    TARGETS["rank of a member"],
  );
  const smallest = Math.min(...cfg.sizes);
  if (smallest !== largest) {
    const [small, large] = [results[`rank of a member@${smallest}`].p50, results[`rank of a member@${largest}`].p50];
    ctx.report.add({
      scenario: `${SCENARIO} growth ${sizeLabel(smallest)} → ${sizeLabel(largest)}`,
      metric: "rank of a member, p50 ratio",
      value: large,
      unit: "ms",
      ceiling: small,
      ratio: large / small,
      target: "≤ 1.5×",
      pass: large / small <= 1.5,
    });
  }
}

const middlePage = (size) => Math.max(1, Math.floor(size / PAGE_SIZE / 2));

/** Fills every board while the server is stopped (seed-boards.mjs); answers sizes and rows. */
async function seedBoards(ctx, boards) {
  const d1Before = d1Files(ctx.server.persistTo);
  const spec = { boards, prefix: PREFIX, multiplier: MULTIPLIER, modulus: MODULUS };
  const script = path.join(projectRoot, "scripts", "bench", "seed-boards.mjs");
  const { status, stdout, stderr } = spawnSync(
    process.execPath,
    ["--no-warnings", script, ctx.server.persistTo, JSON.stringify(spec)],
    {
      cwd: projectRoot,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
    },
  );
  const last = stdout.trim().split("\n").at(-1) ?? "";
  if (status !== 0 || !last.startsWith("{"))
    throw new Error(`seeding the leaderboards failed (${status}):\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`);
  return { d1Before, members: boards.reduce((n, b) => n + b.size, 0), ...JSON.parse(last) };
}

function reportStorage(ctx, seeded) {
  const scenario = "storage per leaderboard member (D1)";
  const { members } = seeded;
  ctx.report.add({
    scenario,
    metric: "rows per member (score row + rank-index rows)",
    value: (seeded.scoreRows + seeded.countRows) / members,
  });
  const file = d1DatabaseFile(ctx.server.persistTo);
  const tables = file && tableBytes(file, "leaderboard");
  if (tables) {
    const total = Object.values(tables).reduce((a, b) => a + b.pages, 0);
    const part = (name) => `${name.replace("leaderboard_", "")} ${((tables[name]?.pages ?? 0) / members).toFixed(0)}`;
    ctx.report.add({
      scenario,
      metric: `bytes per member, pages of tables + indexes (${["leaderboard_scores", "leaderboard_scores_order", "leaderboard_rank_counts"].map(part).join(", ")})`,
      value: total / members,
      unit: "B",
    });
  } else {
    const after = d1Files(ctx.server.persistTo);
    ctx.report.add({
      scenario,
      metric: "bytes per member, growth of the D1 files incl. WAL (no sqlite3 tool for dbstat)",
      value: (after.bytes - seeded.d1Before.bytes) / members,
      unit: "B",
    });
  }
}

/** Expected rank of member i on a board of `size` (descending, all scores distinct). */
function rankerOf(size) {
  const scores = new Float64Array(size);
  for (let i = 1; i <= size; i++) scores[i - 1] = (i * MULTIPLIER) % MODULUS;
  scores.sort();
  return (i) => {
    const score = (i * MULTIPLIER) % MODULUS;
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (scores[mid] <= score) lo = mid + 1;
      else hi = mid;
    }
    return 1 + (size - lo);
  };
}

/** The figures are only worth something if the answers are right: spot checks of ranks and pages. */
async function checkAnswers(ctx, token, board, expectedRank) {
  for (const i of [1, 2, Math.ceil(board.size / 3), board.size]) {
    const r = await ctx.client.json("GET", `/api/v1/leaderboards-members/user/${PREFIX}${i}/${board.id}`, { token });
    const member = r.body.member;
    if (member?.rank !== expectedRank(i) || member?.score !== (i * MULTIPLIER) % MODULUS) {
      throw new Error(
        `board ${board.size}: member ${PREFIX}${i} answered ${JSON.stringify(member)}, expected rank ${expectedRank(i)}`,
      );
    }
  }
  const page = middlePage(board.size);
  const r = await ctx.client.json("GET", `/api/v1/leaderboards/${board.id}?currentPage=${page}&pageSize=${PAGE_SIZE}`, {
    token,
  });
  const rows = r.body.grouped_by_users ?? [];
  const firstRank = (page - 1) * PAGE_SIZE + 1;
  if (
    rows.length !== PAGE_SIZE ||
    rows[0].rank !== firstRank ||
    rows[0].rank !== expectedRank(Number(rows[0].member_id.slice(PREFIX.length)))
  ) {
    throw new Error(
      `board ${board.size}: page ${page} starts with ${JSON.stringify(rows[0])}, expected rank ${firstRank}`,
    );
  }
}

/**
 * The least a read of one D1 round trip can cost: the service's trivial route plus what one D1
 * round trip adds to a request on the floor's Worker (its one-read route less its route without
 * I/O, p50, measured in the same rounds). A read at that sum would run at `best` × trivial.
 */
function addReadFloorRows(ctx, results, figure, what, target) {
  const { ceiling, "floor-nothing": nothing, "floor-trivial": oneRead } = results;
  const d1 = oneRead.p50 - nothing.p50;
  ctx.report.add({
    scenario: FLOOR_SCENARIO,
    metric: "route without I/O (latency, 1 concurrent)",
    value: nothing.p50,
    unit: "ms",
    p50: nothing.p50,
    p99: nothing.p99,
  });
  ctx.report.add({
    scenario: FLOOR_SCENARIO,
    metric: `one D1 read (latency, 1 concurrent): it adds ${d1.toFixed(2)} ms to a request`,
    value: oneRead.p50,
    unit: "ms",
    ceiling: nothing.p50,
    ratio: oneRead.p50 / nothing.p50,
    p50: oneRead.p50,
    p99: oneRead.p99,
  });
  const best = (ceiling.p50 + d1) / ceiling.p50;
  const ratio = figure.p50 / ceiling.p50;
  ctx.report.add({
    scenario: `${SCENARIO} ${what}`,
    metric: `against the runtime floor "trivial route + one D1 round trip" (${ceiling.p50.toFixed(2)} + ${d1.toFixed(2)} ms = ${best.toFixed(2)}× trivial; the target ≤ ${target}× lies ${best <= target ? "above" : "below"} it): ratio to trivial ÷ the floor's`,
    value: ratio,
    ceiling: best,
    ratio: ratio / best,
  });
}
