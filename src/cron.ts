import { pruneEventData } from "./events/channel";
import { liftExpiredBans } from "./players/bans";
import { dispatchChanges } from "./fanout/dispatch";
import { MAINTENANCE_JOB, recordCronRun } from "./ops/cron-runs";
import { logBackgroundFailure } from "./shared/log";
import { pruneHolderReceipts } from "./catalog/holders-repo";
import { pruneAuditLog } from "./apps/admin/audit-repo";
import { pruneErasures } from "./players/erasure";
import { AREA_CRON_TASKS } from "./registry/areas";

/**
 * The cron's tasks by name: the names appear in the failure logs and in the status answer. The
 * areas' tasks (src/registry/areas.ts) get the fan-out for the changes they make.
 */
const TASKS: Record<string, (env: Env, now: number) => Promise<void>> = {
  "event-retention": pruneEventData,
  ...Object.fromEntries(
    Object.entries(AREA_CRON_TASKS).map(([name, task]) => [
      name,
      (env: Env, now: number) => task(env, now, (changes) => dispatchChanges(env, changes)),
    ]),
  ),
  "holder-receipts-retention": (env, now) => pruneHolderReceipts(env.DB, now),
  "audit-log-retention": (env) => pruneAuditLog(env, Date.now()),
  "erasure-retention": pruneErasures,
  "ban-expiry": liftExpiredBans,
};

/**
 * Periodic work that must happen even when no user is active: runs every minute. Tasks run side
 * by side; one failing does not stop the others. Each failure is logged, and the run is recorded
 * for `GET /api/v1/admin/status`.
 */
export async function runScheduled(env: Env, now: number): Promise<void> {
  const names = Object.keys(TASKS);
  const startedAt = Date.now();
  const results = await Promise.allSettled(names.map((name) => TASKS[name](env, now)));
  const failed = names.filter((name, i) => {
    const result = results[i];
    if (result.status === "fulfilled") return false;
    logBackgroundFailure("cron", "cron task failed", result.reason, { task: name });
    return true;
  });
  try {
    await recordCronRun(env.DB, MAINTENANCE_JOB, now, now + (Date.now() - startedAt), failed);
  } catch (err) {
    logBackgroundFailure("cron", "recording the cron run failed", err);
  }
}
