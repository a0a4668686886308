-- Battle passes, their levels and the challenges of each level (configuration; user progress
-- lives in the user's Durable Object). Localized fields hold JSON text ('"plain"' or '{"en": ...}').
CREATE TABLE battle_passes (
  battle_pass_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  battle_pass_name TEXT NOT NULL,
  battle_pass_description TEXT NOT NULL,
  battle_pass_short_description TEXT NOT NULL,
  battle_pass_disclaimer TEXT NOT NULL,
  battle_pass_priority INTEGER NOT NULL,
  package_sku_ios TEXT NOT NULL,
  package_sku_android TEXT NOT NULL,
  image_xs TEXT NOT NULL,
  image_s TEXT NOT NULL,
  image_m TEXT NOT NULL,
  image_l TEXT NOT NULL,
  image_xl TEXT NOT NULL,
  -- ISO 8601 in UTC as written by toIso(), so that text comparison is time order.
  start_date TEXT NOT NULL,
  end_date TEXT NOT NULL,
  read_more_link TEXT NOT NULL,
  is_unlocked_incrementally INTEGER NOT NULL,
  is_active INTEGER NOT NULL,
  can_purchase_with_money INTEGER NOT NULL,
  can_purchase_with_coins INTEGER NOT NULL,
  -- Set by the cron run that sent battlepass-expired: the claim that makes the webhook go out once.
  expired_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX battle_passes_by_app ON battle_passes (app_id, battle_pass_priority, battle_pass_id);
CREATE INDEX battle_passes_to_expire ON battle_passes (end_date) WHERE expired_at IS NULL;

CREATE TABLE battle_pass_levels (
  level_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  battle_pass_id INTEGER NOT NULL REFERENCES battle_passes (battle_pass_id) ON DELETE CASCADE,
  level_priority INTEGER NOT NULL,
  reward_amount TEXT NOT NULL,
  reward_type_name TEXT NOT NULL,
  level_reward_type TEXT NOT NULL,
  -- Per-level receiver of battlepass-level-reward-claimed; takes precedence over the app's webhooks.
  reward_webhook_url TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX battle_pass_levels_by_pass ON battle_pass_levels (battle_pass_id, level_priority, level_id);
CREATE INDEX battle_pass_levels_by_app ON battle_pass_levels (app_id);

CREATE TABLE battle_pass_challenges (
  challenge_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  level_id INTEGER NOT NULL REFERENCES battle_pass_levels (level_id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  challenge_name TEXT NOT NULL,
  challenge_goal INTEGER NOT NULL,
  challenge_goal_condition INTEGER NOT NULL,
  challenge_xp INTEGER NOT NULL,
  challenge_icon TEXT NOT NULL,
  challenge_icon_hd TEXT NOT NULL,
  event_name TEXT NOT NULL,
  value_field TEXT,
  -- JSON array of {field, op, value}.
  filters TEXT NOT NULL,
  counter_scope TEXT NOT NULL
);
CREATE INDEX battle_pass_challenges_by_level ON battle_pass_challenges (level_id, position);
CREATE INDEX battle_pass_challenges_by_app ON battle_pass_challenges (app_id);
