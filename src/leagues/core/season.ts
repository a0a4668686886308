import { periodStart, type PeriodSchedule } from "../../rules/schedule";
import type { LeagueSchedule } from "./model";

/** One season of a league: from its start (its id) to the next boundary of the schedule. */
export interface Season {
  startsAt: number;
  endsAt: number;
}

const HOUR = 3_600_000;
const LENGTH = { daily: 24 * HOUR, weekly: 7 * 24 * HOUR } as const;

/** The calendar of periodic challenge resets: daily at the time, weekly on Monday at the time, in the zone. */
const periodSchedule = (s: LeagueSchedule): PeriodSchedule => ({
  period: s.period === "daily" ? "d" : "w",
  resetAtTime: s.resetAtTime,
  timeZone: s.timeZone,
});

/**
 * The season that contains `now`. Its end is the next boundary in the zone: the start of the period
 * that contains a moment a few hours past one nominal length (a day or a week is at most an hour
 * longer or shorter across a daylight-saving change), so seasons follow the wall clock.
 */
export function seasonAt(schedule: LeagueSchedule, now: number): Season {
  const rule = periodSchedule(schedule);
  const startsAt = periodStart(rule, now)!;
  const endsAt = periodStart(rule, startsAt + LENGTH[schedule.period] + 3 * HOUR)!;
  return { startsAt, endsAt };
}

/** The season that follows the one ending at `endsAt`. */
export const seasonAfter = (schedule: LeagueSchedule, endsAt: number): Season => seasonAt(schedule, endsAt);

/** How a season is named in answers: its start, as an ISO time. */
export const seasonIdOf = (startsAt: number) => new Date(startsAt).toISOString();

/** The start of a season from its id (null for an id that is not one). */
export function seasonStartOf(seasonId: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(seasonId)) return null;
  const ms = Date.parse(seasonId);
  return Number.isFinite(ms) ? ms : null;
}
