import type { FieldProblem } from "../../shared/domain-errors";

const DAY_MS = 86_400_000;
export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 366;

/** The UTC month (YYYY-MM) that usage counts an instant in. */
export const monthOf = (ms: number) => new Date(ms).toISOString().slice(0, 7);

/** The UTC day (YYYY-MM-DD) of an instant. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Date.parse rolls 2025-02-30 over to March; a wrong date is an error instead. */
const isCalendarDay = (date: string) => dayOf(Date.parse(`${date}T00:00:00Z`) || 0) === date;

export type Range = { ok: true; from: number; to: number } | { ok: false; errors: FieldProblem[] };

/**
 * The half-open interval [from, to) of an analytics query. Each bound is an ISO date or
 * date-time; a date `to` includes that whole day. Without `to` the range ends now; without
 * `from` it starts DEFAULT_RANGE_DAYS before its end.
 */
export function analyticsRange(from: string | undefined, to: string | undefined, now: number): Range {
  const errors: FieldProblem[] = [];
  const parse = (field: string, value: string | undefined, endOfDay: boolean): number | undefined => {
    if (value === undefined || value === "") return undefined;
    const ms =
      (DATE.test(value) || DATE_TIME.test(value)) && isCalendarDay(value.slice(0, 10)) ? Date.parse(value) : NaN;
    if (Number.isNaN(ms)) {
      errors.push({ field, problem: "must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)" });
      return undefined;
    }
    return endOfDay && DATE.test(value) ? ms + DAY_MS : ms;
  };
  const fromMs = parse("from", from, false);
  const toMs = parse("to", to, true);
  if (errors.length > 0) return { ok: false, errors };
  const end = toMs ?? now;
  const start = fromMs ?? end - DEFAULT_RANGE_DAYS * DAY_MS;
  if (end <= start) return { ok: false, errors: [{ field: "to", problem: "must be after from" }] };
  if (end - start > MAX_RANGE_DAYS * DAY_MS) {
    return { ok: false, errors: [{ field: "from", problem: `must be at most ${MAX_RANGE_DAYS} days before to` }] };
  }
  return { ok: true, from: start, to: end };
}

/** Every UTC day that the interval [from, to) touches, with its count (0 when absent). */
export function countsPerDay(
  from: number,
  to: number,
  counts: ReadonlyMap<string, number>,
): { day: string; count: number }[] {
  const days: { day: string; count: number }[] = [];
  for (let t = Math.floor(from / DAY_MS) * DAY_MS; t < to; t += DAY_MS) {
    const day = dayOf(t);
    days.push({ day, count: counts.get(day) ?? 0 });
  }
  return days;
}
