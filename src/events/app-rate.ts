import { admit, liveEntries, record, WINDOW_MS, type Admission, type WindowEntry } from "../rules/sliding-window";
import { logBackgroundFailure } from "../shared/log";

/**
 * The per-app rate limit, approximate by design: routing every event of an app through one
 * object would make that object the app's bottleneck. Each isolate counts the events it accepted
 * per second and, about once a second (RECONCILE_MS), adds them to D1 and reads back what every
 * isolate reported for the app's last minute. An isolate therefore misses at most what the
 * others accepted since their last report: the app can go over its limit by about one
 * reconcile interval of its traffic (plus a D1 round trip), never refuse below it. Seconds are
 * whole, so an event may leave the window up to a second early (docs/fair-play.md).
 */
export const RECONCILE_MS = 1000;
const SECOND_MS = 1000;

interface AppWindow {
  /** Events per second of the app's last minute, every isolate's, as D1 answered at the last reconciliation. */
  shared: Map<number, number>;
  /** Events per second this isolate accepted since (refunds subtract). */
  own: Map<number, number>;
  /** What the reconciliation under way reports: still counted here until D1's answer holds it. */
  reporting: Map<number, number>;
  /** The three together, as entries at the start of each second, ascending: what admissions read. */
  known: WindowEntry[];
  /** Wall time of the last reconciliation that started. */
  reconciledAt: number;
  reconciling: boolean;
}

const windows = new Map<string, AppWindow>();

function windowOf(appId: string): AppWindow {
  let w = windows.get(appId);
  if (!w)
    windows.set(
      appId,
      (w = { shared: new Map(), own: new Map(), reporting: new Map(), known: [], reconciledAt: 0, reconciling: false }),
    );
  return w;
}

const secondOf = (now: number) => Math.floor(now / SECOND_MS);

const addTo = (counts: Map<number, number>, second: number, n: number) =>
  counts.set(second, (counts.get(second) ?? 0) + n);

/** Counts `n` events (negative: gives them back) of this isolate at `now`. */
function count(w: AppWindow, now: number, n: number): void {
  const second = secondOf(now);
  addTo(w.own, second, n);
  record(w.known, second * SECOND_MS, n);
}

/** Rebuilds what admissions read, after D1 answered. */
function rebuildKnown(w: AppWindow): void {
  const bySecond = new Map(w.shared);
  for (const counts of [w.reporting, w.own]) for (const [second, n] of counts) addTo(bySecond, second, n);
  w.known = [...bySecond].sort(([a], [b]) => a - b).map(([second, n]) => ({ at: second * SECOND_MS, n }));
}

/** Drops the seconds that left the window, now and then: `known` only grows between reconciliations. */
const trimmed = (w: AppWindow, now: number) =>
  w.known.length > 0 && w.known[0].at <= now - WINDOW_MS ? (w.known = liveEntries(w.known, now)) : w.known;

/** How many of `wanted` events of the app fit now; the admitted ones are counted. */
export function admitAppEvents(appId: string, now: number, limit: number, wanted: number): Admission {
  const w = windowOf(appId);
  const admission = admit(trimmed(w, now), now, limit, wanted);
  if (admission.admitted > 0) count(w, now, admission.admitted);
  return admission;
}

/** ms until one more event of the app fits, or null when one fits now. Counts nothing. */
export function appRefusal(appId: string, now: number, limit: number): number | null {
  const w = windowOf(appId);
  const { admitted, retryAfterMs } = admit(trimmed(w, now), now, limit, 1);
  return admitted === 1 ? null : retryAfterMs;
}

/** Events admitted at `now` that were not applied after all (refused by the player's limit, duplicates, failures). */
export function refundAppEvents(appId: string, now: number, n: number): void {
  if (n > 0) count(windowOf(appId), now, -n);
}

const ADD_SQL = `INSERT INTO app_event_seconds (app_id, second, events)
  SELECT ?1, value ->> 0, value ->> 1 FROM json_each(?2) WHERE true
  ON CONFLICT (app_id, second) DO UPDATE SET events = events + excluded.events`;
const READ_SQL = "SELECT second, events FROM app_event_seconds WHERE app_id = ?1 AND second > ?2";
const PRUNE_SQL = "DELETE FROM app_event_seconds WHERE app_id = ?1 AND second <= ?2";

/**
 * When due (once per RECONCILE_MS per app and isolate), the reconciliation to run off the
 * request path; else null. A failure keeps this isolate's counts for the next one.
 */
export function reconcileAppEvents(db: D1Database, appId: string, now: number): Promise<void> | null {
  const w = windowOf(appId);
  const wallNow = Date.now();
  if (w.reconciling || wallNow - w.reconciledAt < RECONCILE_MS) return null;
  w.reconciling = true;
  w.reconciledAt = wallNow;
  const oldest = secondOf(now - WINDOW_MS);
  w.reporting = new Map([...w.own].filter(([second, n]) => second > oldest && n !== 0));
  w.own = new Map();
  const statements = [
    ...(w.reporting.size > 0 ? [db.prepare(ADD_SQL).bind(Number(appId), JSON.stringify([...w.reporting]))] : []),
    db.prepare(READ_SQL).bind(Number(appId), oldest),
    db.prepare(PRUNE_SQL).bind(Number(appId), oldest - 60),
  ];
  return db
    .batch<{ second: number; events: number }>(statements)
    .then(
      (results) => {
        w.shared = new Map(results[results.length - 2].results.map((r) => [r.second, r.events]));
        w.reporting = new Map();
        rebuildKnown(w);
      },
      (err) => {
        for (const [second, n] of w.reporting) addTo(w.own, second, n);
        w.reporting = new Map();
        logBackgroundFailure(
          "rate-limit",
          "reconciling the app's event count failed; retried with its next event",
          err,
          { app_id: appId },
        );
      },
    )
    .finally(() => {
      w.reconciling = false;
    });
}

/** Cron: seconds no isolate will read again (apps that went quiet keep their last minute otherwise). */
export async function pruneAppEventSeconds(db: D1Database, now: number): Promise<void> {
  await db
    .prepare("DELETE FROM app_event_seconds WHERE second <= ?")
    .bind(secondOf(now - 2 * WINDOW_MS))
    .run();
}
