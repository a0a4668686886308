import { notFound } from "../shared/domain-errors";
import { parseId } from "../shared/ids";
import { type Paging, pageOffset } from "../shared/paging";
import type { WebhookType } from "../changes/types";
import type { DeliveryMessage } from "./messages";
import { erasedSinceSql } from "../apps/erasure-tombstones";

/** The delivery log is kept at least this long after a delivery last changed. */
export const DELIVERY_LOG_RETENTION_DAYS = 30;
/** Deliveries removed per cron run (every minute), so one run stays short. */
const PRUNE_BATCH = 1000;

export type DeliveryStatus = "pending" | "succeeded" | "failed";
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

export interface DeliveryRow {
  delivery_id: number;
  message_id: string;
  app_id: number;
  webhook_id: number | null;
  webhook_type: WebhookType;
  override_url: string | null;
  url: string | null;
  payload: string;
  status: DeliveryStatus;
  attempt_count: number;
  last_status_code: number | null;
  last_error: string | null;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
  /** The player the payload names (migrations/0012_privacy.sql). */
  user_id: string | null;
}

export interface AttemptRow {
  attempt_number: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  outcome: "succeeded" | "failed";
}

/** What one processing of a message did, as the log records it. */
export interface LoggedOutcome {
  status: DeliveryStatus;
  at: string;
  /** The HTTP attempt, absent when the message could not be sent at all (endpoint gone, URL refused). */
  attempt?: { url: string; statusCode: number | null; latencyMs: number; error: string | null; succeeded: boolean };
  error: string | null;
  nextAttemptAt: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Records one processing of a message: creates the delivery on first sight, counts the attempt
 * and appends it to the attempt log. A succeeded delivery never falls back (a duplicate from the
 * queue's at-least-once delivery may fail after the first copy got through). Nothing is recorded
 * for a player erased since the change (`subject`: their erasure subject), whose rows the erasure
 * deleted while the call was under way.
 */
export function recordOutcomeStatements(
  db: D1Database,
  m: DeliveryMessage,
  o: LoggedOutcome,
  subject: string | null,
): D1PreparedStatement[] {
  const counted = o.attempt ? 1 : 0;
  const upsert = db
    .prepare(
      `INSERT INTO webhook_deliveries (message_id, app_id, webhook_id, webhook_type, override_url, url, payload, status,
         attempt_count, last_status_code, last_error, last_attempt_at, next_attempt_at, created_at, updated_at, user_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16 WHERE NOT ${erasedSinceSql("?17", "?18")}
       ON CONFLICT (message_id) DO UPDATE SET
         status = CASE WHEN webhook_deliveries.status = 'succeeded' THEN 'succeeded' ELSE excluded.status END,
         attempt_count = webhook_deliveries.attempt_count + ?9,
         url = COALESCE(excluded.url, webhook_deliveries.url),
         last_status_code = CASE WHEN ?9 = 1 THEN excluded.last_status_code ELSE webhook_deliveries.last_status_code END,
         last_error = excluded.last_error,
         last_attempt_at = COALESCE(excluded.last_attempt_at, webhook_deliveries.last_attempt_at),
         next_attempt_at = excluded.next_attempt_at,
         updated_at = excluded.updated_at`,
    )
    .bind(
      m.messageId,
      Number(m.appId),
      Number(m.webhookId),
      m.webhookType,
      m.overrideUrl,
      o.attempt?.url ?? null,
      m.body,
      o.status,
      counted,
      o.attempt?.statusCode ?? null,
      o.error,
      o.attempt ? o.at : null,
      o.nextAttemptAt,
      iso(m.createdAt),
      o.at,
      m.userId ?? null,
      subject,
      m.createdAt,
    );
  if (!o.attempt) return [upsert];
  const attempt = db
    .prepare(
      `INSERT INTO webhook_attempts (delivery_id, attempt_number, attempted_at, status_code, latency_ms, error, outcome)
       SELECT delivery_id, attempt_count, ?, ?, ?, ?, ? FROM webhook_deliveries WHERE message_id = ?`,
    )
    .bind(
      o.at,
      o.attempt.statusCode,
      o.attempt.latencyMs,
      o.attempt.error,
      o.attempt.succeeded ? "succeeded" : "failed",
      m.messageId,
    );
  return [upsert, attempt];
}

/**
 * A message the queue dead-lettered after its last attempt: the delivery has failed for good (see
 * recordOutcomeStatements for `subject`).
 */
export function deadLetteredStatement(
  db: D1Database,
  m: DeliveryMessage,
  at: string,
  subject: string | null,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO webhook_deliveries (message_id, app_id, webhook_id, webhook_type, override_url, payload, status, last_error, created_at, updated_at, user_id)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6, 'failed', ?7, ?8, ?9, ?10 WHERE NOT ${erasedSinceSql("?11", "?12")}
       ON CONFLICT (message_id) DO UPDATE SET
         status = CASE WHEN webhook_deliveries.status = 'succeeded' THEN 'succeeded' ELSE 'failed' END,
         next_attempt_at = NULL,
         updated_at = excluded.updated_at`,
    )
    .bind(
      m.messageId,
      Number(m.appId),
      Number(m.webhookId),
      m.webhookType,
      m.overrideUrl,
      m.body,
      "Dead-lettered before any attempt was logged",
      iso(m.createdAt),
      at,
      m.userId ?? null,
      subject,
      m.createdAt,
    );
}

/** A delivery queued from the admin API (test call): visible in the log before the first attempt. */
export async function insertQueuedDelivery(db: D1Database, m: DeliveryMessage, at: string): Promise<DeliveryRow> {
  const row = await db
    .prepare(
      `INSERT INTO webhook_deliveries (message_id, app_id, webhook_id, webhook_type, override_url, payload, status, next_attempt_at, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, 'pending', ?, ?, ?) RETURNING *`,
    )
    .bind(
      m.messageId,
      Number(m.appId),
      Number(m.webhookId),
      m.webhookType,
      m.overrideUrl,
      m.body,
      at,
      iso(m.createdAt),
      at,
    )
    .first<DeliveryRow>();
  return row!;
}

/** Puts a finished delivery back to pending for a manual redelivery; null when it is still pending. */
export async function reopenDelivery(db: D1Database, row: DeliveryRow, at: string): Promise<DeliveryRow | null> {
  return db
    .prepare(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, updated_at = ?
       WHERE delivery_id = ? AND status <> 'pending' RETURNING *`,
    )
    .bind(at, at, row.delivery_id)
    .first<DeliveryRow>();
}

/** Undoes reopenDelivery when the message could not be queued. */
export async function restoreDelivery(db: D1Database, row: DeliveryRow): Promise<void> {
  await db
    .prepare("UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, updated_at = ? WHERE delivery_id = ?")
    .bind(row.status, row.next_attempt_at, row.updated_at, row.delivery_id)
    .run();
}

export const messageOf = (row: DeliveryRow): DeliveryMessage => ({
  messageId: row.message_id,
  appId: String(row.app_id),
  webhookId: String(row.webhook_id),
  webhookType: row.webhook_type,
  overrideUrl: row.override_url,
  body: row.payload,
  createdAt: Date.parse(row.created_at),
  userId: row.user_id,
});

export interface DeliveryFilter {
  status?: DeliveryStatus;
  webhook_id?: string;
  webhook_type?: WebhookType;
  message_id?: string;
  /** The deliveries that name this player. */
  user_id?: string;
}

export async function listDeliveries(db: D1Database, appId: number, filter: DeliveryFilter, paging: Paging) {
  const where = ["app_id = ?"];
  const args: unknown[] = [appId];
  if (filter.status) {
    where.push("status = ?");
    args.push(filter.status);
  }
  if (filter.webhook_id) {
    where.push("webhook_id = ?");
    args.push(parseId(filter.webhook_id) ?? -1);
  }
  if (filter.webhook_type) {
    where.push("webhook_type = ?");
    args.push(filter.webhook_type);
  }
  if (filter.message_id) {
    where.push("message_id = ?");
    args.push(filter.message_id);
  }
  if (filter.user_id) {
    where.push("user_id = ?");
    args.push(filter.user_id);
  }
  const clause = where.join(" AND ");
  const [rows, total] = await db.batch<DeliveryRow | { n: number }>([
    db
      .prepare(`SELECT * FROM webhook_deliveries WHERE ${clause} ORDER BY delivery_id DESC LIMIT ? OFFSET ?`)
      .bind(...args, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM webhook_deliveries WHERE ${clause}`).bind(...args),
  ]);
  return { rows: rows.results as DeliveryRow[], total: (total.results[0] as { n: number }).n };
}

export async function requireDelivery(db: D1Database, appId: number, deliveryId: string): Promise<DeliveryRow> {
  const id = parseId(deliveryId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM webhook_deliveries WHERE app_id = ? AND delivery_id = ?")
          .bind(appId, id)
          .first<DeliveryRow>();
  if (!row) throw notFound(`Webhook delivery ${deliveryId} not found`);
  return row;
}

export async function attemptsOf(db: D1Database, deliveryId: number): Promise<AttemptRow[]> {
  const rows = await db
    .prepare(
      `SELECT attempt_number, attempted_at, status_code, latency_ms, error, outcome FROM webhook_attempts
       WHERE delivery_id = ? ORDER BY attempt_number, attempt_id`,
    )
    .bind(deliveryId)
    .all<AttemptRow>();
  return rows.results;
}

export const presentDelivery = (row: DeliveryRow) => ({
  delivery_id: String(row.delivery_id),
  message_id: row.message_id,
  webhook_id: row.webhook_id === null ? null : String(row.webhook_id),
  webhook_type: row.webhook_type,
  url: row.url ?? row.override_url,
  status: row.status,
  attempt_count: row.attempt_count,
  last_status_code: row.last_status_code,
  last_error: row.last_error,
  last_attempt_at: row.last_attempt_at,
  next_attempt_at: row.next_attempt_at,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

/**
 * Erasing a player: the deliveries that name them, with their attempts (by index, never a scan of
 * the log). Pending ones are cancelled with them: the consumer sends nothing for an erased player.
 */
export const eraseDeliveriesStatements = (db: D1Database, appId: number, userId: string): D1PreparedStatement[] => [
  db
    .prepare(
      "DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT delivery_id FROM webhook_deliveries WHERE app_id = ? AND user_id = ?)",
    )
    .bind(appId, userId),
  db.prepare("DELETE FROM webhook_deliveries WHERE app_id = ? AND user_id = ?").bind(appId, userId),
];

/** Removes deliveries (and their attempts) that have not changed for the retention period. */
export async function pruneDeliveryLog(db: D1Database, now: number): Promise<void> {
  const cutoff = iso(now - DELIVERY_LOG_RETENTION_DAYS * 86_400_000);
  const stale = `SELECT delivery_id FROM webhook_deliveries WHERE updated_at < ?1 ORDER BY updated_at LIMIT ${PRUNE_BATCH}`;
  // Attempts first, in the same transaction: correct whether or not foreign keys cascade.
  await db.batch([
    db.prepare(`DELETE FROM webhook_attempts WHERE delivery_id IN (${stale})`).bind(cutoff),
    db.prepare(`DELETE FROM webhook_deliveries WHERE delivery_id IN (${stale})`).bind(cutoff),
  ]);
}
