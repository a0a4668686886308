-- Fair play: server-authoritative scores, plausibility and the review queue, bans, rate limits,
-- tokens that end with their key. Expand-only: new tables, and new columns whose defaults keep
-- every existing app, key, board and pass answering as before (see README, "Fair play").

-- Event names a game client (an access token) may not send; JSON array of names.
ALTER TABLE apps ADD COLUMN backend_only_events TEXT NOT NULL DEFAULT '[]';
-- Events a minute, per player (exact) and per app (approximate); NULL: the service's default.
ALTER TABLE apps ADD COLUMN rate_limit_per_user_per_minute INTEGER;
ALTER TABLE apps ADD COLUMN rate_limit_per_app_per_minute INTEGER;

-- 1: revoking the key also ends the access tokens it minted (they carry its id); 0: they live on.
ALTER TABLE api_keys ADD COLUMN end_tokens_on_revoke INTEGER NOT NULL DEFAULT 1;

-- 1: only events sent with an API key change the board.
ALTER TABLE leaderboards ADD COLUMN authoritative INTEGER NOT NULL DEFAULT 0;
-- Bounds of one event's value (not of the score); NULL: none. Events outside are flagged.
ALTER TABLE leaderboards ADD COLUMN min_value INTEGER;
ALTER TABLE leaderboards ADD COLUMN max_value INTEGER;
-- Events one player may bring to the board in any 60 seconds; NULL: no limit. Past it: flagged.
ALTER TABLE leaderboards ADD COLUMN max_events_per_minute INTEGER;

-- 1: only an API key (the studio's backend, after checking a purchase) may unlock the pass.
ALTER TABLE battle_passes ADD COLUMN backend_only_unlock INTEGER NOT NULL DEFAULT 0;

-- A banned player: refused on every path while the row exists and has not expired; hidden from
-- every board while the row exists (the cron deletes it within a minute of its expiry).
CREATE TABLE player_bans (
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  reason TEXT NOT NULL,
  -- Service time (ms); NULL: until lifted.
  expires_at INTEGER,
  banned_at TEXT NOT NULL,
  PRIMARY KEY (app_id, user_id)
);
CREATE INDEX player_bans_by_expiry ON player_bans (expires_at) WHERE expires_at IS NOT NULL;

-- Submissions a board held back for review (out of range, or past max_events_per_minute).
-- No foreign key to leaderboards: deleting a board must not cascade over its queue inside one
-- request; the cron removes flags of deleted boards and flags past their retention.
CREATE TABLE leaderboard_flags (
  flag_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL,
  -- A deleted board takes its review queue with it.
  leaderboard_id INTEGER NOT NULL REFERENCES leaderboards (leaderboard_id) ON DELETE CASCADE,
  member_type TEXT NOT NULL,
  member_id TEXT NOT NULL,
  value INTEGER NOT NULL,
  reason TEXT NOT NULL,
  event_name TEXT NOT NULL,
  -- Service time (ms) the event was received.
  flagged_at INTEGER NOT NULL
);
CREATE INDEX leaderboard_flags_by_board ON leaderboard_flags (leaderboard_id, flag_id);
CREATE INDEX leaderboard_flags_by_member ON leaderboard_flags (leaderboard_id, member_type, member_id);
CREATE INDEX leaderboard_flags_by_time ON leaderboard_flags (flagged_at);

-- Events of each app per second, as the Worker isolates report them (the per-app rate limit):
-- each isolate adds what it accepted about once a second and reads the app's last minute back.
CREATE TABLE app_event_seconds (
  app_id INTEGER NOT NULL,
  second INTEGER NOT NULL,
  events INTEGER NOT NULL,
  PRIMARY KEY (app_id, second)
) WITHOUT ROWID;
CREATE INDEX app_event_seconds_by_time ON app_event_seconds (second);
