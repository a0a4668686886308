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
  // One statement per area in one batch: D1 refuses a compound SELECT of more than a few terms.
  const results = await db.batch<{ event_name: string | null }>(
    COUNTED_EVENT_NAMES_SQL.map((sql) => db.prepare(sql).bind(Number(appId))),
  );
  const rows = results.flatMap((r) => r.results);
  const names = [...new Set(rows.flatMap((r) => (r.event_name === null ? [] : [r.event_name])))].sort();
  return { names, everyEvent: rows.some((r) => r.event_name === null) };
}
