-- Event intake: events kept for analytics, and the apps' monthly usage counters.

-- One row per accepted event, written off the request path by the background queue.
CREATE TABLE analytics_events (
  -- The queue message's id: a replayed message inserts nothing.
  id TEXT PRIMARY KEY,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  team_id TEXT,
  event_name TEXT NOT NULL,
  event_type TEXT NOT NULL,
  session_id TEXT NOT NULL,
  -- JSON object of the kept meta data fields.
  meta_data TEXT NOT NULL,
  event_id TEXT,
  -- Service clock (ms since epoch) when the event was received.
  received_at INTEGER NOT NULL
);
CREATE INDEX analytics_events_by_app_time ON analytics_events (app_id, received_at);
-- Retention pruning scans by time across apps.
CREATE INDEX analytics_events_by_time ON analytics_events (received_at);

-- Per app and UTC month (YYYY-MM): `events` and `unlocked_challenges`.
CREATE TABLE usage_counters (
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  month TEXT NOT NULL,
  metric TEXT NOT NULL,
  count INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, month, metric)
) WITHOUT ROWID;

-- Queue messages of kind "usage" already counted, so that a replayed message counts once.
CREATE TABLE usage_receipts (
  message_id TEXT PRIMARY KEY,
  received_at INTEGER NOT NULL
);
CREATE INDEX usage_receipts_by_time ON usage_receipts (received_at);
