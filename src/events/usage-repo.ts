import type { BackgroundMessage } from "../user/messages";
import type { Paging } from "../shared/paging";
import { pageOffset } from "../shared/paging";
import { chunkByJsonSize } from "../shared/chunks";

type UsageMessage = Extract<BackgroundMessage, { kind: "usage" }>;

/** A usage message as the background queue delivered it; `id` is the queue message's id. */
export interface UsageRecord extends Omit<UsageMessage, "kind"> {
  id: string;
}

const MAX_JSON_PARAMETER_CHARS = 512 * 1024;
/** Receipts only need to outlive the queue's retries. */
export const USAGE_RECEIPT_RETENTION_MS = 7 * 86_400_000;

const field = (name: string) => `json_extract(r.value, '$.${name}')`;

// Only messages without a receipt count, so a replayed queue batch counts nothing twice.
const COUNT_NEW = `
  INSERT INTO usage_counters (app_id, month, metric, count)
  SELECT ${field("app_id")}, ${field("month")}, ${field("metric")}, SUM(${field("count")})
  FROM json_each(?1) AS r
  WHERE NOT EXISTS (SELECT 1 FROM usage_receipts u WHERE u.message_id = ${field("id")})
    AND EXISTS (SELECT 1 FROM apps WHERE apps.app_id = ${field("app_id")})
  GROUP BY 1, 2, 3
  ON CONFLICT (app_id, month, metric) DO UPDATE SET count = count + excluded.count`;

const RECORD_RECEIPTS = `
  INSERT OR IGNORE INTO usage_receipts (message_id, received_at)
  SELECT ${field("id")}, ?2 FROM json_each(?1) AS r`;

/** Adds usage messages (for example unlocked challenges) to the apps' monthly counters. */
export async function recordUsage(db: D1Database, records: UsageRecord[], now: number): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((r) => ({
    id: r.id,
    app_id: Number(r.appId),
    month: r.month,
    metric: r.metric,
    count: r.count,
  }));
  const statements = chunkByJsonSize(rows, MAX_JSON_PARAMETER_CHARS).flatMap((json) => [
    db.prepare(COUNT_NEW).bind(json),
    db.prepare(RECORD_RECEIPTS).bind(json, now),
  ]);
  await db.batch(statements);
}

export interface MonthUsage {
  month: string;
  events: number;
  unlocked_challenges: number;
}

const MONTH_COLUMNS = `month,
  SUM(CASE metric WHEN 'events' THEN count ELSE 0 END) AS events,
  SUM(CASE metric WHEN 'unlocked_challenges' THEN count ELSE 0 END) AS unlocked_challenges`;

/** An app's usage of one month; zeros when nothing was counted. */
export async function readMonthUsage(db: D1Database, appId: number, month: string): Promise<MonthUsage> {
  const row = await db
    .prepare(`SELECT ${MONTH_COLUMNS} FROM usage_counters WHERE app_id = ? AND month = ? GROUP BY month`)
    .bind(appId, month)
    .first<MonthUsage>();
  return row ?? { month, events: 0, unlocked_challenges: 0 };
}

/** A page of an app's months with usage, newest first. */
export async function listMonthUsage(
  db: D1Database,
  appId: number,
  paging: Paging,
): Promise<{ items: MonthUsage[]; total: number }> {
  const [rows, total] = await db.batch<MonthUsage | { n: number }>([
    db
      .prepare(
        `SELECT ${MONTH_COLUMNS} FROM usage_counters WHERE app_id = ? GROUP BY month ORDER BY month DESC LIMIT ? OFFSET ?`,
      )
      .bind(appId, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(DISTINCT month) AS n FROM usage_counters WHERE app_id = ?").bind(appId),
  ]);
  return { items: rows.results as MonthUsage[], total: (total.results[0] as { n: number }).n };
}

export async function pruneUsageReceipts(db: D1Database, before: number): Promise<void> {
  await db.prepare("DELETE FROM usage_receipts WHERE received_at < ?").bind(before).run();
}
