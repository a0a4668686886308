import { pruneAnalytics } from "./analytics-store";
import { pruneUsageReceipts, USAGE_RECEIPT_RETENTION_MS } from "./usage-store";
import { pruneAppEventSeconds } from "./app-rate";

export const DEFAULT_RETENTION_DAYS = 90;

/** ANALYTICS_RETENTION_DAYS, or the default when it is unset or not a positive number. */
export function retentionDays(value: string | undefined): number {
  const days = Number(value);
  return value && Number.isFinite(days) && days > 0 ? days : DEFAULT_RETENTION_DAYS;
}

/**
 * Cron: drops analytics events past their retention, usage receipts past the queue's retries, and
 * the per-app rate counts no isolate reads any more.
 */
export async function pruneEventData(env: { DB: D1Database; ANALYTICS_RETENTION_DAYS?: string }, now: number): Promise<void> {
  await Promise.all([
    pruneAnalytics(env.DB, now - retentionDays(env.ANALYTICS_RETENTION_DAYS) * 86_400_000),
    pruneUsageReceipts(env.DB, now - USAGE_RECEIPT_RETENTION_MS),
    pruneAppEventSeconds(env.DB, now),
  ]);
}
