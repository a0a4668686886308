import type { UserEvent } from "../user/event";
import type { AreaSql } from "../shared/object-tables";

/**
 * The last events a user's object applied, kept in that object (not in D1, where raw events no
 * longer live: they go to the R2 archive). The console's player page and the player export read
 * them; erasing the user's object erases them.
 */
export const RECENT_EVENTS_KEPT = 20;

/** One applied event as the console and the export show it. */
export interface RecentEvent {
  event_name: string;
  event_type: string;
  session_id: string;
  team_id: string | null;
  meta_data: Record<string, unknown>;
  event_id: string | null;
  received_at: number;
}

/**
 * Inside the event's transaction: the event joins the recent ones. Those beyond the limit leave
 * every RECENT_EVENTS_KEPT events, in one statement, rather than one by one with each event: the
 * table holds up to twice the limit, and reads take the newest.
 */
export function recordRecentEvent(sql: AreaSql, event: UserEvent): void {
  const recent: RecentEvent = {
    event_name: event.eventName,
    event_type: event.eventType,
    session_id: event.sessionId,
    team_id: event.teamId,
    meta_data: event.metaData,
    event_id: event.eventId,
    received_at: event.receivedAt,
  };
  const { seq } = sql
    .exec<{ seq: number }>("INSERT INTO recent_events (event) VALUES (?) RETURNING seq", JSON.stringify(recent))
    .one();
  if (seq % RECENT_EVENTS_KEPT === 0) sql.exec("DELETE FROM recent_events WHERE seq <= ?", seq - RECENT_EVENTS_KEPT);
}

/** Newest first. */
export function readRecentEvents(sql: AreaSql, limit: number): RecentEvent[] {
  return sql
    .exec<{ event: string }>(
      "SELECT event FROM recent_events ORDER BY seq DESC LIMIT ?",
      Math.min(limit, RECENT_EVENTS_KEPT),
    )
    .toArray()
    .map((row) => JSON.parse(row.event) as RecentEvent);
}
