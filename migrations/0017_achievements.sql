-- Achievements (src/achievements): an app's permanent milestones. Players' progress and holdings
-- live in their objects; D1 keeps the configuration and, per achievement, how many players hold it,
-- written off the request path by the background consumer. Expand-only: new tables and an index.
CREATE TABLE achievements (
  achievement_id INTEGER PRIMARY KEY,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  key TEXT NOT NULL,
  -- Localized texts: a JSON string or object of languages.
  name TEXT NOT NULL,
  description TEXT,
  hidden INTEGER NOT NULL DEFAULT 0,
  hidden_description TEXT,
  icon TEXT,
  -- metric | manual | composite
  kind TEXT NOT NULL,
  -- active | locked | inactive
  status TEXT NOT NULL DEFAULT 'active',
  sort_order INTEGER NOT NULL DEFAULT 0,
  -- JSON [{system, amount}]
  points_rewards TEXT NOT NULL DEFAULT '[]',
  -- Metric achievements: what counts, how, and from how much they are held.
  event_name TEXT,
  filters TEXT,
  value_field TEXT,
  aggregation TEXT,
  threshold INTEGER,
  -- Composite achievements: JSON list of the keys they require.
  requires TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX achievements_key ON achievements (app_id, key);

-- Players holding each achievement: +1/-1 staged by their objects with each grant, earn, revoke
-- and erasure, added up by the background consumer once per queue message.
CREATE TABLE achievement_holders (
  achievement_id INTEGER PRIMARY KEY REFERENCES achievements (achievement_id) ON DELETE CASCADE,
  holders INTEGER NOT NULL
);

-- Queue messages already counted, so that a replay counts nothing; pruned by the cron.
CREATE TABLE achievement_holder_receipts (
  message_id TEXT PRIMARY KEY,
  received_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX achievement_holder_receipts_by_time ON achievement_holder_receipts (received_at);
