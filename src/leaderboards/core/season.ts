import { periodStart, type PeriodSchedule } from "../../rules/schedule";

/**
 * Which season an instant belongs to. A season is identified by its start (ms): the board's
 * `origin` (creation, a reset, a change of schedule or sort order) or a scheduled reset after it.
 * Seasons are computed, never stored as state, so a reset needs no write at the reset time and
 * readers, writers and cron agree on the current season without coordination.
 */
export interface SeasonPolicy {
  origin: number;
  /** Null for boards that never reset. */
  schedule: PeriodSchedule | null;
}

/** The season holding instant t, or null for instants before the origin (they count nowhere). */
export function seasonAt(policy: SeasonPolicy, t: number): number | null {
  if (t < policy.origin) return null;
  const start = policy.schedule ? periodStart(policy.schedule, t) : null;
  return start === null ? policy.origin : Math.max(policy.origin, start);
}

/** The current season at `now` (the origin itself while `now` is before it, e.g. a clock skew). */
export const currentSeason = (policy: SeasonPolicy, now: number) => seasonAt(policy, now) ?? policy.origin;

const HOUR_MS = 3_600_000;
/**
 * Longer than one period even across a DST change (a day lasts 23 to 25 hours), shorter than
 * two: the period holding `start + span` is the one right after the period starting at `start`.
 */
const ONE_PERIOD_AHEAD: Record<string, number> = {
  d: 26 * HOUR_MS,
  w: 7 * 24 * HOUR_MS + 2 * HOUR_MS,
  m: 32 * 24 * HOUR_MS,
};

/** When the next season starts; null for boards without a schedule. */
export function nextReset(policy: SeasonPolicy, now: number): number | null {
  const schedule = policy.schedule;
  if (!schedule) return null;
  const start = periodStart(schedule, Math.max(now, policy.origin));
  return start === null ? null : periodStart(schedule, start + ONE_PERIOD_AHEAD[schedule.period]);
}
