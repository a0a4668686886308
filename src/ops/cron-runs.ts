import { toIso } from "../shared/clock";

/** The one job the cron trigger runs (src/cron.ts). */
export const MAINTENANCE_JOB = "maintenance";

export interface CronRun {
  started_at: string;
  finished_at: string;
  failed_tasks: string[];
}

export async function recordCronRun(
  db: D1Database,
  job: string,
  startedAt: number,
  finishedAt: number,
  failedTasks: string[],
): Promise<void> {
  await db
    .prepare(
      `INSERT INTO cron_runs (job, started_at, finished_at, failed_tasks) VALUES (?, ?, ?, ?)
       ON CONFLICT (job) DO UPDATE SET started_at = excluded.started_at, finished_at = excluded.finished_at, failed_tasks = excluded.failed_tasks`,
    )
    .bind(job, toIso(startedAt), toIso(finishedAt), JSON.stringify(failedTasks))
    .run();
}

export async function lastCronRun(db: D1Database, job: string): Promise<CronRun | null> {
  const row = await db
    .prepare("SELECT started_at, finished_at, failed_tasks FROM cron_runs WHERE job = ?")
    .bind(job)
    .first<{ started_at: string; finished_at: string; failed_tasks: string }>();
  return row
    ? {
        started_at: row.started_at,
        finished_at: row.finished_at,
        failed_tasks: JSON.parse(row.failed_tasks) as string[],
      }
    : null;
}
