import { COUNTED_EVENT_NAMES_SQL } from "../registry/areas";

/** The event names an app's configuration counts; `everyEvent` when something counts any event. */
export interface CountedEventNames {
  names: string[];
  everyEvent: boolean;
}

/**
 * The distinct event names any configuration of the app counts, sorted: each area that counts
 * events says which (its plugin's `countedEventNamesSql`, where a NULL name is something that counts
 * every event, a streak of any event). An event of any other name is accepted and counts toward
 * nothing, unless something counts every event: the unused events (admin API and dashboard) and
 * the event tester's warning are told apart by this one list.
 */
export async function countedEventNames(db: D1Database, appId: number | string): Promise<CountedEventNames> {
  if (COUNTED_EVENT_NAMES_SQL.length === 0) return { names: [], everyEvent: false };
  // One statement per area in one batch: D1 allows few terms in one compound SELECT (UNION).
  const results = await db.batch<{ event_name: string | null }>(
    COUNTED_EVENT_NAMES_SQL.map((sql) => db.prepare(sql).bind(Number(appId))),
  );
  const names = new Set<string>();
  let everyEvent = false;
  for (const result of results)
    for (const row of result.results) {
      if (row.event_name === null) everyEvent = true;
      else names.add(row.event_name);
    }
  return { names: [...names].sort(compareBytes), everyEvent };
}

const encoder = new TextEncoder();

/** SQLite's order of text (its bytes in UTF-8), which ORDER BY gave. */
function compareBytes(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}
