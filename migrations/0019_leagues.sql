-- Leagues (src/leagues): seasons in which players compete in cohorts of their tier, moving up and
-- down at each season's end. A player's membership and score live in the player's object; D1 holds
-- the configuration, each season's cohorts with their standings (at most cohort_size members each)
-- and, once a cohort is decided, its results as one JSON value. Never a row per event.
-- Expand-only: new tables and their indexes.
CREATE TABLE leagues (
  league_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  -- The studio's key (the catalog's key rule), unique in the app.
  key TEXT NOT NULL,
  -- JSON: a plain string or {"en": "...", "de": "..."}.
  name TEXT NOT NULL,
  event_name TEXT NOT NULL,
  -- JSON array of {field, op, value}.
  filters TEXT NOT NULL DEFAULT '[]',
  value_field TEXT,
  aggregation TEXT NOT NULL,
  -- JSON array of {key, name}, lowest first.
  tiers TEXT NOT NULL,
  cohort_size INTEGER NOT NULL,
  promote INTEGER NOT NULL,
  demote INTEGER NOT NULL,
  -- JSON {period, reset_at_time, time_zone}.
  schedule TEXT NOT NULL,
  -- JSON array of {tier, rank_min, rank_max, points_rewards, reward}.
  rewards TEXT NOT NULL DEFAULT '[]',
  authoritative INTEGER NOT NULL DEFAULT 0,
  min_value INTEGER,
  max_value INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE UNIQUE INDEX leagues_key ON leagues (app_id, key);

-- A season of a league, from its first player's arrival: the rules it is decided by (the
-- league's tiers, cohort size, zones and rewards when it started), and whether the cron has
-- claimed its end ('ending') and decided every cohort ('ended').
CREATE TABLE league_seasons (
  league_id INTEGER NOT NULL,
  -- Service time (ms) of its start: the season's id.
  season_start INTEGER NOT NULL,
  app_id INTEGER NOT NULL,
  ends_at INTEGER NOT NULL,
  rules TEXT NOT NULL,
  state TEXT NOT NULL DEFAULT 'open',
  ended_at INTEGER,
  PRIMARY KEY (league_id, season_start)
) WITHOUT ROWID;
CREATE INDEX league_seasons_by_state ON league_seasons (state, ends_at);

-- A cohort of one tier of a season, filled in arrival order and closed when full. `claim` names
-- the cron chunk deciding it; `results` (JSON array) is written once, with `decided_at`.
CREATE TABLE league_cohorts (
  cohort_id INTEGER PRIMARY KEY AUTOINCREMENT,
  league_id INTEGER NOT NULL,
  season_start INTEGER NOT NULL,
  app_id INTEGER NOT NULL,
  tier INTEGER NOT NULL,
  cohort_no INTEGER NOT NULL,
  size INTEGER NOT NULL,
  members INTEGER NOT NULL DEFAULT 0,
  closed INTEGER NOT NULL DEFAULT 0,
  claim TEXT,
  claimed_at INTEGER,
  results TEXT,
  decided_at INTEGER
);
CREATE UNIQUE INDEX league_cohorts_by_no ON league_cohorts (league_id, season_start, tier, cohort_no);
-- The open cohort of a tier, found without reading the full ones.
CREATE INDEX league_cohorts_open ON league_cohorts (league_id, season_start, tier, cohort_no) WHERE closed = 0;
CREATE INDEX league_cohorts_undecided ON league_cohorts (league_id, season_start, cohort_id) WHERE decided_at IS NULL;

-- A player in a season's cohort, with the standings' score and tie-breakers (service times, ms).
CREATE TABLE league_members (
  league_id INTEGER NOT NULL,
  season_start INTEGER NOT NULL,
  user_id TEXT NOT NULL,
  app_id INTEGER NOT NULL,
  cohort_id INTEGER NOT NULL,
  tier INTEGER NOT NULL,
  score INTEGER NOT NULL,
  reached_at INTEGER NOT NULL,
  joined_at INTEGER NOT NULL,
  PRIMARY KEY (league_id, season_start, user_id)
) WITHOUT ROWID;
CREATE INDEX league_members_by_cohort ON league_members (cohort_id);
CREATE INDEX league_members_by_user ON league_members (app_id, user_id, league_id, season_start);
