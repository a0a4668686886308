/**
 * The event names an app's configuration counts, gathered from every area that counts events:
 * challenges, battle-pass level challenges and leaderboards. An event of any other name is
 * accepted and counts toward nothing: the unused events (admin API and dashboard) and the event
 * tester's warning are told apart by this one list.
 */

/** Each area that counts events, and the statement that lists the names its configuration counts (?1: the app). */
const COUNTING_AREAS: { area: string; sql: string }[] = [
  { area: "challenges", sql: "SELECT event_name FROM challenges WHERE app_id = ?1" },
  { area: "battle passes", sql: "SELECT event_name FROM battle_pass_challenges WHERE app_id = ?1" },
  { area: "leaderboards", sql: "SELECT event_name FROM leaderboards WHERE app_id = ?1" },
];

/** The distinct event names any configuration of the app counts, sorted. */
export async function countedEventNames(db: D1Database, appId: number | string): Promise<string[]> {
  const rows = await db
    .prepare(`${COUNTING_AREAS.map((a) => a.sql).join(" UNION ")} ORDER BY event_name`)
    .bind(Number(appId))
    .all<{ event_name: string }>();
  return rows.results.map((r) => r.event_name);
}
