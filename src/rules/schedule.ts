/**
 * Calendar math for periodic resets: the latest reset boundary at or before `now`, for a wall-clock
 * time in an IANA zone. Works on civil dates and converts through Intl, so daylight-saving
 * changes, month ends and leap days need no special cases.
 */

export const PERIOD_RANGES = ["d", "w", "m", "never"] as const;
export type PeriodRange = (typeof PERIOD_RANGES)[number];

export interface WallClock {
  hour: number;
  minute: number;
  second: number;
}

interface CivilDate {
  year: number;
  month: number; // 1..12
  day: number;
}

type LocalDateTime = CivilDate & WallClock;

const DAY_MS = 86_400_000;

/** `HH:MM:SS` (24 h) or null. */
export function parseWallClock(text: string): WallClock | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d):([0-5]\d)$/.exec(text);
  return m ? { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3]) } : null;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True for a time zone name the runtime knows (IANA names and their aliases). */
export function isValidTimeZone(timeZone: string): boolean {
  if (!timeZone) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock date and time in a zone at an instant. */
export function zonedDateTime(ms: number, timeZone: string): LocalDateTime {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

const asUtcMs = (t: LocalDateTime) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/** Zone offset (ms, east positive) at an instant, to the second. */
function offsetAt(ms: number, timeZone: string): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return asUtcMs(zonedDateTime(whole, timeZone)) - whole;
}

const sameWallTime = (a: LocalDateTime, b: LocalDateTime) =>
  a.year === b.year &&
  a.month === b.month &&
  a.day === b.day &&
  a.hour === b.hour &&
  a.minute === b.minute &&
  a.second === b.second;

/**
 * The instant of a wall-clock time in a zone. A time that occurs twice (the hour repeated when
 * clocks go back) is its first occurrence; a time that does not exist (the hour skipped when
 * clocks go forward) moves forward by the length of the gap, as a wall clock would show it.
 */
export function zonedToInstant(local: LocalDateTime, timeZone: string): number {
  const wall = asUtcMs(local);
  const before = wall - offsetAt(wall - DAY_MS, timeZone);
  const after = wall - offsetAt(wall + DAY_MS, timeZone);
  const valid = [before, after].filter((t) => sameWallTime(zonedDateTime(t, timeZone), local));
  if (valid.length > 0) return Math.min(...valid);
  return before;
}

function addDays(date: CivilDate, days: number): CivilDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function addMonths(date: CivilDate, months: number): CivilDate {
  const d = new Date(Date.UTC(date.year, date.month - 1 + months, date.day));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** 0 = Monday ... 6 = Sunday. */
const daysSinceMonday = (date: CivilDate) =>
  (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7;

export interface PeriodSchedule {
  period: PeriodRange;
  /** `HH:MM:SS` */
  resetAtTime: string;
  timeZone: string;
}

/**
 * Start of the period that contains `now`: the latest reset at or before it. Daily at the time,
 * weekly on Monday at the time, monthly on the 1st at the time. Null for `never`.
 */
export function periodStart(schedule: PeriodSchedule, now: number): number | null {
  if (schedule.period === "never") return null;
  const clock = parseWallClock(schedule.resetAtTime) ?? { hour: 0, minute: 0, second: 0 };
  const today = zonedDateTime(now, schedule.timeZone);
  const at = (date: CivilDate) => zonedToInstant({ ...date, ...clock }, schedule.timeZone);
  let anchor: CivilDate;
  let previous: (date: CivilDate) => CivilDate;
  if (schedule.period === "d") {
    anchor = today;
    previous = (d) => addDays(d, -1);
  } else if (schedule.period === "w") {
    anchor = addDays(today, -daysSinceMonday(today));
    previous = (d) => addDays(d, -7);
  } else {
    anchor = { year: today.year, month: today.month, day: 1 };
    previous = (d) => addMonths(d, -1);
  }
  const start = at(anchor);
  return start <= now ? start : at(previous(anchor));
}

/** The UTC calendar date of an instant, `YYYY-MM-DD`: the key of the daily category's rotation. */
export const utcDateKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `YYYY-MM` of an instant in UTC: the month that usage is counted in. */
export const utcMonthKey = (ms: number) => new Date(ms).toISOString().slice(0, 7);
