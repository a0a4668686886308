import type { WebhookType } from "../changes/types";
import { cachedCatalog } from "../apps/catalog-cache";
import { writeConfig, writeConfigRow } from "../apps/config-write";
import { auditOf, systemActor, type Actor } from "../apps/audit-log";
import { notFound } from "../shared/domain-errors";
import { parseId } from "../shared/ids";
import { conflictOnDuplicate, keyClash } from "../shared/statements";
import { pageOffset, type Paging } from "../shared/paging";

export interface EndpointRow {
  webhook_id: number;
  app_id: number;
  /** Chosen by the studio, else webhook-<id> (migrations/0010_catalog_keys.sql). */
  key: string;
  webhook_type: WebhookType;
  url: string;
  secret_key: string;
  disabled_at: string | null;
  disabled_reason: string | null;
  created_at: string;
  updated_at: string;
}

/** An endpoint as delivery needs it. */
export interface Endpoint {
  webhookId: string;
  webhookType: WebhookType;
  url: string;
  secret: string;
  enabled: boolean;
}

export interface EndpointInput {
  /** Left out: webhook-<id> on create, unchanged on replace. */
  key?: string;
  webhook_type: WebhookType;
  url: string;
  secret_key: string;
}

const toEndpoint = (row: EndpointRow): Endpoint => ({
  webhookId: String(row.webhook_id),
  webhookType: row.webhook_type,
  url: row.url,
  secret: row.secret_key,
  enabled: row.disabled_at === null,
});

