import { notFound } from "../../shared/errors";
import { parseId } from "../../shared/ids";
import { pageOffset, type Paging } from "../../shared/paging";
import type { ApiKeyRow } from "../../auth/api-keys";

/** D1 reads and writes of an app's API keys (their metadata; a key itself is never stored). */

const COLUMNS = "key_id, app_id, name, key_prefix, created_at, revoked_at";

export async function requireKey(db: D1Database, appId: number, keyId: string): Promise<ApiKeyRow> {
  const id = parseId(keyId);
  const row = id === null ? null : await db
    .prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? AND key_id = ?`)
    .bind(appId, id)
    .first<ApiKeyRow>();
  if (!row) throw notFound(`API key ${keyId} not found`);
  return row;
}

export async function listKeys(db: D1Database, appId: number, paging: Paging) {
  const [rows, total] = await db.batch<ApiKeyRow | { n: number }>([
    db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? ORDER BY key_id LIMIT ? OFFSET ?`).bind(appId, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as ApiKeyRow[], total: (total.results[0] as { n: number }).n };
}

export async function renameKey(db: D1Database, key: ApiKeyRow, name: string): Promise<ApiKeyRow> {
  const row = await db.prepare(`UPDATE api_keys SET name = ? WHERE key_id = ? RETURNING ${COLUMNS}`).bind(name, key.key_id).first<ApiKeyRow>();
  return row!;
}

/** Revoking twice keeps the first revocation time. */
export async function revokeKey(db: D1Database, key: ApiKeyRow, nowIso: string): Promise<ApiKeyRow> {
  const row = await db
    .prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ? RETURNING ${COLUMNS}`)
    .bind(nowIso, key.key_id)
    .first<ApiKeyRow>();
  return row!;
}
