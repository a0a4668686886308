import { REVALIDATE_MS } from "../apps/catalog-cache";
import type { AreaTables, AreaSql } from "../shared/object-tables";

/**
 * The erasure of a player, as their own object keeps it: the requests waiting for the object's
 * alarm, the time of the last erasure (what was received before it is dropped), and erasures done
 * but not yet reported. Only the requests hold the user id, and the erasure deletes them with
 * everything else; the rest names no one.
 */
export const erasureTables: AreaTables = {
  area: "erasure",
  migrations: [
    `CREATE TABLE erasure_requests (
       erasure_id TEXT PRIMARY KEY,
       app_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       requested_at INTEGER NOT NULL,
       due_at INTEGER NOT NULL,
       attempts INTEGER NOT NULL DEFAULT 0,
       last_error TEXT
     );
     CREATE TABLE erasure_state (id INTEGER PRIMARY KEY CHECK (id = 1), erased_at INTEGER NOT NULL);
     CREATE TABLE erasure_completions (erasure_id TEXT PRIMARY KEY, app_id TEXT NOT NULL, requested_at INTEGER NOT NULL, completed_at INTEGER NOT NULL);`,
  ],
};

/** The tables an erasure keeps: they name no one. Every other table of the object is emptied. */
const KEPT_TABLES = ["schema_versions", "erasure_state", "erasure_completions"];

/**
 * How long after a request the object erases (wall clock): by then every isolate's cached
 * tombstones (src/apps/erasure-tombstones.ts) refuse the player's old tokens, so no request that
 * passed a stale check can still write after the erasure.
 */
export const ERASURE_DELAY_MS = 2 * REVALIDATE_MS;
/** Attempts before the receipt says `failed`; between them the wait doubles, from 2 s up to 5 min. */
export const MAX_ERASURE_ATTEMPTS = 8;
const retryDelayMs = (attempts: number) => Math.min(2 ** attempts * 1000, 300_000);

export interface ErasureRequest {
  erasureId: string;
  appId: string;
  userId: string;
  /** Service time of the request (ms). */
  requestedAt: number;
}

export interface PendingErasure extends ErasureRequest {
  attempts: number;
  lastError: string | null;
}

export interface CompletedErasure {
  erasureId: string;
  appId: string;
  requestedAt: number;
  completedAt: number;
}

interface RequestRow {
  erasure_id: string;
  app_id: string;
  user_id: string;
  requested_at: number;
  attempts: number;
  last_error: string | null;
  [key: string]: SqlStorageValue;
}

export class UserErasure {
  private erased: number | null | undefined;

  constructor(private readonly sql: AreaSql) {}

  /** A request waits ERASURE_DELAY_MS (the same player asked twice: both are completed by one erasure). */
  request(r: ErasureRequest, wallNow: number): void {
    this.sql.exec(
      "INSERT OR IGNORE INTO erasure_requests (erasure_id, app_id, user_id, requested_at, due_at) VALUES (?, ?, ?, ?, ?)",
      r.erasureId,
      r.appId,
      r.userId,
      r.requestedAt,
      wallNow + ERASURE_DELAY_MS,
    );
  }

  /** The requests whose time has come (wall clock), oldest first. */
  due(wallNow: number): PendingErasure[] {
    return this.sql
      .exec<RequestRow>("SELECT * FROM erasure_requests WHERE due_at <= ? ORDER BY requested_at", wallNow)
      .toArray()
      .map((r) => ({
        erasureId: r.erasure_id,
        appId: r.app_id,
        userId: r.user_id,
        requestedAt: r.requested_at,
        attempts: r.attempts,
        lastError: r.last_error,
      }));
  }

  /**
   * When the alarm must fire for erasures (wall clock), or null; completions not yet reported are retried after
   * `retryMs`.
   */
  nextAt(wallNow: number, retryMs: number): number | null {
    // Not an aggregate: before the object's first request the area has no tables, and a read answers no rows.
    const at =
      this.sql.exec<{ due_at: number }>("SELECT due_at FROM erasure_requests ORDER BY due_at LIMIT 1").toArray()[0]
        ?.due_at ?? null;
    const retry = this.completions().length > 0 ? wallNow + retryMs : null;
    return at === null ? retry : retry === null ? at : Math.min(at, retry);
  }

  /** Service time of the last erasure, or null: what the object received before it belongs to the erased player. */
  erasedAt(): number | null {
    if (this.erased === undefined)
      this.erased =
        this.sql.exec<{ erased_at: number }>("SELECT erased_at FROM erasure_state WHERE id = 1").toArray()[0]
          ?.erased_at ?? null;
    return this.erased;
  }

  /** An attempt failed: the next one waits longer. Answers whether attempts remain. */
  failed(erasureIds: string[], error: string, wallNow: number): boolean {
    const ids = JSON.stringify(erasureIds);
    const attempts = Math.max(
      ...this.sql
        .exec<{ attempts: number }>(
          "UPDATE erasure_requests SET attempts = attempts + 1, last_error = ? WHERE erasure_id IN (SELECT value FROM json_each(?)) RETURNING attempts",
          error,
          ids,
        )
        .toArray()
        .map((r) => r.attempts),
    );
    if (attempts >= MAX_ERASURE_ATTEMPTS) {
      // The receipt says failed; nothing is kept of the request (its player's data is, untouched).
      this.sql.exec("DELETE FROM erasure_requests WHERE erasure_id IN (SELECT value FROM json_each(?))", ids);
      return false;
    }
    this.sql.exec(
      "UPDATE erasure_requests SET due_at = ? WHERE erasure_id IN (SELECT value FROM json_each(?))",
      wallNow + retryDelayMs(attempts),
      ids,
    );
    return true;
  }

  /**
   * Inside one transaction: empties every table of the object but the erasure's own, records the
   * erasure's time, and turns every request (also one that arrived meanwhile) into a completion.
   */
  wipe(erasedAt: number): void {
    // A write first: it creates the area's tables if the object had none, before sqlite_master is read.
    this.sql.exec(
      `INSERT INTO erasure_completions (erasure_id, app_id, requested_at, completed_at)
       SELECT erasure_id, app_id, requested_at, ? FROM erasure_requests WHERE true ON CONFLICT (erasure_id) DO NOTHING`,
      erasedAt,
    );
    const tables = this.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray()
      .map((r) => r.name)
      .filter((name) => !KEPT_TABLES.includes(name));
    for (const table of tables) this.sql.exec(`DELETE FROM "${table}"`);
    this.sql.exec(
      "INSERT INTO erasure_state (id, erased_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET erased_at = excluded.erased_at",
      erasedAt,
    );
    this.erased = erasedAt;
  }

  /** Erasures done whose receipts and notifications are still to go out. */
  completions(): CompletedErasure[] {
    return this.sql
      .exec<{ erasure_id: string; app_id: string; requested_at: number; completed_at: number }>(
        "SELECT * FROM erasure_completions ORDER BY requested_at",
      )
      .toArray()
      .map((r) => ({
        erasureId: r.erasure_id,
        appId: r.app_id,
        requestedAt: r.requested_at,
        completedAt: r.completed_at,
      }));
  }

  /** Call in the transaction that stages their notifications. */
  reported(erasureIds: string[]): void {
    this.sql.exec(
      "DELETE FROM erasure_completions WHERE erasure_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(erasureIds),
    );
  }
}
