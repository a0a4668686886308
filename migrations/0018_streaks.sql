-- Streaks (src/streaks): daily or weekly habits per app, kept in each player's time zone, with
-- freezes and milestones. A player's streak state lives in the player's object, not here.
-- Expand-only: two new tables.
CREATE TABLE streaks (
  streak_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  -- The studio's key (the catalog's key rule), unique in the app.
  key TEXT NOT NULL,
  -- JSON: a plain string or {"en": "...", "de": "..."}.
  name TEXT NOT NULL,
  -- daily | weekly (weeks start on Monday).
  period TEXT NOT NULL,
  -- NULL: any event counts.
  event_name TEXT,
  -- JSON array of counter filters.
  filters TEXT NOT NULL DEFAULT '[]',
  min_count INTEGER NOT NULL DEFAULT 1,
  reset_at_time TEXT NOT NULL DEFAULT '00:00:00',
  -- IANA zone of players who have none of their own.
  time_zone TEXT NOT NULL,
  -- JSON {initial, earn_every, max}.
  freezes TEXT NOT NULL,
  -- JSON array of {length, points_rewards}, ascending by length.
  milestones TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX streaks_key ON streaks (app_id, key);

-- Development only (DEV_CLOCK=on): the players' objects holding a timer, by its service time, so
-- that advancing the development clock runs the timers it makes due. Never written in production.
CREATE TABLE dev_timers (
  object_id TEXT PRIMARY KEY,
  due_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX dev_timers_due ON dev_timers (due_at);
