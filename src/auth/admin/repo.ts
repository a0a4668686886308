import { notFound } from "../../shared/errors";
import { parseId } from "../../shared/ids";
import { pageOffset, type Paging } from "../../shared/paging";
import { apiKeyAudit, presentApiKey, type ApiKeyRow } from "../api-keys";
import type { Actor } from "../../apps/audit-log";
import { writeConfigRow } from "../../apps/config-write";

/** D1 reads and writes of the admin API for API keys (creating one is in ../api-keys.ts, with the key itself). */

const COLUMNS = "key_id, app_id, name, key_prefix, created_at, revoked_at";

export async function requireApiKey(db: D1Database, appId: number, keyId: string): Promise<ApiKeyRow> {
  const id = parseId(keyId);
  const row = id === null ? null : await db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? AND key_id = ?`).bind(appId, id).first<ApiKeyRow>();
  if (!row) throw notFound(`API key ${keyId} not found`);
  return row;
}

export async function listApiKeys(db: D1Database, appId: number, paging: Paging): Promise<{ rows: ApiKeyRow[]; total: number }> {
  const [rows, total] = await db.batch<ApiKeyRow | { n: number }>([
    db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE app_id = ? ORDER BY key_id LIMIT ? OFFSET ?`).bind(appId, paging.pageSize, pageOffset(paging)),
    db.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE app_id = ?").bind(appId),
  ]);
  return { rows: rows.results as ApiKeyRow[], total: (total.results[0] as { n: number }).n };
}

export async function renameApiKey(db: D1Database, key: ApiKeyRow, name: string, actor: Actor): Promise<ApiKeyRow> {
  const statement = db.prepare(`UPDATE api_keys SET name = ? WHERE key_id = ? RETURNING ${COLUMNS}`).bind(name, key.key_id);
  const audit = apiKeyAudit(actor, key.app_id).updated(key.key_id, presentApiKey(key), { name });
  return (await writeConfigRow<ApiKeyRow>(db, null, statement, audit))!;
}

/** Revoking twice keeps the first time. */
export async function revokeApiKey(db: D1Database, key: ApiKeyRow, nowIso: string, actor: Actor): Promise<ApiKeyRow> {
  const statement = db
    .prepare(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE key_id = ? RETURNING ${COLUMNS}`)
    .bind(nowIso, key.key_id);
  const audit = apiKeyAudit(actor, key.app_id).updated(key.key_id, presentApiKey(key), { revoked_at: key.revoked_at ?? nowIso }, "revoke");
  return (await writeConfigRow<ApiKeyRow>(db, null, statement, audit))!;
}
