import type { AreaSchema, AreaSql } from "../user/schema";
import type { StreakState } from "./core/streak";

/**
 * A player's streaks in their object's SQLite: one row per streak with its state (JSON), its
 * calendar apart (an event reads and writes only the state, the calendar changes when a period
 * closes), and the service time its next decision is due (indexed, so the object's next timer is
 * one read), and the
 * player's profile: who they are (for an alarm) and their time zone.
 */
export const streaksSchema: AreaSchema = {
  area: "streaks",
  migrations: [
    `CREATE TABLE st_streaks (
       streak_id TEXT PRIMARY KEY,
       state TEXT NOT NULL,
       history TEXT NOT NULL DEFAULT '[]',
       decide_at INTEGER
     ) WITHOUT ROWID;
     CREATE INDEX st_streaks_due ON st_streaks (decide_at) WHERE decide_at IS NOT NULL;
     CREATE TABLE st_profile (
       id INTEGER PRIMARY KEY CHECK (id = 1),
       app_id TEXT NOT NULL,
       user_id TEXT NOT NULL,
       time_zone TEXT
     );`,
  ],
};

export interface Profile {
  appId: string;
  userId: string;
  timeZone: string | null;
}

export function readProfile(sql: AreaSql): Profile | null {
  const row = sql
    .exec<{ app_id: string; user_id: string; time_zone: string | null }>(
      "SELECT app_id, user_id, time_zone FROM st_profile WHERE id = 1",
    )
    .toArray()[0];
  return row ? { appId: row.app_id, userId: row.user_id, timeZone: row.time_zone } : null;
}

/** Records who the object's player is (an alarm has no request to say it), keeping their zone. */
export function writeProfile(sql: AreaSql, appId: string, userId: string, timeZone?: string | null): void {
  if (timeZone === undefined)
    sql.exec(
      "INSERT INTO st_profile (id, app_id, user_id) VALUES (1, ?, ?) ON CONFLICT (id) DO NOTHING",
      appId,
      userId,
    );
  else
    sql.exec(
      `INSERT INTO st_profile (id, app_id, user_id, time_zone) VALUES (1, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET time_zone = excluded.time_zone`,
      appId,
      userId,
      timeZone,
    );
}

/** A streak's stored state with the time of its next decision as the index holds it. */
export interface StoredStreak {
  /** Without its calendar (`history` empty): `readHistory` loads it when a period closes. */
  state: StreakState;
  decideAt: number | null;
}

type Row = { streak_id: string; state: string; history: string };
const withHistory = (row: { state: string; history: string }): StreakState => ({
  ...(JSON.parse(row.state) as StreakState),
  history: JSON.parse(row.history),
});

/** Every stored streak of the player without their calendars, in one read (an event's). */
export function readStored(sql: AreaSql): Map<string, StoredStreak> {
  return new Map(
    sql
      .exec<{ streak_id: string; state: string; decide_at: number | null }>(
        "SELECT streak_id, state, decide_at FROM st_streaks",
      )
      .toArray()
      .map((r) => [
        r.streak_id,
        { state: { ...(JSON.parse(r.state) as StreakState), history: [] }, decideAt: r.decide_at },
      ]),
  );
}

export function readHistory(sql: AreaSql, streakId: string): StreakState["history"] {
  const row = sql
    .exec<{ history: string }>("SELECT history FROM st_streaks WHERE streak_id = ?", streakId)
    .toArray()[0];
  return row ? JSON.parse(row.history) : [];
}

export function readStates(sql: AreaSql): Map<string, StreakState> {
  return new Map(
    sql
      .exec<Row>("SELECT streak_id, state, history FROM st_streaks")
      .toArray()
      .map((r) => [r.streak_id, withHistory(r)]),
  );
}

export function readState(sql: AreaSql, streakId: string): StreakState | null {
  const row = sql
    .exec<{ state: string; history: string }>("SELECT state, history FROM st_streaks WHERE streak_id = ?", streakId)
    .toArray()[0];
  return row ? withHistory(row) : null;
}

/** Writes the state; its calendar too unless `calendarUnchanged`. */
export function writeState(
  sql: AreaSql,
  streakId: string,
  state: StreakState,
  decideAt: number | null,
  calendarUnchanged = false,
): void {
  const { history, ...rest } = state;
  if (calendarUnchanged)
    sql.exec(
      `INSERT INTO st_streaks (streak_id, state, decide_at) VALUES (?, ?, ?)
       ON CONFLICT (streak_id) DO UPDATE SET state = excluded.state, decide_at = excluded.decide_at`,
      streakId,
      JSON.stringify(rest),
      decideAt,
    );
  else
    sql.exec(
      `INSERT INTO st_streaks (streak_id, state, history, decide_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (streak_id) DO UPDATE SET state = excluded.state, history = excluded.history, decide_at = excluded.decide_at`,
      streakId,
      JSON.stringify(rest),
      JSON.stringify(history),
      decideAt,
    );
}

/** The streaks whose decision is due by `now`. */
export function dueStreakIds(sql: AreaSql, now: number): string[] {
  return sql
    .exec<{ streak_id: string }>("SELECT streak_id FROM st_streaks WHERE decide_at <= ?", now)
    .toArray()
    .map((r) => r.streak_id);
}

export function nextDecision(sql: AreaSql): number | null {
  return (
    sql
      .exec<{ decide_at: number }>(
        "SELECT decide_at FROM st_streaks WHERE decide_at IS NOT NULL ORDER BY decide_at LIMIT 1",
      )
      .toArray()[0]?.decide_at ?? null
  );
}

export function forgetDecision(sql: AreaSql, streakId: string): void {
  sql.exec("UPDATE st_streaks SET decide_at = NULL WHERE streak_id = ?", streakId);
}
