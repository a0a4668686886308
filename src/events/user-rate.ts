import type { AreaTables, AreaSql } from "../shared/object-tables";
import { admit, liveEntries, record, WINDOW_MS, type WindowEntry } from "../rules/sliding-window";

/**
 * The per-player rate limit, kept in the player's object, which every event of the player reaches
 * anyway: exact, since the object applies the player's events one at a time and keeps their
 * window (to the millisecond) in memory. The window is also stored, as sums per second written at
 * most once a second (a write per event would cost a flooding player's object a third of its
 * work), so a restarted object (a deploy) forgets at most its last second of counts and counts a
 * stored event as of the start of its second.
 */
export const eventRateTables: AreaTables = {
  area: "event-rate",
  migrations: ["CREATE TABLE event_rate (second INTEGER PRIMARY KEY, n INTEGER NOT NULL)"],
};

const STORE_EVERY_MS = 1000;

export class UserEventRate {
  /** The counted events of the last minute, ascending; null until loaded. */
  private entries: WindowEntry[] | null = null;
  /** Service time up to which the counts are stored (those after it are in memory only). */
  private storedUpTo = Number.NEGATIVE_INFINITY;

  constructor(private readonly sql: AreaSql) {}

  /** ms until the player may send again, or null when one more event fits now. Counts nothing. */
  refusal(now: number, limit: number): number | null {
    const { admitted, retryAfterMs } = admit(this.window(), now, limit, 1);
    return admitted === 1 ? null : retryAfterMs;
  }

  /**
   * Inside the event's transaction: counts the event when it fits and answers null, else answers
   * the ms until one would fit and counts nothing.
   */
  takeEvent(now: number, limit: number): number | null {
    const entries = this.window();
    const { admitted, retryAfterMs } = admit(entries, now, limit, 1);
    if (admitted === 0) return retryAfterMs;
    record(entries, now, 1);
    if (now - this.storedUpTo >= STORE_EVERY_MS) this.store(now);
    return null;
  }

  /** After a transaction that rolled back: the stored window is the truth again. */
  forget(): void {
    this.entries = null;
  }

  /** Adds the counts since the last store to their seconds, and drops what left the window. */
  private store(now: number): void {
    const bySecond = new Map<number, number>();
    for (const e of this.entries!) {
      if (e.at <= this.storedUpTo) continue;
      const second = Math.floor(e.at / 1000);
      bySecond.set(second, (bySecond.get(second) ?? 0) + e.n);
    }
    for (const [second, n] of bySecond) {
      this.sql.exec(
        "INSERT INTO event_rate (second, n) VALUES (?, ?) ON CONFLICT (second) DO UPDATE SET n = n + excluded.n",
        second,
        n,
      );
    }
    this.sql.exec("DELETE FROM event_rate WHERE second < ?", Math.floor((now - WINDOW_MS) / 1000));
    this.entries = liveEntries(this.entries!, now);
    this.storedUpTo = now;
  }

  private window(): WindowEntry[] {
    if (this.entries === null) {
      const rows = this.sql
        .exec<{ second: number; n: number }>("SELECT second, n FROM event_rate ORDER BY second")
        .toArray();
      this.entries = rows.map((r) => ({ at: r.second * 1000, n: r.n }));
      this.storedUpTo =
        this.entries.length > 0 ? this.entries[this.entries.length - 1].at + 999 : Number.NEGATIVE_INFINITY;
    }
    return this.entries;
  }
}
