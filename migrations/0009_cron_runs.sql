-- The cron's last run, shown by GET /api/v1/admin/status: one row per job, replaced at each run.
-- A new table only (expand-only): the version still serving while migrations run never reads it.
CREATE TABLE cron_runs (
  job TEXT PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT NOT NULL,
  -- JSON array of the names of the tasks that failed; [] when all succeeded.
  failed_tasks TEXT NOT NULL
);
