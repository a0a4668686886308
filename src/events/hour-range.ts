import { invalid } from "../shared/domain-errors";
import { analyticsRange } from "./core/periods";
import { hourEnd, hourStart } from "./core/archive-layout";

/**
 * The range of an analytics query (ISO `from`/`to`, core/periods.ts) widened to whole UTC hours:
 * counts and archive files are kept per hour. A malformed or reversed range is a 400.
 */
export function requireHourRange(
  from: string | undefined,
  to: string | undefined,
  now: number,
): { from: number; to: number } {
  const range = analyticsRange(from, to, now);
  if (!range.ok) {
    throw invalid(`Invalid query: ${range.errors.map((e) => `${e.field} ${e.problem}`).join("; ")}`, range.errors);
  }
  return { from: hourStart(range.from), to: hourEnd(range.to) };
}
