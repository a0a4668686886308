import type { AreaSchema } from "../user/schema";
import { admit, liveEntries, record, WINDOW_MS, type WindowEntry } from "../rules/sliding-window";

/**
 * The per-player rate limit, kept in the player's object, which every event of the player reaches
 * anyway: exact, since the object applies the player's events one at a time. The window is stored
 * (one row per instant at which events were counted), so a restarted object still knows the last
 * minute; it is also kept in memory, so that checking costs no read.
 */
export const eventRateSchema: AreaSchema = {
  area: "event-rate",
  migrations: ["CREATE TABLE event_rate (at INTEGER PRIMARY KEY, n INTEGER NOT NULL)"],
};

export class UserEventRate {
  /** The counted events of the last minute, ascending; null until loaded. */
  private entries: WindowEntry[] | null = null;

  constructor(private readonly sql: SqlStorage) {}

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
    if (entries.length > 0 && entries[0].at <= now - WINDOW_MS) {
      this.sql.exec("DELETE FROM event_rate WHERE at <= ?", now - WINDOW_MS);
      this.entries = liveEntries(entries, now);
    }
    this.sql.exec("INSERT INTO event_rate (at, n) VALUES (?, 1) ON CONFLICT (at) DO UPDATE SET n = n + 1", now);
    record(this.entries!, now, 1);
    return null;
  }

  /** After a transaction that rolled back: the stored window is the truth again. */
  forget(): void {
    this.entries = null;
  }

  private window(): WindowEntry[] {
    this.entries ??= this.sql.exec<{ at: number; n: number }>("SELECT at, n FROM event_rate ORDER BY at").toArray();
    return this.entries;
  }
}
