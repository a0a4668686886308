-- The players an app has seen (src/apps/player-registry.ts): a row at a player's first event, first
-- access token or stored user info, written off the request path through the background queue. A
-- player's object reports at most once an hour, so the row's last_seen_at and events trail the
-- player by up to an hour. Erasure deletes the row. Expand-only: a new table and its indexes.
CREATE TABLE players (
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  -- Service time (ms).
  first_seen_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  -- Events the player's object applied, as it last reported them.
  events INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, user_id)
) WITHOUT ROWID;
-- The console's list: newest activity first, newest first seen first (an id prefix uses the key).
CREATE INDEX players_by_last_seen ON players (app_id, last_seen_at, user_id);
CREATE INDEX players_by_first_seen ON players (app_id, first_seen_at, user_id);
