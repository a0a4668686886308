-- Apps, their API keys (hashed), user info for leaderboards, and the development clock.
CREATE TABLE apps (
  app_id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  default_language TEXT NOT NULL DEFAULT 'en',
  -- Bumped by every admin change of the app's configuration: invalidates cached catalogs.
  catalog_version INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  key_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  name TEXT NOT NULL DEFAULT '',
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  created_at TEXT NOT NULL,
  revoked_at TEXT
);
CREATE INDEX api_keys_by_app ON api_keys (app_id, key_id);

CREATE TABLE user_info (
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  username TEXT,
  avatar_image TEXT,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (app_id, user_id)
);

CREATE TABLE dev_clock (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  offset_ms INTEGER NOT NULL
);
