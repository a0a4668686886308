// The end of a league season at scale: `players` players (100,000 by default) in cohorts of 30,
// decided by the service's own chunked decision (src/leagues/season-end.ts `decideChunk`) on a
// temporary local D1, timing the whole end and counting the D1 rows it writes per player.
// `npm run bench` runs it in its `leagues` scenario; alone:
//   node scripts/bench/league-season-end.mjs [players=100000] [cohort=30]
// Seeds with recursive CTEs (seconds, not a statement per player).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { getPlatformProxy } from "wrangler";
import { projectRoot } from "../lib/wrangler.mjs";
import { importTs } from "./import-ts.mjs";

const APP = 1;
const LEAGUE = 1;
const SEASON = Date.parse("2026-06-01T00:00:00Z");
const ENDS = SEASON + 7 * 86_400_000;

/** A D1 binding that adds up the rows each statement reports written (`meta.rows_written`). */
function countingDb(db) {
  const counter = { rowsWritten: 0, statements: 0 };
  const add = (result) => {
    counter.statements++;
    counter.rowsWritten += result.meta?.rows_written ?? 0;
    return result;
  };
  const wrap = (statement) => ({
    inner: statement,
    bind: (...args) => wrap(statement.bind(...args)),
    all: async () => add(await statement.all()),
    run: async () => add(await statement.run()),
    first: async (column) => {
      const result = await statement.all();
      add(result);
      const row = result.results[0] ?? null;
      return row && column ? row[column] : row;
    },
  });
  return {
    counter,
    db: {
      prepare: (sql) => wrap(db.prepare(sql)),
      batch: async (statements) => (await db.batch(statements.map((s) => s.inner ?? s))).map(add),
    },
  };
}

/**
 * Decides a season of `players` players in cohorts of `cohort`.
 * @returns {Promise<{players: number, cohorts: number, seconds: number, chunks: number, rowsWritten: number,
 * statements: number, changes: number}>}
 */
export async function measureSeasonEnd({ players = 100_000, cohort = 30, log = () => {} } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "bench-leagues-"));
  const { decideChunk } = await importTs("src/leagues/season-end.ts");
  const proxy = await getPlatformProxy({ configPath: path.join(projectRoot, "wrangler.toml"), persist: { path: dir } });
  const db = proxy.env.DB;
  try {
    const migration = readFileSync(path.join(projectRoot, "migrations/0019_leagues.sql"), "utf8")
      .replace(/--.*$/gm, "")
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean);
    await db.batch([
      db.prepare("CREATE TABLE apps (app_id INTEGER PRIMARY KEY)"),
      db.prepare(`INSERT INTO apps (app_id) VALUES (${APP})`),
      db.prepare(
        "CREATE TABLE player_bans (app_id INTEGER NOT NULL, user_id TEXT NOT NULL, reason TEXT NOT NULL, expires_at INTEGER, banned_at TEXT NOT NULL, PRIMARY KEY (app_id, user_id))",
      ),
      ...migration.map((sql) => db.prepare(sql)),
    ]);
    const cohorts = Math.ceil(players / cohort);
    const rules = {
      tiers: [
        { key: "bronze", name: "Bronze" },
        { key: "silver", name: "Silver" },
        { key: "gold", name: "Gold" },
      ],
      cohortSize: cohort,
      promote: 5,
      demote: 5,
      rewards: [
        { tier: null, rankMin: 1, rankMax: 3, pointsRewards: [{ system: "coins", amount: 100 }], reward: null },
      ],
    };
    const started = performance.now();
    await db.batch([
      db
        .prepare(
          "INSERT INTO league_seasons (league_id, season_start, app_id, ends_at, rules, state) VALUES (?, ?, ?, ?, ?, 'ending')",
        )
        .bind(LEAGUE, SEASON, APP, ENDS, JSON.stringify(rules)),
      db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?1)
           INSERT INTO league_cohorts (cohort_id, league_id, season_start, app_id, tier, cohort_no, size, members, closed)
           SELECT i + 1, ${LEAGUE}, ?2, ${APP}, i % 3, i / 3 + 1, ?3, MIN(?3, ?4 - i * ?3), 1 FROM n`,
        )
        .bind(cohorts, SEASON, cohort, players),
    ]);
    const chunk = 250_000;
    for (let from = 0; from < players; from += chunk) {
      const to = Math.min(players, from + chunk);
      await db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT CAST(?1 AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?2)
           INSERT INTO league_members (league_id, season_start, user_id, app_id, cohort_id, tier, score, reached_at, joined_at)
           SELECT ${LEAGUE}, ?3, printf('p%07d', i), ${APP}, i / CAST(?4 AS INTEGER) + 1, (i / CAST(?4 AS INTEGER)) % 3, (i * 7919) % 1000, ?3 + i, ?3 + i FROM n`,
        )
        .bind(from, to, SEASON, cohort)
        .run();
    }
    log(
      `seeded ${players.toLocaleString("en-US")} players in ${cohorts.toLocaleString("en-US")} cohorts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const counting = countingDb(db);
    const season = await db.prepare("SELECT * FROM league_seasons WHERE league_id = ?").bind(LEAGUE).first();
    let changes = 0;
    const deliver = async (list) => {
      changes += list.length;
    };
    let chunks = 0;
    const t0 = performance.now();
    for (;;) {
      const n = await decideChunk(counting.db, season, ENDS + 60_000, deliver);
      if (n === 0) break;
      chunks++;
    }
    const seconds = (performance.now() - t0) / 1000;
    const left = await db
      .prepare("SELECT COUNT(*) AS n FROM league_cohorts WHERE league_id = ? AND decided_at IS NULL")
      .bind(LEAGUE)
      .first();
    if (left.n !== 0) throw new Error(`${left.n} cohorts left undecided`);
    return {
      players,
      cohorts,
      seconds,
      chunks,
      rowsWritten: counting.counter.rowsWritten,
      statements: counting.counter.statements,
      changes,
    };
  } finally {
    await proxy.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const log = (...args) => console.error(`[leagues bench ${new Date().toISOString().slice(11, 19)}]`, ...args);
  const r = await measureSeasonEnd({
    players: Number(process.argv[2] ?? 100_000),
    cohort: Number(process.argv[3] ?? 30),
    log,
  });
  console.log(
    "| season end, local D1 | players | cohorts | chunks | seconds | D1 rows written | per player | statements | changes |",
  );
  console.log("|---|---|---|---|---|---|---|---|---|");
  console.log(
    `| decideChunk until done | ${r.players.toLocaleString("en-US")} | ${r.cohorts.toLocaleString("en-US")} | ${r.chunks} | ${r.seconds.toFixed(1)} | ${r.rowsWritten.toLocaleString("en-US")} | ${(r.rowsWritten / r.players).toFixed(3)} | ${r.statements.toLocaleString("en-US")} | ${r.changes.toLocaleString("en-US")} |`,
  );
}
