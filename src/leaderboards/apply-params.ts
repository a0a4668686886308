/**
 * The binds of the statements that apply a chunk of contributions in one D1 transaction
 * (APPLY_SQL in rank-index.ts, RECORD_FLAGS_SQL in flag-store.ts). D1 binds by number only; the
 * statements name each bind through this object, and `applyBinds` puts the values in its order.
 */
export const APPLY_PARAMS = {
  /** The contributions to apply (none held for review), as byEventJson makes them. */
  contributions: "?1",
  /** A token unique to the transaction: the events it claims are the ones it applies. */
  claim: "?2",
  /** The service time (ms). */
  now: "?3",
  /** The dedup keys of the chunk's events, as a JSON array. */
  eventKeys: "?4",
  /** The contributions held for review, as a JSON array of Contribution. */
  held: "?5",
  /** The ids of the boards whose changes somebody receives, as a JSON array. */
  heardBoards: "?6",
} as const;

export type ApplyValues = { [K in keyof typeof APPLY_PARAMS]: string | number };

/** The values in bind order, cut to the highest bind the statement uses (D1 wants exactly that many). */
export function applyBinds(sql: string, values: ApplyValues): (string | number)[] {
  const ordered = Object.keys(APPLY_PARAMS).map((name) => values[name as keyof ApplyValues]);
  const highest = Math.max(0, ...[...sql.matchAll(/\?(\d+)/g)].map((m) => Number(m[1])));
  return ordered.slice(0, highest);
}