export const presentEndpoint = (row: EndpointRow) => ({
  webhook_id: String(row.webhook_id),
  app_id: String(row.app_id),
  key: row.key,
  webhook_type: row.webhook_type,
  url: row.url,
  secret_key: row.secret_key,
  enabled: row.disabled_at === null,
  disabled_at: row.disabled_at,
  disabled_reason: row.disabled_reason,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

async function loadEndpoints(db: D1Database, appId: string): Promise<Endpoint[]> {
  const rows = await db
    .prepare("SELECT * FROM webhooks WHERE app_id = ? ORDER BY webhook_id")
    .bind(Number(appId))
    .all<EndpointRow>();
  return rows.results.map(toEndpoint);
}

/** The app's endpoints from the catalog cache: no D1 read per change while they are unchanged. */
export const appEndpoints = (db: D1Database, appId: string) => cachedCatalog(db, "webhooks", appId, loadEndpoints);

/**
 * One endpoint for delivery. Another isolate may have created it within the cache's revalidation
 * window, so a miss is confirmed in D1 before the endpoint counts as deleted.
 */
export async function endpointForDelivery(db: D1Database, appId: string, webhookId: string): Promise<Endpoint | null> {
  const cached = (await appEndpoints(db, appId)).find((e) => e.webhookId === webhookId);
  if (cached) return cached;
  const row = await db
    .prepare("SELECT * FROM webhooks WHERE app_id = ? AND webhook_id = ?")
    .bind(Number(appId), Number(webhookId))
    .first<EndpointRow>();
  return row ? toEndpoint(row) : null;
}

/**
 * A page of an app's endpoints by id, of one type or of all (`type` null); `search` (the console's) matches a part of
 * the URL.
 */
export async function listEndpoints(
  db: D1Database,
  appId: number,
  type: WebhookType | null,
  paging: Paging,
  search = "",
) {
  const where = "app_id = ?1 AND (?2 IS NULL OR webhook_type = ?2) AND (?3 = '' OR instr(lower(url), lower(?3)) > 0)";
  const [rows, total] = await db.batch<EndpointRow | { n: number }>([
    db
      .prepare(`SELECT * FROM webhooks WHERE ${where} ORDER BY webhook_id LIMIT ?4 OFFSET ?5`)
      .bind(appId, type, search, paging.pageSize, pageOffset(paging)),
    db.prepare(`SELECT COUNT(*) AS n FROM webhooks WHERE ${where}`).bind(appId, type, search),
  ]);
  return { rows: rows.results as EndpointRow[], total: (total.results[0] as { n: number }).n };
}

export async function requireEndpoint(db: D1Database, appId: number, webhookId: string): Promise<EndpointRow> {
  const id = parseId(webhookId);
  const row =
    id === null
      ? null
      : await db
          .prepare("SELECT * FROM webhooks WHERE app_id = ? AND webhook_id = ?")
          .bind(appId, id)
          .first<EndpointRow>();
  if (!row) throw notFound(`Webhook ${webhookId} not found`);
  return row;
}

/** The endpoint's insert; catalog documents (src/catalog) build theirs with it too. */
export function insertEndpointStatement(
  db: D1Database,
  appId: number,
  input: EndpointInput,
  nowIso: string,
): D1PreparedStatement {
  return db
    .prepare(
      "INSERT INTO webhooks (app_id, chosen_key, webhook_type, url, secret_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
    )
    .bind(appId, input.key ?? null, input.webhook_type, input.url, input.secret_key, nowIso, nowIso);
}

/**
 * Replaces the endpoint's settings (a key left out keeps the current one); this also re-enables an endpoint disabled by
 * a 410.
 */
export function replaceEndpointStatement(
  db: D1Database,
  webhookId: number,
  input: EndpointInput,
  nowIso: string,
): D1PreparedStatement {
  return db
    .prepare(
      `UPDATE webhooks SET chosen_key = COALESCE(?, chosen_key), webhook_type = ?, url = ?, secret_key = ?, disabled_at = NULL,
         disabled_reason = NULL, updated_at = ?
       WHERE webhook_id = ? RETURNING *`,
    )
    .bind(input.key ?? null, input.webhook_type, input.url, input.secret_key, nowIso, webhookId);
}

export function deleteEndpointStatement(db: D1Database, webhookId: number): D1PreparedStatement {
  return db.prepare("DELETE FROM webhooks WHERE webhook_id = ?").bind(webhookId);
}

/** Entries about endpoints: their secret is redacted by the log (src/apps/core/audit-values.ts). */
const endpointAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "webhook");

export async function insertEndpoint(
  db: D1Database,
  appId: number,
  input: EndpointInput,
  nowIso: string,
  actor: Actor,
): Promise<EndpointRow> {
  const statement = insertEndpointStatement(db, appId, input, nowIso);
  const audit = endpointAudit(actor, appId).created(input);
  return (await conflictOnDuplicate(keyClash("webhook", input.key), () =>
    writeConfigRow<EndpointRow>(db, appId, statement, audit),
  ))!;
}

export async function replaceEndpoint(
  db: D1Database,
  row: EndpointRow,
  input: EndpointInput,
  nowIso: string,
  actor: Actor,
): Promise<EndpointRow> {
  const statement = replaceEndpointStatement(db, row.webhook_id, input, nowIso);
  const audit = endpointAudit(actor, row.app_id).updated(row.webhook_id, presentEndpoint(row), input);
  return (await conflictOnDuplicate(keyClash("webhook", input.key), () =>
    writeConfigRow<EndpointRow>(db, row.app_id, statement, audit),
  ))!;
}

export async function deleteEndpoint(db: D1Database, row: EndpointRow, actor: Actor): Promise<void> {
  const audit = endpointAudit(actor, row.app_id).deleted(row.webhook_id, presentEndpoint(row));
  await writeConfig(db, row.app_id, [deleteEndpointStatement(db, row.webhook_id)], [audit]);
}

/**
 * The statement that stops all further calls to an endpoint whose receiver answered 410 Gone (run it with writeConfig
 * and `disabledEntry`).
 */
export function disableEndpointStatement(
  db: D1Database,
  webhookId: string,
  reason: string,
  nowIso: string,
): D1PreparedStatement {
  return db
    .prepare(
      "UPDATE webhooks SET disabled_at = COALESCE(disabled_at, ?), disabled_reason = ?, updated_at = ? WHERE webhook_id = ?",
    )
    .bind(nowIso, reason, nowIso, Number(webhookId));
}

/** The audit entry of an endpoint the delivery consumer disabled. */
export const disabledEntry = (appId: string, webhookId: string, reason: string) =>
  auditOf(systemActor("webhook delivery"), appId, "webhook").updated(
    webhookId,
    { enabled: true },
    { enabled: false, disabled_reason: reason },
    "disable",
  );
