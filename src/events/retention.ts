import { pruneEventCounts, pruneEventReceipts } from "./analytics-repo";
import { pruneArchive } from "./archive/retention";
import { HOUR_MS } from "./core/archive-layout";
import { pruneUsageReceipts, USAGE_RECEIPT_RETENTION_MS } from "./usage-repo";
import { pruneAppEventSeconds } from "./app-rate";
import { dayOf } from "./core/periods";
import { prunePlayerDays } from "./player-days";

export const DEFAULT_RETENTION_DAYS = 90;

/** ANALYTICS_RETENTION_DAYS, or the default when it is unset or not a positive number. */
export function retentionDays(value: string | undefined): number {
  const days = Number(value);
  return value && Number.isFinite(days) && days > 0 ? days : DEFAULT_RETENTION_DAYS;
}

/** Archive objects expire by the hour, so the cron looks at them in the first minute of each hour only. */
const firstMinuteOfHour = (now: number) => now % HOUR_MS < 60_000;

export type RetentionEnv = Pick<Env, "DB" | "EVENTS_ARCHIVE"> & {
  ANALYTICS_RETENTION_DAYS?: string;
  EVENTS_ARCHIVE_PRUNING?: string;
};

/**
 * Cron: drops archived events, event counts, players per day and retention cells past their
 * retention, receipts past the queue's redeliveries, and the per-app rate counts no isolate reads
 * any more. With EVENTS_ARCHIVE_PRUNING=lifecycle an R2 lifecycle rule expires the archive instead
 * (docs/api.md, "Raw event archive"), and the cron leaves it alone.
 */
export async function pruneEventData(env: RetentionEnv, now: number): Promise<void> {
  const before = now - retentionDays(env.ANALYTICS_RETENTION_DAYS) * 86_400_000;
  const pruneArchiveNow = env.EVENTS_ARCHIVE_PRUNING !== "lifecycle" && firstMinuteOfHour(now);
  await Promise.all([
    pruneEventCounts(env.DB, before),
    prunePlayerDays(env.DB, dayOf(before)),
    pruneEventReceipts(env.DB, now),
    pruneUsageReceipts(env.DB, now - USAGE_RECEIPT_RETENTION_MS),
    pruneArchiveNow ? pruneArchive(env.EVENTS_ARCHIVE, before) : undefined,
    pruneAppEventSeconds(env.DB, now),
  ]);
}
