-- Leaderboards: configuration, scores per season, and the rank index that keeps rank-of-member,
-- the top page and any page cheap at millions of members (see src/leaderboards/rank-index.ts).

CREATE TABLE leaderboards (
  leaderboard_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  -- JSON: a plain string or {"en": "...", "de": "..."}.
  name TEXT NOT NULL,
  event_name TEXT NOT NULL,
  value_field TEXT,
  -- JSON array of {field, op, value}.
  filters TEXT NOT NULL DEFAULT '[]',
  aggregation TEXT NOT NULL CHECK (aggregation IN ('sum', 'max', 'min', 'last')),
  sort_order_ascending INTEGER NOT NULL DEFAULT 0,
  period_range TEXT CHECK (period_range IN ('d', 'w', 'm', 'never')),
  period_range_reset_at_time TEXT,
  period_range_time_zone TEXT,
  -- Service time (ms) at which the running series of seasons began: creation, a reset, or a change
  -- of the schedule or sort order. Scores of events received before it do not count.
  season_origin INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX leaderboards_by_app ON leaderboards (app_id, leaderboard_id);

-- One row per member per season. `season` is the start (ms) of the season the score belongs to;
-- a new season is simply a new key, so a reset costs nothing on the hot path and cron removes the
-- rows of past seasons in bounded chunks. `rank_key` orders the board: lower is better, whatever
-- the sort order (see core/rank-key.ts). No foreign key: deleting a board must not cascade over
-- millions of rows inside one request.
CREATE TABLE leaderboard_scores (
  leaderboard_id INTEGER NOT NULL,
  member_type TEXT NOT NULL,
  member_id TEXT NOT NULL,
  season INTEGER NOT NULL,
  score INTEGER NOT NULL,
  rank_key INTEGER NOT NULL,
  -- received_at (ms) of the newest applied event: `last` never goes back to an older value.
  last_at INTEGER NOT NULL,
  PRIMARY KEY (leaderboard_id, member_type, member_id, season)
) WITHOUT ROWID;
-- Board order: keyset pages and the neighbourhood of a member.
CREATE INDEX leaderboard_scores_order ON leaderboard_scores (leaderboard_id, season, member_type, rank_key, member_id);

-- The rank index: a sparse 256-way radix tree of member counts over rank_key. Level L holds, per
-- node (rank_key >> 8L), how many members have a key under that node. The number of members
-- ahead of a key is the sum of at most 255 siblings on each of the 7 levels, independent of the
-- board's size.
CREATE TABLE leaderboard_rank_counts (
  leaderboard_id INTEGER NOT NULL,
  season INTEGER NOT NULL,
  member_type TEXT NOT NULL,
  level INTEGER NOT NULL,
  node INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (leaderboard_id, season, member_type, level, node)
) WITHOUT ROWID;

-- Every (board, season) that has rows: what cron looks at to drop past seasons and deleted boards.
CREATE TABLE leaderboard_seasons (
  leaderboard_id INTEGER NOT NULL,
  season INTEGER NOT NULL,
  PRIMARY KEY (leaderboard_id, season)
) WITHOUT ROWID;

-- Queue messages whose events were applied, so that a redelivered batch is not counted twice.
-- `claim` tells the applying transaction which messages it claimed itself. Kept for a day.
CREATE TABLE leaderboard_applied_events (
  dedup_key TEXT PRIMARY KEY,
  claim TEXT NOT NULL,
  applied_at INTEGER NOT NULL
);
CREATE INDEX leaderboard_applied_events_by_time ON leaderboard_applied_events (applied_at);

-- Scratch space of one applying transaction (filled and emptied inside the same D1 batch).
CREATE TABLE leaderboard_apply_scratch (
  leaderboard_id INTEGER NOT NULL,
  season INTEGER NOT NULL,
  member_type TEXT NOT NULL,
  member_id TEXT NOT NULL,
  old_score INTEGER,
  old_key INTEGER,
  old_rank INTEGER,
  old_last_at INTEGER,
  new_score INTEGER NOT NULL,
  new_key INTEGER NOT NULL,
  new_last_at INTEGER NOT NULL,
  PRIMARY KEY (leaderboard_id, season, member_type, member_id)
) WITHOUT ROWID;
