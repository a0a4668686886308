import { periodStart, type PeriodSchedule } from "../../rules/schedule";
import type { StreakPeriod } from "./model";

/**
 * Period boundaries of a streak in a zone, on the calendar rules of periodic challenge resets
 * (src/rules/schedule.ts): a day ends at `reset_at_time` local time, a week on Monday at it, so a
 * day is 23 or 25 hours long across a daylight-saving change and never skipped or doubled.
 */

const HOUR_MS = 3_600_000;
/** Past the next boundary and short of the one after, whatever the length of a day (23 to 25 h). */
const PAST_NEXT: Record<StreakPeriod, number> = { daily: 36 * HOUR_MS, weekly: (7 * 24 + 12) * HOUR_MS };

const scheduleOf = (period: StreakPeriod, resetAtTime: string, timeZone: string): PeriodSchedule => ({
  period: period === "daily" ? "d" : "w",
  resetAtTime,
  timeZone,
});

export interface PeriodRule {
  period: StreakPeriod;
  resetAtTime: string;
  timeZone: string;
}

/** The start of the period that holds `at`. */
export function startOf(rule: PeriodRule, at: number): number {
  return periodStart(scheduleOf(rule.period, rule.resetAtTime, rule.timeZone), at) as number;
}

/** Boundaries already found, by rule and instant: players of a zone share them, and the calendar math is the costly part of an event. */
const known = new Map<string, number>();
const KNOWN_LIMIT = 4096;

/** The first boundary strictly after `at`. */
export function nextBoundary(rule: PeriodRule, at: number): number {
  const key = `${rule.period}|${rule.resetAtTime}|${rule.timeZone}|${at}`;
  const found = known.get(key);
  if (found !== undefined) return found;
  const start = startOf(rule, at);
  const next = startOf(rule, start + PAST_NEXT[rule.period]);
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.set(key, next);
  return next;
}

/** The period that holds `at`: [start, end). */
export function periodAt(rule: PeriodRule, at: number): { start: number; end: number } {
  const start = startOf(rule, at);
  return { start, end: nextBoundary(rule, start) };
}

/** How many boundaries lie in (from, to], counting at most `limit`. */
export function boundariesBetween(rule: PeriodRule, from: number, to: number, limit: number): number {
  let n = 0;
  let at = from;
  while (n < limit) {
    at = nextBoundary(rule, at);
    if (at > to) break;
    n++;
  }
  return n;
}
