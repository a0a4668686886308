/** One user's most recent events as the analytics table kept them (retention applies), newest first. */
export interface RecentEvent {
  event_name: string;
  event_type: string;
  session_id: string;
  team_id: string | null;
  meta_data: Record<string, unknown>;
  event_id: string | null;
  received_at: number;
}

export async function recentUserEvents(db: D1Database, appId: number, userId: string, limit: number): Promise<RecentEvent[]> {
  const rows = await db
    .prepare(
      `SELECT event_name, event_type, session_id, team_id, meta_data, event_id, received_at FROM analytics_events
       WHERE app_id = ? AND user_id = ? ORDER BY received_at DESC LIMIT ?`,
    )
    .bind(appId, userId, limit)
    .all<Omit<RecentEvent, "meta_data"> & { meta_data: string }>();
  return rows.results.map((row) => ({ ...row, meta_data: JSON.parse(row.meta_data) as Record<string, unknown> }));
}
