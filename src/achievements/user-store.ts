import type { AreaSql, AreaTables } from "../shared/object-tables";
import type { Counter, Totals } from "./core/earn";

/**
 * A player's achievements in their object's SQLite, in two tables: the running totals per event
 * name (count, sum and maximum of the event's default amount), kept for every event so that an
 * achievement created later is earned by who already qualifies; and one row per achievement the
 * player holds or counts for on its own (its counter), plus the row of the last sweep (id '').
 */
export const achievementsTables: AreaTables = {
  area: "achievements",
  migrations: [
    `CREATE TABLE ach_totals (event_name TEXT PRIMARY KEY, n INTEGER NOT NULL, total INTEGER NOT NULL, top INTEGER NOT NULL) WITHOUT ROWID;
     CREATE TABLE ach_progress (
       achievement_id TEXT PRIMARY KEY,
       signature TEXT,
       value INTEGER,
       achieved_at INTEGER,
       source TEXT
     ) WITHOUT ROWID;`,
  ],
};

/** The row that says which catalog signature the object last swept every achievement for. */
const SWEEP_ROW = "";

/** Adds one event's default amount to its name's totals. */
export function addTotals(sql: AreaSql, eventName: string, amount: number): void {
  sql.exec(
    `INSERT INTO ach_totals (event_name, n, total, top) VALUES (?1, 1, ?2, ?2)
     ON CONFLICT (event_name) DO UPDATE SET n = n + 1, total = total + ?2, top = MAX(top, ?2)`,
    eventName,
    amount,
  );
}

type TotalsRow = { event_name: string; n: number; total: number; top: number };

export function readTotals(sql: AreaSql, eventName: string): Totals | null {
  const row = sql
    .exec<TotalsRow>("SELECT event_name, n, total, top FROM ach_totals WHERE event_name = ?", eventName)
    .toArray()[0];
  return row ? { count: row.n, sum: row.total, max: row.top } : null;
}

export function readAllTotals(sql: AreaSql): Map<string, Totals> {
  return new Map(
    sql
      .exec<TotalsRow>("SELECT event_name, n, total, top FROM ach_totals ORDER BY event_name")
      .toArray()
      .map((r) => [r.event_name, { count: r.n, sum: r.total, max: r.top }]),
  );
}

/** What the player holds (achievement id → service time) and their achievements' own counters. */
export interface Progress {
  held: Map<string, number>;
  counters: Map<string, Counter>;
  /** Taken back by the studio or an operator: not earned again by events or sweeps (a grant gives it back). */
  revoked: Set<string>;
  /** The signature of the catalog last swept; null before the first sweep. */
  swept: string | null;
}

type ProgressRow = {
  achievement_id: string;
  signature: string | null;
  value: number | null;
  achieved_at: number | null;
  source: string | null;
};

export function readProgress(sql: AreaSql): Progress {
  const progress: Progress = { held: new Map(), counters: new Map(), revoked: new Set(), swept: null };
  for (const row of sql
    .exec<ProgressRow>("SELECT achievement_id, signature, value, achieved_at, source FROM ach_progress")
    .toArray()) {
    if (row.achievement_id === SWEEP_ROW) {
      progress.swept = row.signature;
      continue;
    }
    if (row.achieved_at !== null) progress.held.set(row.achievement_id, row.achieved_at);
    else if (row.source === REVOKED) progress.revoked.add(row.achievement_id);
    if (row.signature !== null && row.value !== null)
      progress.counters.set(row.achievement_id, { signature: row.signature, value: row.value });
  }
  return progress;
}

export function readSwept(sql: AreaSql): string | null {
  return (
    sql
      .exec<{ signature: string | null }>("SELECT signature FROM ach_progress WHERE achievement_id = ?", SWEEP_ROW)
      .toArray()[0]?.signature ?? null
  );
}

export function writeSwept(sql: AreaSql, signature: string): void {
  sql.exec(
    `INSERT INTO ach_progress (achievement_id, signature) VALUES (?, ?)
     ON CONFLICT (achievement_id) DO UPDATE SET signature = excluded.signature`,
    SWEEP_ROW,
    signature,
  );
}

export function writeCounter(sql: AreaSql, achievementId: string, counter: Counter): void {
  sql.exec(
    `INSERT INTO ach_progress (achievement_id, signature, value) VALUES (?, ?, ?)
     ON CONFLICT (achievement_id) DO UPDATE SET signature = excluded.signature, value = excluded.value`,
    achievementId,
    counter.signature,
    counter.value,
  );
}

/** How the player came to hold it. */
export type HoldSource = "earned" | "granted";
/** The source of a row taken back: not held, and not earned again but by a grant. */
const REVOKED = "revoked";

export function writeHeld(sql: AreaSql, achievementId: string, at: number, source: HoldSource): void {
  sql.exec(
    `INSERT INTO ach_progress (achievement_id, achieved_at, source) VALUES (?, ?, ?)
     ON CONFLICT (achievement_id) DO UPDATE SET achieved_at = excluded.achieved_at, source = excluded.source`,
    achievementId,
    at,
    source,
  );
}

/**
 * No longer held; a counter of its own is kept (the player still did what it counted). `block`: the
 * achievement revoked itself, which events do not earn again (a composite revoked with it is
 * earned again once all it requires is held again).
 */
export function dropHeld(sql: AreaSql, achievementId: string, block: boolean): void {
  if (block) {
    sql.exec("UPDATE ach_progress SET achieved_at = NULL, source = ? WHERE achievement_id = ?", REVOKED, achievementId);
    return;
  }
  sql.exec("UPDATE ach_progress SET achieved_at = NULL, source = NULL WHERE achievement_id = ?", achievementId);
  sql.exec("DELETE FROM ach_progress WHERE achievement_id = ? AND signature IS NULL", achievementId);
}

export interface HeldRow {
  achievement_id: string;
  achieved_at: number;
  source: HoldSource;
}

/** Every achievement held, oldest first (the export, the console). */
export function readHeldRows(sql: AreaSql): HeldRow[] {
  return sql
    .exec<HeldRow & Record<string, SqlStorageValue>>(
      "SELECT achievement_id, achieved_at, source FROM ach_progress WHERE achieved_at IS NOT NULL ORDER BY achieved_at, achievement_id",
    )
    .toArray();
}
