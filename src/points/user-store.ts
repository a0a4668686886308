import type { AreaTables, AreaSql } from "../shared/object-tables";
import type { Balance } from "./core/balance";
import { LEDGER_MAX_ENTRIES, LEDGER_PAGE_SIZE, LEDGER_RETENTION_MS, type LedgerShape } from "./core/ledger";
import type { PointsSource, SourceKind } from "./core/model";

/**
 * A player's points in their object's SQLite: a balance row per system (kept under the system's
 * key), the ledger, the units each trigger carries to the next event, and the answers of requests
 * with an idempotency key.
 */
export const pointsTables: AreaTables = {
  area: "points",
  migrations: [
    `CREATE TABLE pt_balances (
       system TEXT PRIMARY KEY,
       balance INTEGER NOT NULL,
       earned INTEGER NOT NULL,
       entries INTEGER NOT NULL,
       oldest_at INTEGER
     ) WITHOUT ROWID;
     CREATE TABLE pt_ledger (
       entry_id INTEGER PRIMARY KEY,
       system TEXT NOT NULL,
       amount INTEGER NOT NULL,
       balance_after INTEGER NOT NULL,
       source_kind TEXT NOT NULL,
       source_id TEXT,
       reason TEXT NOT NULL,
       created_at INTEGER NOT NULL
     );
     CREATE INDEX pt_ledger_by_system ON pt_ledger (system, entry_id);
     CREATE TABLE pt_carried (trigger_key TEXT PRIMARY KEY, units INTEGER NOT NULL) WITHOUT ROWID;
     CREATE TABLE pt_requests (request_key TEXT PRIMARY KEY, answer TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;
     CREATE INDEX pt_requests_by_time ON pt_requests (at);`,
  ],
};

export interface StoredBalance extends Balance, LedgerShape {}

export function readBalance(sql: AreaSql, system: string): StoredBalance | null {
  const row = sql
    .exec<{ balance: number; earned: number; entries: number; oldest_at: number | null }>(
      "SELECT balance, earned, entries, oldest_at FROM pt_balances WHERE system = ?",
      system,
    )
    .toArray()[0];
  return row ? { balance: row.balance, earned: row.earned, entries: row.entries, oldestAt: row.oldest_at } : null;
}

export function readAllBalances(sql: AreaSql): Map<string, StoredBalance> {
  return new Map(
    sql
      .exec<{ system: string; balance: number; earned: number; entries: number; oldest_at: number | null }>(
        "SELECT system, balance, earned, entries, oldest_at FROM pt_balances",
      )
      .toArray()
      .map((r) => [r.system, { balance: r.balance, earned: r.earned, entries: r.entries, oldestAt: r.oldest_at }]),
  );
}

export interface NewEntry {
  system: string;
  amount: number;
  after: Balance;
  source: PointsSource;
  reason: string;
  at: number;
}

/** Writes the entry and the balance it leaves; answers the entry's id. */
export function recordEntry(sql: AreaSql, before: StoredBalance | null, entry: NewEntry): string {
  const entryId = sql
    .exec<{ entry_id: number }>(
      `INSERT INTO pt_ledger (system, amount, balance_after, source_kind, source_id, reason, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING entry_id`,
      entry.system,
      entry.amount,
      entry.after.balance,
      entry.source.kind,
      entry.source.id,
      entry.reason,
      entry.at,
    )
    .one().entry_id;
  sql.exec(
    `INSERT INTO pt_balances (system, balance, earned, entries, oldest_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (system) DO UPDATE SET balance = excluded.balance, earned = excluded.earned, entries = excluded.entries,
       oldest_at = excluded.oldest_at`,
    entry.system,
    entry.after.balance,
    entry.after.earned,
    (before?.entries ?? 0) + 1,
    before?.oldestAt ?? entry.at,
  );
  return String(entryId);
}

/**
 * Folds the system's entries older than the retention or past the newest LEDGER_MAX_ENTRIES into
 * one opening-balance entry (taking the place of the newest of them), so that the ledger's sum
 * stays the balance.
 */
