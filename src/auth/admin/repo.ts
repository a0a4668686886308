import { notFound } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { pageOffset, type Paging } from "../../shared/paging";
import type { Actor } from "../../apps/audit-log";
import { writeConfigRow } from "../../apps/config-write";
import {
  API_KEY_COLUMNS as COLUMNS,
  apiKeyAudit,
  presentApiKey,
  type ApiKeyRow,
  type ApiKeySettings,
} from "../api-keys";

/**
 * D1 reads and writes of the admin API for API keys (creating one is in ../api-keys.ts, with the
 * key itself). Revoking a key and changing whether that ends its tokens move the app's catalog
 * version: every isolate checks tokens against its cached list of revoked keys (../trust.ts).
 */

export async function requireApiKey(db: D1Database, appId: number, keyId: string): Promise<ApiKeyRow> {
  const id = parseId(keyId);
  const row =
    id === null
      ? null
      : await db
          .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? AND key_id = ?`)
          .bind(appId, id)
          .first<ApiKeyRow>();
  if (!row) throw notFound(`API key ${keyId} not found`);
  return row;
}

export async function listApiKeys(
  db: D1Database,
  appId: number,
  paging: Paging,
): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const [rows, total] = await db.batch<ApiKeyRow | { n: number }>([
    db
      .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? ORDER BY key_id LIMIT ? OFFSET ?`)
      .bind(appId, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as ApiKeyRow[], total: (total.results[0] as { n: number }).n };
}

export async function updateApiKey(
  db: D1Database,
  key: ApiKeyRow,
  settings: ApiKeySettings,
  actor: Actor,
): Promise<ApiKeyRow> {
  const statement = db
    .prepare(`UPDATE api_keys SET name = ?, end_tokens_on_revoke = ? WHERE key_id = ? RETURNING ${COLUMNS}`)
    .bind(settings.name, settings.end_tokens_on_revoke ? 1 : 0, key.key_id);
  const audit = apiKeyAudit(actor, key.app_id).updated(key.key_id, presentApiKey(key), settings);
  return (await writeConfigRow<ApiKeyRow>(db, key.app_id, statement, audit))!;
}

/** Revoking twice keeps the first time. */
export async function revokeApiKey(db: D1Database, key: ApiKeyRow, nowIso: string, actor: Actor): Promise<ApiKeyRow> {
  const statement = db
    .prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ? RETURNING ${COLUMNS}`)
    .bind(nowIso, key.key_id);
  const audit = apiKeyAudit(actor, key.app_id).updated(
    key.key_id,
    presentApiKey(key),
    { revoked_at: key.revoked_at ?? nowIso },
    "revoke",
  );
  return (await writeConfigRow<ApiKeyRow>(db, key.app_id, statement, audit))!;
}
