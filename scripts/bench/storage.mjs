// Storage figures from the local state directory of `wrangler dev` (miniflare keeps each Durable
// Object as its own SQLite file, and local D1 as one SQLite file).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** The directory of the UserDO objects' SQLite files. */
export function userObjectDir(persistTo) {
  const doRoot = path.join(persistTo, "v3", "do");
  let names = [];
  try {
    names = readdirSync(doRoot);
  } catch {}
  const dir = names.find((n) => n.endsWith("-UserDO"));
  return dir ? path.join(doRoot, dir) : undefined;
}

/** The SQLite files of the user objects: their paths (main database files only). */
export function userObjectFiles(persistTo) {
  const dir = userObjectDir(persistTo);
  if (!dir) return [];
  return readdirSync(dir)
    .filter((n) => n.endsWith(".sqlite"))
    .map((n) => path.join(dir, n));
}

/** How many user objects are sampled for their size (each is one sqlite3 run). */
const SAMPLE = 30;

/**
 * Storage of the user objects created since `before` (a userObjectFiles list), as report rows:
 * SQLite pages (what the database occupies) and the bytes of the rows in them, from dbstat
 * through the sqlite3 tool; without that tool, the sizes of the files (database and WAL).
 */
export function reportStoragePerUser(ctx, before, challenges, when) {
  const known = new Set(before);
  const created = userObjectFiles(ctx.server.persistTo).filter((f) => !known.has(f));
  if (created.length === 0) return;
  const sample = created.filter((_, i) => i % Math.ceil(created.length / SAMPLE) === 0);
  const scenario = "storage per user (Durable Object SQLite)";
  const sizes = sample.map((file) => tableBytes(file, ""));
  if (sizes.every(Boolean)) {
    const mean = (pick) => sizes.reduce((sum, tables) => sum + pick(tables), 0) / sizes.length;
    const pages = mean((t) => Object.values(t).reduce((a, b) => a + b.pages, 0));
    const rows = mean((t) => Object.values(t).reduce((a, b) => a + b.payload, 0));
    const challengeRows = mean(
      (t) => (t.ch_instances?.payload ?? 0) + (t.sqlite_autoindex_ch_instances_1?.payload ?? 0),
    );
    ctx.report.add({
      scenario,
      metric: `bytes per user in SQLite pages (${challenges} active challenges, ${when}; row data ${Math.round(rows)} B, of it challenge rows ${Math.round(challengeRows)} B)`,
      value: pages,
      unit: "B",
    });
  } else {
    const bytes = sample.reduce((sum, f) => sum + fileSize(f) + fileSize(`${f}-wal`), 0) / sample.length;
    ctx.report.add({
      scenario,
      metric: `bytes per user, database + WAL files (${challenges} active challenges, ${when}; no sqlite3 tool)`,
      value: bytes,
      unit: "B",
    });
  }
}

const fileSize = (f) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

export const d1Files = (persistTo) => filesUnder(path.join(persistTo, "v3", "d1"), /\.sqlite(-wal|-shm)?$/);

/** The local D1 database file (miniflare names it by a hash; metadata.sqlite is not it). */
export function d1DatabaseFile(persistTo) {
  const dir = path.join(persistTo, "v3", "d1", "miniflare-D1DatabaseObject");
  let names = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".sqlite") && n !== "metadata.sqlite");
  } catch {}
  return names.length === 1 ? path.join(dir, names[0]) : undefined;
}

/**
 * Pages (bytes) and row data (payload bytes) of each table and index whose name starts with
 * `prefix`, from SQLite's dbstat through the sqlite3 command-line tool when it is installed (D1
 * itself refuses dbstat); undefined otherwise. Miniflare's own bookkeeping table is left out.
 */
export function tableBytes(file, prefix) {
  const query = `SELECT name, SUM(pgsize), SUM(payload) FROM dbstat WHERE name LIKE '${prefix}%' AND name <> '__miniflare_do_name' GROUP BY name;`;
  const r = spawnSync("sqlite3", ["-readonly", "-separator", "\t", file, query], { encoding: "utf8" });
  if (r.status !== 0 || r.error) return undefined;
  return Object.fromEntries(
    r.stdout
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((line) => {
        const [name, pages, payload] = line.split("\t");
        return [name, { pages: Number(pages), payload: Number(payload) }];
      }),
  );
}

/** Total bytes and count of the files under `dir` whose names match `pattern`. */
function filesUnder(dir, pattern) {
  let bytes = 0;
  let count = 0;
  const walk = (d) => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (pattern.test(e.name)) {
        bytes += statSync(p).size;
        count++;
      }
    }
  };
  walk(dir);
  return { bytes, count };
}

/** Rows of a table, through the sqlite3 command-line tool when it is installed; undefined otherwise. */
export function rowCount(file, table) {
  const r = spawnSync("sqlite3", ["-readonly", file, `SELECT COUNT(*) FROM ${table};`], { encoding: "utf8" });
  return r.status === 0 && !r.error ? Number(r.stdout.trim()) : undefined;
}
