-- Points systems (src/points): XP, karma, coins... per app, with levels by points earned and
-- triggers that turn events into points. A player's balances and ledger live in the player's
-- object, not here. Expand-only: a new table, its indexes, and two columns that default to no reward.
CREATE TABLE points_systems (
  system_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  -- The studio's key (the catalog's key rule), unique in the app: what players' balances are kept under.
  key TEXT NOT NULL,
  -- JSON: a plain string or {"en": "...", "de": "..."}.
  name TEXT NOT NULL,
  description TEXT,
  icon TEXT,
  spendable INTEGER NOT NULL DEFAULT 0,
  -- NULL: no cap.
  max_balance INTEGER,
  credits_challenge_xp INTEGER NOT NULL DEFAULT 0,
  -- JSON array of {level, name, points}, ascending.
  levels TEXT NOT NULL DEFAULT '[]',
  -- JSON array of {event_name, filters, value_field, every, points}.
  triggers TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX points_systems_key ON points_systems (app_id, key);
-- At most one system of an app takes the challenges' challenge_xp.
CREATE UNIQUE INDEX points_systems_challenge_xp ON points_systems (app_id) WHERE credits_challenge_xp = 1;

-- Points a challenge or a battle-pass level credits when claimed: JSON array of {system, amount}.
ALTER TABLE challenges ADD COLUMN points_rewards TEXT NOT NULL DEFAULT '[]';
ALTER TABLE battle_pass_levels ADD COLUMN points_rewards TEXT NOT NULL DEFAULT '[]';

-- A leaderboard may rank a points system instead of an event: its score is what players earn in it.
ALTER TABLE leaderboards ADD COLUMN points_system TEXT;
