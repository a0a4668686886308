import type { BackgroundMessage, QueuedBackground } from "../user/messages";
import { dispatchChanges, type Publisher } from "../fanout/dispatch";
import type { Change } from "../changes/types";
import { sendAll } from "../shared/chunks";
import type { AreaTables, AreaSql } from "../shared/object-tables";
import { logBackgroundFailure } from "../shared/log";

/**
 * What a user's object still has to hand on after a state change: the changes for webhooks and
 * MQTT, and the background messages (analytics, leaderboards, usage). A row is written in the same
 * synchronous step as the state change it reports, so a failed queue send or an evicted object
 * loses nothing: the row stays and is handed on at the next flush (the next call or the alarm).
 *
 * A row is deleted once the queues took it, in a commit of its own. An object reset between the
 * hand-off and that commit finds the row again and hands it on again, marked `resent`: its
 * background messages keep the ids they were staged with (`outboxId`), by which the background
 * handlers skip what they applied (for as long as each keeps its receipts: 6 hours at least).
 */
export const outboxTables: AreaTables = {
  area: "outbox",
  migrations: [
    "CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, changes TEXT NOT NULL, background TEXT NOT NULL)",
  ],
  // `seq` only orders the rows there are (a message's id is its outboxId): a new row comes after them without
  // AUTOINCREMENT.
  created: "CREATE TABLE outbox (seq INTEGER PRIMARY KEY, changes TEXT NOT NULL, background TEXT NOT NULL)",
};

/** How long after a failed flush the alarm tries again. */
export const OUTBOX_RETRY_MS = 30_000;

interface StagedRow {
  seq: number;
  changes: Change[];
  background: QueuedBackground[];
}

/**
 * The outbox of one object. Staged rows are also kept in memory, so that the flush right after a
 * state change reads and parses nothing; a fresh object reloads them from storage.
 */
export class Outbox {
  /** The rows not yet handed on, in order; null until loaded (a fresh object may have leftovers). */
  private pending: StagedRow[] | null = null;

  constructor(
    private readonly sql: AreaSql,
    private readonly publish: Publisher,
  ) {}

  /** Call as the last step of the synchronous state change it reports. */
  stage(changes: Change[], background: BackgroundMessage[] = []): void {
    if (changes.length === 0 && background.length === 0) return;
    // Leftovers of an earlier start are loaded (as such) before this row joins them.
    const pending = this.rows();
    const queued = background.map((message): QueuedBackground => ({ ...message, outboxId: crypto.randomUUID() }));
    const { seq } = this.sql
      .exec<{ seq: number }>(
        "INSERT INTO outbox (changes, background) VALUES (?, ?) RETURNING seq",
        JSON.stringify(changes),
        JSON.stringify(queued),
      )
      .one();
    pending.push({ seq, changes, background: queued });
  }

  hasStaged(): boolean {
    return this.rows().length > 0;
  }

  /**
   * Hands on every staged row, in order, in as few queue sends as possible: rows staged while an
   * earlier flush was under way go out together. Answers false after a failure; what was not
   * handed on stays for the next flush. Callers must not run two flushes at once (UserDO chains
   * them).
   */
  async flush(env: Env): Promise<boolean> {
    const rows = this.rows().splice(0);
    if (rows.length === 0) return true;
    const lastSeq = rows[rows.length - 1].seq;
    try {
      const changes = rows.flatMap((row) => row.changes);
      if (changes.length > 0) await dispatchChanges(env, changes, this.publish);
    } catch (err) {
      this.pending!.unshift(...rows);
      logBackgroundFailure("outbox", "handing on staged changes failed; retried later", err, { rows: rows.length });
      return false;
    }
    try {
      await sendAll(
        env.BACKGROUND,
        rows.flatMap((row) => row.background),
      );
    } catch (err) {
      // The changes went out: a retry of these rows must not queue the webhooks a second time.
      this.sql.exec("UPDATE outbox SET changes = '[]' WHERE seq <= ?", lastSeq);
      // A send that failed may still have been taken: the messages go out again marked as such.
      this.pending!.unshift(
        ...rows.map((row) => ({
          ...row,
          changes: [],
          background: row.background.map((message) => ({ ...message, resent: true as const })),
        })),
      );
      logBackgroundFailure("outbox", "handing on staged background messages failed; retried later", err, {
        rows: rows.length,
      });
      return false;
    }
    this.sql.exec("DELETE FROM outbox WHERE seq <= ?", lastSeq);
    return true;
  }

  /** Rows found in storage may have been handed on before the object was reset: they go out again marked as such. */
  private rows(): StagedRow[] {
    this.pending ??= this.sql
      .exec<{ seq: number; changes: string; background: string }>(
        "SELECT seq, changes, background FROM outbox ORDER BY seq",
      )
      .toArray()
      .map((row) => ({
        seq: row.seq,
        changes: JSON.parse(row.changes) as Change[],
        background: (JSON.parse(row.background) as QueuedBackground[]).map((message) => ({
          ...message,
          resent: true as const,
        })),
      }));
    return this.pending;
  }
}
