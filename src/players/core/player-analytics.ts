import type { FieldProblem } from "../../shared/domain-errors";

/**
 * Pure parts of the players' analytics: the range of UTC days a query asks for, players per day
 * with the returning ones, and the retention table, from the rows the consumer keeps
 * (migrations/0015_player_days.sql).
 */

const DAY_MS = 86_400_000;
/** The longest range of days one query may ask for. */
export const MAX_PLAYER_DAYS = 90;
/** The range without `from`: this many days up to `to`. */
export const DEFAULT_PLAYER_DAYS = 30;
/** The retention table's columns: players active again this many days after their first day. */
export const RETENTION_OFFSETS = [1, 7, 30] as const;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The UTC day (YYYY-MM-DD) of an instant. */
export const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The day `n` days after `day` (before, for a negative `n`). */
export const addDays = (day: string, n: number) => utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);

/** Days from `from` to `to` (negative when `to` comes first). */
export const daysFrom = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** A real calendar day as YYYY-MM-DD (not 2025-02-30, which Date.parse would roll over). */
const isDay = (value: string) => DAY.test(value) && utcDay(Date.parse(`${value}T00:00:00Z`) || 0) === value;

export type DayRange = { ok: true; from: string; to: string } | { ok: false; errors: FieldProblem[] };

/**
 * The days [from, to] (both included) of a query. Without `to` it ends today; without `from` it
 * covers DEFAULT_PLAYER_DAYS days up to `to`. At most MAX_PLAYER_DAYS days, none after today.
 */
export function playerDayRange(from: string | undefined, to: string | undefined, today: string): DayRange {
  const errors: FieldProblem[] = [];
  for (const [field, value] of [
    ["from", from],
    ["to", to],
  ] as const) {
    if (value !== undefined && value !== "" && !isDay(value)) {
      errors.push({ field, problem: "must be a UTC day as YYYY-MM-DD (2025-01-31)" });
    }
  }
  if (errors.length > 0) return { ok: false, errors };
  const end = to || today;
  const start = from || addDays(end, -(DEFAULT_PLAYER_DAYS - 1));
  if (end > today) return { ok: false, errors: [{ field: "to", problem: `must not be after today (${today})` }] };
  if (start > end) return { ok: false, errors: [{ field: "from", problem: "must not be after to" }] };
  if (daysFrom(start, end) + 1 > MAX_PLAYER_DAYS) {
    return {
      ok: false,
      errors: [{ field: "from", problem: `must be at most ${MAX_PLAYER_DAYS} days before to, both included` }],
    };
  }
  return { ok: true, from: start, to: end };
}

export interface PlayersDay {
  day: string;
  /** Players who sent an event that day. */
  active: number;
  /** Of them, those whose first event was that day. */
  new: number;
  /** Of them, those who had played on an earlier day (or from before the counts started). */
  returning: number;
}

export interface RetentionPoint {
  /** Of the day's new players, those active again `days` days later. */
  players: number;
  /** players / new players, from 0 to 1. */
  share: number;
}

export interface RetentionRow {
  first_day: string;
  new_players: number;
  /** Null while that day has not come yet. */
  day_1: RetentionPoint | null;
  day_7: RetentionPoint | null;
  day_30: RetentionPoint | null;
}

/** Every day of [from, to] with its counts (0 for a day without a row). */
export function playersPerDay(
  from: string,
  to: string,
  rows: readonly { day: string; active: number; new: number }[],
): PlayersDay[] {
  const byDay = new Map(rows.map((r) => [r.day, r]));
  return Array.from({ length: daysFrom(from, to) + 1 }, (_, i) => {
    const day = addDays(from, i);
    const row = byDay.get(day);
    const active = row?.active ?? 0;
    const fresh = row?.new ?? 0;
    return { day, active, new: fresh, returning: active - fresh };
  });
}

/**
 * The retention table: a row per day of the range that had new players, newest first, with the
 * share of them active again 1, 7 and 30 days later (null while that day is still to come).
 */
export function retentionTable(
  days: readonly PlayersDay[],
  cells: readonly { first_day: string; active_day: string; players: number }[],
  today: string,
): RetentionRow[] {
  const players = new Map(cells.map((c) => [`${c.first_day} ${c.active_day}`, c.players]));
  return days
    .filter((d) => d.new > 0)
    .map((d) => {
      const point = (offset: number): RetentionPoint | null => {
        const day = addDays(d.day, offset);
        if (day > today) return null;
        const count = players.get(`${d.day} ${day}`) ?? 0;
        return { players: count, share: count / d.new };
      };
      return { first_day: d.day, new_players: d.new, day_1: point(1), day_7: point(7), day_30: point(30) };
    })
    .reverse();
}
