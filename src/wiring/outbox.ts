import type { BackgroundMessage, QueuedBackground } from "../user/messages";
import { dispatchChanges, type Publisher } from "../fanout/dispatch";
import type { Change } from "../changes/types";
import { sendAll } from "../shared/chunks";
import type { AreaSchema } from "../user/schema";
import { logBackgroundFailure, logLine } from "../shared/log";

/**
 * What a user's object still has to hand on after a state change: the changes for webhooks and
 * MQTT, and the background messages (analytics, leaderboards, usage). A row is written in the same
 * synchronous step as the state change it reports, so a failed queue send or an evicted object
 * loses nothing: the row stays and is handed on at the next flush (the next call or the alarm).
 *
 * A row handed on is deleted in the next state change's transaction rather than in a commit of its
 * own (a second commit per event cost the intake about a sixth of its throughput on the runtime
 * floor), or by a timer when no state change comes first. A row of changes (webhooks, MQTT) is
 * deleted at once: those cannot be told apart when sent again. A row of background messages only
 * that an object evicted in between finds again is handed on again, marked `resent`; its messages
 * keep the ids they were staged with, by which the background handlers skip what they applied.
 *
 * The handlers keep those ids for 7 days. A row found again later than RESEND_HORIZON_MS after it
 * was staged is dropped (and logged) instead, as handing it on would count it twice if it had been:
 * it almost surely had, as a reset within DELETE_DELIVERED_MS after the hand-off leaves such a row
 * behind, while a row never handed on needs a reset in the milliseconds between its commit and the
 * queue send (and the event's request then fails).
 */
export const outboxSchema: AreaSchema = {
  area: "outbox",
  migrations: [
    "CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, changes TEXT NOT NULL, background TEXT NOT NULL)",
    // Wall-clock ms; null on rows of versions before 0.3.1 (which deleted a row as soon as it was handed on).
    "ALTER TABLE outbox ADD COLUMN staged_at INTEGER",
  ],
};

/** How long after a failed flush the alarm tries again. */
export const OUTBOX_RETRY_MS = 30_000;

/** How long a handed-on row waits for the next state change's transaction to delete it. */
const DELETE_DELIVERED_MS = 2_000;

/** Rows older than this are not handed on again: the background handlers' receipts (7 days) might be gone. */
export const RESEND_HORIZON_MS = 6 * 86_400_000;

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
  /** Rows up to this seq were handed on; those past `deleted` are still stored. */
  private delivered = 0;
  private deleted = 0;
  private deleteTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly sql: SqlStorage,
    private readonly publish: Publisher,
  ) {}

  /** Call as the last step of the synchronous state change it reports (inside its transaction). */
  stage(changes: Change[], background: BackgroundMessage[] = []): void {
    this.deleteDelivered();
    if (changes.length === 0 && background.length === 0) return;
    // Leftovers of an earlier start are loaded (as such) before this row joins them.
    const pending = this.rows();
    const queued = background.map((message): QueuedBackground => ({ ...message, outboxId: crypto.randomUUID() }));
    const { seq } = this.sql
      .exec<{ seq: number }>(
        "INSERT INTO outbox (changes, background, staged_at) VALUES (?, ?, ?) RETURNING seq",
        JSON.stringify(changes),
        JSON.stringify(queued),
        Date.now(),
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
      await sendAll(env.BACKGROUND, rows.flatMap((row) => row.background));
    } catch (err) {
      // The changes went out: a retry of these rows must not queue the webhooks a second time.
      this.sql.exec("UPDATE outbox SET changes = '[]' WHERE seq <= ?", lastSeq);
      this.pending!.unshift(...rows.map((row) => ({ ...row, changes: [] })));
      logBackgroundFailure("outbox", "handing on staged background messages failed; retried later", err, { rows: rows.length });
      return false;
    }
    this.delivered = lastSeq;
    if (rows.some((row) => row.changes.length > 0)) this.deleteDelivered();
    else this.deleteDeliveredLater();
    return true;
  }

  /** Deletes the rows handed on; in the caller's transaction when there is one. */
  private deleteDelivered(): void {
    if (this.delivered <= this.deleted) return;
    this.sql.exec("DELETE FROM outbox WHERE seq <= ?", this.delivered);
    this.deleted = this.delivered;
  }

  /** Leaves the rows handed on to the next state change's transaction, or to a timer when none comes soon. */
  private deleteDeliveredLater(): void {
    this.deleteTimer ??= setTimeout(() => {
      this.deleteTimer = null;
      try {
        this.deleteDelivered();
      } catch (err) {
        // Still stored, they are handed on again (marked resent) when the object starts again.
        logBackgroundFailure("outbox", "deleting handed-on rows failed", err, { through: this.delivered });
      }
    }, DELETE_DELIVERED_MS);
  }

  /**
   * Rows found in storage may have been handed on before the object was evicted: they go out again
   * marked as such, but for rows of background messages only that are past RESEND_HORIZON_MS.
   */
  private rows(): StagedRow[] {
    if (this.pending) return this.pending;
    const stored = this.sql
      .exec<{ seq: number; changes: string; background: string; staged_at: number | null }>("SELECT seq, changes, background, staged_at FROM outbox ORDER BY seq")
      .toArray();
    const horizon = Date.now() - RESEND_HORIZON_MS;
    const stale = stored.filter((row) => row.staged_at !== null && row.staged_at < horizon && row.changes === "[]");
    if (stale.length > 0) {
      const messages = stale.flatMap((row) => (JSON.parse(row.background) as QueuedBackground[]).map((m) => ({ kind: m.kind, id: m.outboxId })));
      logLine("error", "outbox rows past the resend horizon dropped (most likely handed on before a reset)", { source: "outbox", rows: stale.length, messages });
      this.sql.exec("DELETE FROM outbox WHERE seq IN (SELECT value FROM json_each(?))", JSON.stringify(stale.map((row) => row.seq)));
    }
    this.pending = stored
      .filter((row) => !stale.includes(row))
      .map((row) => ({
        seq: row.seq,
        changes: JSON.parse(row.changes) as Change[],
        background: (JSON.parse(row.background) as QueuedBackground[]).map((message) => ({ ...message, resent: true as const })),
      }));
    return this.pending;
  }
}
