-- Who plays: players per app and UTC day, and retention cells, written by the background consumer
-- from what a player's object reports at their first event of a UTC day (src/players/user-seen.ts),
-- in the same transaction as the event counts and under the same receipts, so that a replayed
-- queue batch adds nothing (src/events/analytics-store.ts). Never a row per player or per event.
-- Expand-only: two new tables.

-- One row per app and UTC day with activity. `day` is YYYY-MM-DD. `active`: players who sent an
-- event that day; `new`: those of them whose first event was that day. Players whose first day
-- their object does not know (from before these counts) are active, never new.
CREATE TABLE player_days (
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  day TEXT NOT NULL,
  active INTEGER NOT NULL DEFAULT 0,
  new INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, day)
) WITHOUT ROWID;
-- Retention drops old days across apps.
CREATE INDEX player_days_by_day ON player_days (day);

-- Retention: players first seen on `first_day` who were active on `active_day`, 1 to 90 days
-- later: at most 90 cells per first day.
CREATE TABLE player_retention (
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  first_day TEXT NOT NULL,
  active_day TEXT NOT NULL,
  players INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (app_id, first_day, active_day)
) WITHOUT ROWID;
CREATE INDEX player_retention_by_first_day ON player_retention (first_day);
