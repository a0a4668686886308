import type { UserEvent } from "../../src/user/event";

/**
 * What the Worker before migration 0008 ran for each background batch of events: it counted them
 * toward usage and kept each as a row of `analytics_events`. The migration test runs it against
 * the new schema (that Worker still serves for the minutes of a deployment), and the benchmark
 * measures its D1 writes next to today's. `table` lets the benchmark use a copy of the old table.
 */
const field = (name: string) => `json_extract(r.value, '$.${name}')`;

export const countNewEventsSql = (table = "analytics_events") => `
  INSERT INTO usage_counters (app_id, month, metric, count)
  SELECT ${field("app_id")}, ${field("month")}, 'events', COUNT(*)
  FROM json_each(?1) AS r
  WHERE NOT EXISTS (SELECT 1 FROM ${table} a WHERE a.id = ${field("id")})
    AND EXISTS (SELECT 1 FROM apps WHERE apps.app_id = ${field("app_id")})
  GROUP BY 1, 2
  ON CONFLICT (app_id, month, metric) DO UPDATE SET count = count + excluded.count`;

export const insertEventsSql = (table = "analytics_events") => `
  INSERT OR IGNORE INTO ${table}
    (id, app_id, user_id, team_id, event_name, event_type, session_id, meta_data, event_id, received_at)
  SELECT ${["id", "app_id", "user_id", "team_id", "event_name", "event_type", "session_id"].map(field).join(", ")},
    json(${field("meta_data")}), ${field("event_id")}, ${field("received_at")}
  FROM json_each(?1) AS r
  WHERE EXISTS (SELECT 1 FROM apps WHERE apps.app_id = ${field("app_id")})`;

/** The JSON row of one event that both statements read. */
export const analyticsRow = (id: string, event: UserEvent) => ({
  id,
  app_id: Number(event.appId),
  user_id: event.userId,
  team_id: event.teamId,
  event_name: event.eventName,
  event_type: event.eventType,
  session_id: event.sessionId,
  meta_data: event.metaData,
  event_id: event.eventId,
  received_at: event.receivedAt,
  month: new Date(event.receivedAt).toISOString().slice(0, 7),
});