export function foldLedger(sql: AreaSql, system: string, now: number): void {
  const byCount = sql
    .exec<{ entry_id: number }>(
      "SELECT entry_id FROM pt_ledger WHERE system = ? ORDER BY entry_id DESC LIMIT 1 OFFSET ?",
      system,
      LEDGER_MAX_ENTRIES - 1,
    )
    .toArray()[0]?.entry_id;
  const byAge = sql
    .exec<{ entry_id: number }>(
      "SELECT entry_id FROM pt_ledger WHERE system = ? AND created_at < ? ORDER BY entry_id DESC LIMIT 1",
      system,
      now - LEDGER_RETENTION_MS,
    )
    .toArray()[0]?.entry_id;
  // byCount is the oldest entry kept when the ledger is full: everything before it folds.
  const cut = Math.max(byCount === undefined ? -1 : byCount - 1, byAge ?? -1);
  if (cut < 0) return;
  const folded = sql
    .exec<{ n: number; total: number | null; last: number | null }>(
      "SELECT COUNT(*) AS n, SUM(amount) AS total, MAX(entry_id) AS last FROM pt_ledger WHERE system = ? AND entry_id <= ?",
      system,
      cut,
    )
    .one();
  if (folded.n === 0 || folded.last === null) return;
  const last = sql
    .exec<{ balance_after: number; created_at: number; source_kind: string }>(
      "SELECT balance_after, created_at, source_kind FROM pt_ledger WHERE entry_id = ?",
      folded.last,
    )
    .one();
  if (folded.n === 1 && last.source_kind === "opening-balance") return;
  sql.exec("DELETE FROM pt_ledger WHERE system = ? AND entry_id <= ?", system, cut);
  sql.exec(
    `INSERT INTO pt_ledger (entry_id, system, amount, balance_after, source_kind, source_id, reason, created_at)
     VALUES (?, ?, ?, ?, 'opening-balance', NULL, 'Older entries folded into one', ?)`,
    folded.last,
    system,
    folded.total ?? 0,
    last.balance_after,
    last.created_at,
  );
  const shape = sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM pt_ledger WHERE system = ?", system).one();
  const oldest = sql
    .exec<{ created_at: number }>(
      "SELECT created_at FROM pt_ledger WHERE system = ? AND entry_id > ? ORDER BY entry_id LIMIT 1",
      system,
      folded.last,
    )
    .toArray()[0];
  sql.exec(
    "UPDATE pt_balances SET entries = ?, oldest_at = ? WHERE system = ?",
    shape.n,
    oldest?.created_at ?? null,
    system,
  );
}

export interface LedgerRow {
  entry_id: number;
  amount: number;
  balance_after: number;
  source_kind: SourceKind;
  source_id: string | null;
  reason: string;
  created_at: number;
}

/** A page of the system's ledger, newest first, before the entry `cursor` (exclusive) when given. */
export function readLedger(
  sql: AreaSql,
  system: string,
  cursor: number | null,
  limit = LEDGER_PAGE_SIZE,
): { rows: LedgerRow[]; more: boolean } {
  const rows = sql
    .exec<LedgerRow & Record<string, SqlStorageValue>>(
      `SELECT entry_id, amount, balance_after, source_kind, source_id, reason, created_at FROM pt_ledger
       WHERE system = ? AND entry_id < ? ORDER BY entry_id DESC LIMIT ?`,
      system,
      cursor ?? Number.MAX_SAFE_INTEGER,
      limit + 1,
    )
    .toArray();
  return { rows: rows.slice(0, limit), more: rows.length > limit };
}

/** Every entry of every system, oldest first (the player export). */
export function readWholeLedger(sql: AreaSql): (LedgerRow & { system: string })[] {
  return sql
    .exec<LedgerRow & { system: string } & Record<string, SqlStorageValue>>(
      "SELECT entry_id, system, amount, balance_after, source_kind, source_id, reason, created_at FROM pt_ledger ORDER BY entry_id",
    )
    .toArray();
}

/** The units every trigger carries to the player's next event, by trigger key (a few rows: one per trigger of `every` > 1). */
export function readAllCarried(sql: AreaSql): Map<string, number> {
  return new Map(
    sql
      .exec<{ trigger_key: string; units: number }>("SELECT trigger_key, units FROM pt_carried")
      .toArray()
      .map((r) => [r.trigger_key, r.units]),
  );
}

export function writeCarried(sql: AreaSql, key: string, units: number): void {
  if (units === 0) sql.exec("DELETE FROM pt_carried WHERE trigger_key = ?", key);
  else
    sql.exec(
      "INSERT INTO pt_carried (trigger_key, units) VALUES (?, ?) ON CONFLICT (trigger_key) DO UPDATE SET units = excluded.units",
      key,
      units,
    );
}

/** The first answer of a request with this key, if kept; forgets those older than `since`. */
export function knownAnswer(sql: AreaSql, requestKey: string, since: number): string | null {
  sql.exec("DELETE FROM pt_requests WHERE at < ?", since);
  return (
    sql.exec<{ answer: string }>("SELECT answer FROM pt_requests WHERE request_key = ?", requestKey).toArray()[0]
      ?.answer ?? null
  );
}

export function keepAnswer(sql: AreaSql, requestKey: string, answer: string, at: number): void {
  sql.exec("INSERT OR REPLACE INTO pt_requests (request_key, answer, at) VALUES (?, ?, ?)", requestKey, answer, at);
}
