-- Personal challenges: the catalog an admin configures. Per-user progress lives in each user's
-- Durable Object, never here.
CREATE TABLE challenge_categories (
  category_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  category_slug TEXT NOT NULL,
  -- Localized: JSON {"en": "...", "de": "..."} or a JSON string.
  category_name TEXT NOT NULL,
  category_position INTEGER NOT NULL DEFAULT 0,
  is_daily_category INTEGER NOT NULL DEFAULT 0,
  daily_challenge_count INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX challenge_categories_slug ON challenge_categories (app_id, category_slug);
CREATE INDEX challenge_categories_by_app ON challenge_categories (app_id, category_position, category_id);

CREATE TABLE challenges (
  challenge_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  category_id INTEGER NOT NULL REFERENCES challenge_categories (category_id) ON DELETE CASCADE,
  -- Localized: JSON, as category_name.
  challenge_name TEXT NOT NULL,
  challenge_description TEXT,
  challenge_goal INTEGER NOT NULL,
  challenge_goal_condition INTEGER NOT NULL DEFAULT 0,
  challenge_duration_time INTEGER NOT NULL DEFAULT -1,
  live_date TEXT,
  challenge_price INTEGER NOT NULL DEFAULT 0,
  challenge_reward TEXT NOT NULL DEFAULT '',
  challenge_reward_type TEXT NOT NULL DEFAULT '',
  challenge_xp INTEGER NOT NULL DEFAULT 0,
  challenge_icon TEXT NOT NULL DEFAULT '',
  challenge_icon_hd TEXT NOT NULL DEFAULT '',
  repeatable INTEGER NOT NULL DEFAULT 0,
  is_auto_activated INTEGER NOT NULL DEFAULT 0,
  period_range TEXT NOT NULL DEFAULT 'never',
  period_range_reset_at_time TEXT NOT NULL DEFAULT '00:00:00',
  period_range_time_zone TEXT NOT NULL DEFAULT 'UTC',
  event_name TEXT NOT NULL,
  value_field TEXT,
  -- JSON array of {field, op, value}.
  filters TEXT NOT NULL DEFAULT '[]',
  counter_scope TEXT NOT NULL DEFAULT 'session',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX challenges_by_app ON challenges (app_id, challenge_id);
CREATE INDEX challenges_by_category ON challenges (category_id, challenge_id);
