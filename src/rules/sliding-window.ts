/**
 * A sliding window of one minute over counted events, as a log of `{at, n}` entries (n events
 * counted at service time `at`). Unlike a window aligned to the clock, it never lets 2× the limit
 * through around a minute's boundary: at any instant, the events counted in the 60 seconds before
 * it stay within the limit. Entries are kept in ascending `at`.
 */
export const WINDOW_MS = 60_000;

export interface WindowEntry {
  at: number;
  n: number;
}

export interface Admission {
  /** How many of the wanted events fit (the first ones). */
  admitted: number;
  /** Events still free in the window after these. */
  remaining: number;
  /** When not all fit: ms until one more would (an event counted now leaves the window after WINDOW_MS). */
  retryAfterMs: number;
}

/** The entries still inside the window that ends at `now`. */
export const liveEntries = (entries: readonly WindowEntry[], now: number) =>
  entries.filter((e) => e.at > now - WINDOW_MS);

/**
 * How many of `wanted` events fit under `limit` at `now`, given what the window already holds.
 * Pure: the caller counts the admitted ones (at `now`).
 */
export function admit(entries: readonly WindowEntry[], now: number, limit: number, wanted: number): Admission {
  const live = liveEntries(entries, now);
  const used = live.reduce((sum, e) => sum + e.n, 0);
  const admitted = Math.max(0, Math.min(wanted, limit - used));
  if (admitted === wanted) return { admitted, remaining: limit - used - admitted, retryAfterMs: 0 };
  // One more fits once enough of the counted events (the oldest first) have left the window.
  let toLeave = used + admitted - limit + 1;
  for (const entry of [...live, { at: now, n: admitted }]) {
    toLeave -= entry.n;
    // Requests read the clock before they are counted, so an entry may stand a little after `now`:
    // an event counted now has left the window within WINDOW_MS all the same.
    if (toLeave <= 0)
      return { admitted, remaining: 0, retryAfterMs: Math.min(WINDOW_MS, Math.max(1, entry.at + WINDOW_MS - now)) };
  }
  // Only when the limit is below 1: nothing ever fits.
  return { admitted, remaining: 0, retryAfterMs: WINDOW_MS };
}

/** Counts `n` events at `at` into ascending entries (merging with an entry of the same instant). */
export function record(entries: WindowEntry[], at: number, n: number): void {
  const last = entries[entries.length - 1];
  if (last && last.at === at) {
    last.n += n;
    return;
  }
  entries.push({ at, n });
  // Events stamped by different isolates may arrive slightly out of order.
  if (last && last.at > at) entries.sort((a, b) => a.at - b.at);
}
