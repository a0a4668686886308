import { COUNTED_EVENT_NAMES_SQL } from "../registry/areas";

/**
 * The distinct event names any configuration of the app counts, sorted: each area that counts
 * events says which (its plugin's `countedEventNamesSql`). An event of any other name is accepted
 * and counts toward nothing: the unused events (admin API and dashboard) and the event tester's
 * warning are told apart by this one list.
 */
export async function countedEventNames(db: D1Database, appId: number | string): Promise<string[]> {
  if (COUNTED_EVENT_NAMES_SQL.length === 0) return [];
  const rows = await db
    .prepare(`${COUNTED_EVENT_NAMES_SQL.join(" UNION ")} ORDER BY event_name`)
    .bind(Number(appId))
    .all<{ event_name: string }>();
  return rows.results.map((r) => r.event_name);
}
