// Storage figures from the local state directory of `wrangler dev` (miniflare keeps each Durable
// Object as its own SQLite file, and local D1 as one SQLite file).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import path from "node:path";
import { filesUnder } from "./server.mjs";

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

export const userObjectFiles = (persistTo) => {
  const dir = userObjectDir(persistTo);
  return dir ? filesUnder(dir, /\.sqlite(-wal|-shm)?$/) : { bytes: 0, count: 0 };
};

/** Bytes per user object created since `before` (from userObjectFiles), as a report row. */
export function reportStoragePerUser(ctx, before, users, challenges, when) {
  const after = userObjectFiles(ctx.server.persistTo);
  const objects = after.count - before.count;
  if (objects <= 0) return;
  ctx.report.add({
    scenario: "storage per user (Durable Object SQLite file)",
    metric: `bytes per user, ${challenges} active challenges, ${when}`,
    value: (after.bytes - before.bytes) / Math.min(objects, users),
    unit: "B",
  });
}

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
 * Bytes of each table and index whose name starts with `prefix`, from SQLite's dbstat through the
 * sqlite3 command-line tool when it is installed (D1 itself refuses dbstat); undefined otherwise.
 */
export function tableBytes(file, prefix) {
  const query = `SELECT name, SUM(pgsize) FROM dbstat WHERE name LIKE '${prefix}%' GROUP BY name;`;
  const r = spawnSync("sqlite3", ["-readonly", "-separator", "\t", file, query], { encoding: "utf8" });
  if (r.status !== 0 || r.error) return undefined;
  return Object.fromEntries(
    r.stdout.trim().split("\n").filter(Boolean).map((line) => {
      const [name, bytes] = line.split("\t");
      return [name, Number(bytes)];
    }),
  );
}
