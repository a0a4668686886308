-- Catalog as code (src/catalog): stable keys chosen by the studio, and how many players hold each
-- challenge and battle pass, so that a catalog apply can refuse to break running player state.
-- Expand-only: new columns, tables and indexes; nothing existing changes meaning.

-- A configuration object's key: `chosen_key` when the studio chose one (admin API `key`, catalog
-- documents), else derived from the id. Existing rows get a deterministic key at once, so every app
-- exports; the derived form never changes because ids are never reused (AUTOINCREMENT).
ALTER TABLE challenges ADD COLUMN chosen_key TEXT;
ALTER TABLE challenges ADD COLUMN key TEXT GENERATED ALWAYS AS (COALESCE(chosen_key, 'challenge-' || challenge_id)) VIRTUAL;
CREATE UNIQUE INDEX challenges_key ON challenges (app_id, key);

ALTER TABLE battle_passes ADD COLUMN chosen_key TEXT;
ALTER TABLE battle_passes ADD COLUMN key TEXT GENERATED ALWAYS AS (COALESCE(chosen_key, 'battle-pass-' || battle_pass_id)) VIRTUAL;
CREATE UNIQUE INDEX battle_passes_key ON battle_passes (app_id, key);

-- Levels are keyed within their pass, level challenges within their level.
ALTER TABLE battle_pass_levels ADD COLUMN chosen_key TEXT;
ALTER TABLE battle_pass_levels ADD COLUMN key TEXT GENERATED ALWAYS AS (COALESCE(chosen_key, 'level-' || level_id)) VIRTUAL;
CREATE UNIQUE INDEX battle_pass_levels_key ON battle_pass_levels (battle_pass_id, key);

ALTER TABLE battle_pass_challenges ADD COLUMN chosen_key TEXT;
ALTER TABLE battle_pass_challenges ADD COLUMN key TEXT GENERATED ALWAYS AS (COALESCE(chosen_key, 'challenge-' || challenge_id)) VIRTUAL;
CREATE UNIQUE INDEX battle_pass_challenges_key ON battle_pass_challenges (level_id, key);

ALTER TABLE leaderboards ADD COLUMN chosen_key TEXT;
ALTER TABLE leaderboards ADD COLUMN key TEXT GENERATED ALWAYS AS (COALESCE(chosen_key, 'leaderboard-' || leaderboard_id)) VIRTUAL;
CREATE UNIQUE INDEX leaderboards_key ON leaderboards (app_id, key);

ALTER TABLE webhooks ADD COLUMN chosen_key TEXT;
ALTER TABLE webhooks ADD COLUMN key TEXT GENERATED ALWAYS AS (COALESCE(chosen_key, 'webhook-' || webhook_id)) VIRTUAL;
CREATE UNIQUE INDEX webhooks_key ON webhooks (app_id, key);

-- Holders: player state lives in each user's Durable Object, so D1 keeps only counts, per challenge
-- and state (what running play depends on) and per battle pass (users who unlocked it). A user's
-- object stages a "holders" background message with +1/-1 in the same transaction as the state
-- change; the consumer adds them once per message (receipts), like the usage counters. Counts may
-- be briefly off while messages are on their way (the queue does not keep order).
CREATE TABLE challenge_holders (
  challenge_id INTEGER NOT NULL REFERENCES challenges (challenge_id) ON DELETE CASCADE,
  state TEXT NOT NULL CHECK (state IN ('unlocked', 'in-progress', 'unclaimed')),
  users INTEGER NOT NULL,
  PRIMARY KEY (challenge_id, state)
) WITHOUT ROWID;

CREATE TABLE battle_pass_holders (
  battle_pass_id INTEGER PRIMARY KEY REFERENCES battle_passes (battle_pass_id) ON DELETE CASCADE,
  users INTEGER NOT NULL
);

-- Queue messages already counted, so that a replayed batch counts nothing twice; kept 7 days.
CREATE TABLE holder_receipts (
  message_id TEXT PRIMARY KEY,
  received_at INTEGER NOT NULL
);
CREATE INDEX holder_receipts_by_age ON holder_receipts (received_at);
