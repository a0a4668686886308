import { randomToken, sha256Hex } from "../shared/crypto";
import { toIso } from "../shared/clock";
import { auditOf, type Actor } from "../apps/audit-log";
import { writeConfigRow } from "../apps/config-write";

/**
 * API keys: 43 random URL-safe characters behind a short prefix (well under the 64 characters by
 * which the SCILL SDK tells a key from an access token). Only the SHA-256 of a key is stored.
 */
const KEY_PREFIX = "gk_";

export function generateApiKey(): string {
  return KEY_PREFIX + randomToken(32);
}

export interface ApiKeyRow {
  key_id: number;
  app_id: number;
  name: string;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export const presentApiKey = (row: ApiKeyRow) => ({
  key_id: String(row.key_id),
  app_id: String(row.app_id),
  name: row.name,
  key_prefix: row.key_prefix,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
});

/**
 * Entries about keys never hold a key, only what the list shows (its hash would be redacted anyway).
 * Keys are read per request, not from the catalog cache, so their writes move no catalog version.
 */
export const apiKeyAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "api-key");

export async function insertApiKey(db: D1Database, appId: number, name: string, nowMs: number, actor: Actor) {
  const key = generateApiKey();
  const statement = db
    .prepare(
      "INSERT INTO api_keys (app_id, name, key_hash, key_prefix, created_at) VALUES (?, ?, ?, ?, ?) RETURNING key_id, app_id, name, key_prefix, created_at, revoked_at",
    )
    .bind(appId, name, await sha256Hex(key), key.slice(0, 8), toIso(nowMs));
  const row = await writeConfigRow<ApiKeyRow>(db, null, statement, apiKeyAudit(actor, appId).created({ name, key_prefix: key.slice(0, 8) }));
  return { key, row: row! };
}

/** The app of an active key, or null. One primary-key read: revocation takes effect at once. */
export async function findActiveKey(db: D1Database, key: string): Promise<{ appId: string; keyId: string } | null> {
  const row = await db
    .prepare("SELECT key_id, app_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL")
    .bind(await sha256Hex(key))
    .first<{ key_id: number; app_id: number }>();
  return row ? { appId: String(row.app_id), keyId: String(row.key_id) } : null;
}
