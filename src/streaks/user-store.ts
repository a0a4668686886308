import type { AreaTables, AreaSql } from "../shared/object-tables";
import type { StreakState } from "./core/streak";

/**
 * A player's streaks in their object's SQLite: one row for the player (who they are, for an alarm;
 * their time zone; every streak's state without its calendar, as JSON; and the service time of the
 * earliest decision due, so that an event reads and writes one row whatever the number of streaks
 * and the object's next timer is one read), and one row per streak for its calendar, which changes
 * only when a period closes.
 */
export const streaksTables: AreaTables = {
  area: "streaks",
  migrations: [
    `CREATE TABLE st_player (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       app_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       time_zone TEXT,
       streaks TEXT NOT NULL DEFAULT '{}',
       decide_at INTEGER
     );
     CREATE TABLE st_calendar (streak_id TEXT PRIMARY KEY, history TEXT NOT NULL) WITHOUT ROWID;`,
  ],
};

/** One streak of the player: its state (its `history` loaded only when asked) and its next decision. */
interface Entry {
  state: StreakState;
  decideAt: number | null;
}

type StoredEntry = { s: Omit<StreakState, "history">; d: number | null };

/**
 * The player's row, read once per operation: streaks are read and changed in memory, then written
 * back in one statement (`save`), with the calendars that changed.
 */
export class PlayerStreaks {
  private constructor(
    private readonly sql: AreaSql,
    readonly exists: boolean,
    readonly appId: string | null,
    readonly userId: string | null,
    public timeZone: string | null,
    private readonly entries: Map<string, Entry>,
  ) {}

  private readonly calendars = new Map<string, StreakState["history"]>();
  private changed = false;

  static read(sql: AreaSql): PlayerStreaks {
    const row = sql
      .exec<{ app_id: string; user_id: string; time_zone: string | null; streaks: string }>(
        "SELECT app_id, user_id, time_zone, streaks FROM st_player WHERE id = 1",
      )
      .toArray()[0];
    const entries = new Map<string, Entry>();
    if (row)
      for (const [id, e] of Object.entries(JSON.parse(row.streaks) as Record<string, StoredEntry>))
        entries.set(id, { state: { ...e.s, history: [] }, decideAt: e.d });
    return new PlayerStreaks(
      sql,
      row !== undefined,
      row?.app_id ?? null,
      row?.user_id ?? null,
      row?.time_zone ?? null,
      entries,
    );
  }

  get(streakId: string): Entry | undefined {
    return this.entries.get(streakId);
  }

  ids(): string[] {
    return [...this.entries.keys()];
  }

  /** The streak's state with its calendar. */
  withHistory(streakId: string): StreakState | null {
    const entry = this.entries.get(streakId);
    if (!entry) return null;
    const known = this.calendars.get(streakId);
    if (known) return { ...entry.state, history: known };
    const row = this.sql
      .exec<{ history: string }>("SELECT history FROM st_calendar WHERE streak_id = ?", streakId)
      .toArray()[0];
    return { ...entry.state, history: row ? JSON.parse(row.history) : [] };
  }

  /** Sets a streak's state; its calendar is written when `calendarChanged`. */
  set(streakId: string, state: StreakState, decideAt: number | null, calendarChanged: boolean): void {
    this.entries.set(streakId, { state, decideAt });
    if (calendarChanged) this.calendars.set(streakId, state.history);
    this.changed = true;
  }

  setTimeZone(timeZone: string): void {
    this.timeZone = timeZone;
    this.changed = true;
  }

  /** The streaks whose decision is due by `now`. */
  due(now: number): string[] {
    return [...this.entries].filter(([, e]) => e.decideAt !== null && e.decideAt <= now).map(([id]) => id);
  }

  /** Writes what changed: the player's row (made at the first write, naming the player) and the changed calendars. */
  save(appId: string, userId: string): void {
    if (!this.changed) return;
    const stored: Record<string, StoredEntry> = {};
    let decideAt: number | null = null;
    for (const [id, { state, decideAt: d }] of this.entries) {
      const { history: _history, ...rest } = state;
      stored[id] = { s: rest, d };
      if (d !== null && (decideAt === null || d < decideAt)) decideAt = d;
    }
    this.sql.exec(
      `INSERT INTO st_player (id, app_id, user_id, time_zone, streaks, decide_at) VALUES (1, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone, streaks = excluded.streaks, decide_at = excluded.decide_at`,
      this.appId ?? appId,
      this.userId ?? userId,
      this.timeZone,
      JSON.stringify(stored),
      decideAt,
    );
    for (const [id, history] of this.calendars)
      this.sql.exec(
        "INSERT INTO st_calendar (streak_id, history) VALUES (?, ?) ON CONFLICT (streak_id) DO UPDATE SET history = excluded.history",
        id,
        JSON.stringify(history),
      );
    this.calendars.clear();
    this.changed = false;
  }
}

/** The earliest decision due of any streak of the player, or null. */
export function nextDecision(sql: AreaSql): number | null {
  return (
    sql.exec<{ decide_at: number | null }>("SELECT decide_at FROM st_player WHERE id = 1").toArray()[0]?.decide_at ??
    null
  );
}

/** Who the object's player is, when they ever counted for a streak or stored a zone. */
export function readPlayer(sql: AreaSql): { appId: string; userId: string; timeZone: string | null } | null {
  const row = sql
    .exec<{ app_id: string; user_id: string; time_zone: string | null }>(
      "SELECT app_id, user_id, time_zone FROM st_player WHERE id = 1",
    )
    .toArray()[0];
  return row ? { appId: row.app_id, userId: row.user_id, timeZone: row.time_zone } : null;
}
