// The registry of an app's players at scale: a page of the list, a search by id prefix and a
// search by username among 1,000,000 players (and their count), through the service's own query
// (src/players/registry.ts) on a local D1, each against the floor of one D1 round trip (`SELECT 1`
// through the same binding). `npm run bench` runs it as its `players` scenario; alone:
//   node scripts/bench/players-registry.mjs [players=1000000] [samples=20]
// Seeds with one recursive CTE (seconds, not a million inserts) into a temporary D1.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getPlatformProxy } from "wrangler";
import { projectRoot } from "../lib/wrangler.mjs";
import { importTs } from "./import-ts.mjs";

const APP = 1;
const NOW = Date.parse("2026-06-01T00:00:00Z");

/**
 * Measures the list at `players` players: the floor of one round trip and each query's p50 and p99.
 * @returns {Promise<{floor: {p50: number, p99: number}, rows: {label: string, total: number, p50: number, p99:
 * number}[]}>}
 */
export async function measurePlayersRegistry({ players = 1_000_000, samples = 20, log = () => {} } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-players-"));
  const { listPlayers } = await importTs("src/players/registry.ts");
  const proxy = await getPlatformProxy({ configPath: path.join(projectRoot, "wrangler.toml"), persist: { path: dir } });
  const db = proxy.env.DB;

  /** The tables the list reads: the registry as migrated, user info and bans as their migrations make them. */
  async function schema() {
    const registry = readFileSync(path.join(projectRoot, "migrations/0014_players.sql"), "utf8")
      .replace(/--.*$/gm, "")
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean);
    await db.batch([
      db.prepare("CREATE TABLE apps (app_id INTEGER PRIMARY KEY)"),
      db.prepare("INSERT INTO apps (app_id) VALUES (1)"),
      db.prepare(
        "CREATE TABLE user_info (app_id INTEGER NOT NULL, user_id TEXT NOT NULL, username TEXT, avatar_image TEXT, updated_at TEXT NOT NULL, PRIMARY KEY (app_id, user_id))",
      ),
      db.prepare(
        "CREATE TABLE player_bans (app_id INTEGER NOT NULL, user_id TEXT NOT NULL, reason TEXT NOT NULL, expires_at INTEGER, banned_at TEXT NOT NULL, PRIMARY KEY (app_id, user_id))",
      ),
      ...registry.map((sql) => db.prepare(sql)),
    ]);
  }

  /** `players` players p0000000..., seen a second apart; one in ten stored a username, one in a thousand is banned. */
  async function seed() {
    const chunk = 250_000;
    for (let from = 0; from < players; from += chunk) {
      const to = Math.min(players, from + chunk);
      await db.batch([
        db
          .prepare(
            `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
           INSERT INTO players (app_id, user_id, first_seen_at, last_seen_at, events)
           SELECT ${APP}, printf('p%07d', i), ?3 + i * 1000, ?3 + i * 1000 + (i % 7) * 3600000, i % 50 FROM n`,
          )
          .bind(from, to, NOW - players * 1000),
        db
          .prepare(
            `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 10 FROM n WHERE i + 10 < ?2)
           INSERT INTO user_info (app_id, user_id, username, updated_at) SELECT ${APP}, printf('p%07d', i), printf('Hero %d', i), '2026-01-01T00:00:00Z' FROM n`,
          )
          .bind(from, to),
        db
          .prepare(
            `WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1000 FROM n WHERE i + 1000 < ?2)
           INSERT INTO player_bans (app_id, user_id, reason, expires_at, banned_at) SELECT ${APP}, printf('p%07d', i), 'bench', NULL, '2026-01-01T00:00:00Z' FROM n`,
          )
          .bind(from, to),
      ]);
      log(`seeded ${to.toLocaleString("en-US")} players`);
    }
  }

  async function timed(run) {
    const ms = [];
    for (let i = 0; i < samples; i++) {
      const start = performance.now();
      await run();
      ms.push(performance.now() - start);
    }
    ms.sort((a, b) => a - b);
    return { p50: ms[Math.floor(ms.length / 2)], p99: ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.99))] };
  }

  try {
    const started = performance.now();
    await schema();
    await seed();
    log(`seeded ${players.toLocaleString("en-US")} players in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const floor = await timed(() => db.prepare("SELECT 1").first());
    const paging = { currentPage: 1, pageSize: 25 };
    const queries = [
      ["page 1, by last seen", () => listPlayers(db, APP, NOW, { ...paging, sort: "last_seen" })],
      [
        "page 400, by last seen",
        () => listPlayers(db, APP, NOW, { currentPage: 400, pageSize: 25, sort: "last_seen" }),
      ],
      ["page 1, by id", () => listPlayers(db, APP, NOW, { ...paging, sort: "id" })],
      [
        "search by id prefix (10 players)",
        () => listPlayers(db, APP, NOW, { ...paging, sort: "last_seen", search: "p00012" }),
      ],
      [
        "search by username (among 10% with user info)",
        () => listPlayers(db, APP, NOW, { ...paging, sort: "last_seen", search: "hero 4242" }),
      ],
    ];
    const rows = [];
    for (const [label, run] of queries) {
      const { total } = await run();
      rows.push({ label, total, ...(await timed(run)) });
    }
    return { floor, rows };
  } finally {
    await proxy.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const players = Number(process.argv[2] ?? 1_000_000);
  const log = (...args) => console.error(`[players bench ${new Date().toISOString().slice(11, 19)}]`, ...args);
  const { floor, rows } = await measurePlayersRegistry({ players, samples: Number(process.argv[3] ?? 20), log });
  console.log(`| ${players.toLocaleString("en-US")} players, local D1 | p50 ms | p99 ms | × one round trip (p50) |`);
  console.log("|---|---|---|---|");
  console.log(`| floor: one D1 round trip (SELECT 1) | ${floor.p50.toFixed(1)} | ${floor.p99.toFixed(1)} | 1 |`);
  for (const r of rows)
    console.log(
      `| ${r.label}, total ${r.total.toLocaleString("en-US")} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.p50 / floor.p50).toFixed(1)} |`,
    );
}
