import { parseId } from "../shared/ids";

/**
 * Receipts of erasure requests (migrations/0012_privacy.sql): what the API answers about an
 * erasure, from `pending` to `completed` (or `failed`). A receipt names its player by erasure
 * subject only, so it can be kept as long as the tombstone.
 */
export const ERASURE_STATUSES = ["pending", "running", "completed", "failed"] as const;
export type ErasureStatus = (typeof ERASURE_STATUSES)[number];

export interface ReceiptRow {
  erasure_id: number;
  app_id: number;
  subject: string;
  status: ErasureStatus;
  requested_at: string;
  started_at: string | null;
  completed_at: string | null;
  error: string | null;
}

export const presentReceipt = (row: ReceiptRow) => ({
  erasure_id: String(row.erasure_id),
  app_id: String(row.app_id),
  status: row.status,
  requested_at: row.requested_at,
  started_at: row.started_at,
  completed_at: row.completed_at,
  error: row.error,
});

/** 15 random digits: a receipt's id says nothing about other requests, and stays a safe integer. */
export function newErasureId(): number {
  const [high, low] = crypto.getRandomValues(new Uint32Array(2));
  return (high % 900_000) * 1_000_000_000 + (low % 1_000_000_000) + 100_000_000_000_000;
}

export const insertReceiptStatement = (
  db: D1Database,
  erasureId: number,
  appId: number,
  subject: string,
  nowIso: string,
) =>
  db
    .prepare("INSERT INTO erasures (erasure_id, app_id, subject, status, requested_at) VALUES (?, ?, ?, 'pending', ?)")
    .bind(erasureId, appId, subject, nowIso);

export async function findReceipt(db: D1Database, appId: number, erasureId: string): Promise<ReceiptRow | null> {
  const id = parseId(erasureId);
  if (id === null) return null;
  return db.prepare("SELECT * FROM erasures WHERE app_id = ? AND erasure_id = ?").bind(appId, id).first<ReceiptRow>();
}

/** The receipts of one player (by subject), newest first: what the console shows on a player's page. */
export async function receiptsOf(db: D1Database, appId: number, subject: string): Promise<ReceiptRow[]> {
  const rows = await db
    .prepare(
      "SELECT * FROM erasures WHERE app_id = ? AND subject = ? ORDER BY requested_at DESC, erasure_id DESC LIMIT 20",
    )
    .bind(appId, subject)
    .all<ReceiptRow>();
  return rows.results;
}

const ids = (erasureIds: string[]) => JSON.stringify(erasureIds.map(Number));

/** The player's object started the erasure; `error` says why an earlier attempt failed (null the first time). */
export const markRunning = (db: D1Database, erasureIds: string[], nowIso: string, error: string | null) =>
  db
    .prepare(
      `UPDATE erasures SET status = 'running', started_at = COALESCE(started_at, ?), error = ?
       WHERE erasure_id IN (SELECT value FROM json_each(?)) AND status IN ('pending', 'running')`,
    )
    .bind(nowIso, error, ids(erasureIds))
    .run();

export const markCompleted = (db: D1Database, erasureIds: string[], nowIso: string) =>
  db
    .prepare(
      "UPDATE erasures SET status = 'completed', completed_at = ?, error = NULL WHERE erasure_id IN (SELECT value FROM json_each(?))",
    )
    .bind(nowIso, ids(erasureIds))
    .run();

export const markFailed = (db: D1Database, erasureIds: string[], nowIso: string, error: string) =>
  db
    .prepare(
      "UPDATE erasures SET status = 'failed', completed_at = ?, error = ? WHERE erasure_id IN (SELECT value FROM json_each(?))",
    )
    .bind(nowIso, error, ids(erasureIds))
    .run();

/** Receipts live as long as tombstones (the cron). */
export async function pruneReceipts(db: D1Database, beforeIso: string): Promise<void> {
  await db.prepare("DELETE FROM erasures WHERE requested_at < ?").bind(beforeIso).run();
}
