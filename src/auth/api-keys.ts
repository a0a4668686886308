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
  /** 1: revoking the key ends the access tokens it minted. */
  end_tokens_on_revoke: number;
}

export const presentApiKey = (row: ApiKeyRow) => ({
  key_id: String(row.key_id),
  app_id: String(row.app_id),
  name: row.name,
  key_prefix: row.key_prefix,
  created_at: row.created_at,
  revoked_at: row.revoked_at,
  end_tokens_on_revoke: row.end_tokens_on_revoke === 1,
});

/** Entries about keys never hold a key, only what the list shows (its hash would be redacted anyway). */
export const apiKeyAudit = (actor: Actor, appId: number) => auditOf(actor, appId, "api-key");

export const API_KEY_COLUMNS = "key_id, app_id, name, key_prefix, created_at, revoked_at, end_tokens_on_revoke";

export interface ApiKeySettings {
  name: string;
  end_tokens_on_revoke: boolean;
}

export async function insertApiKey(
  db: D1Database,
  appId: number,
  settings: ApiKeySettings,
  nowMs: number,
  actor: Actor,
) {
  const key = generateApiKey();
  const statement = db
    .prepare(
      `INSERT INTO api_keys (app_id, name, key_hash, key_prefix, created_at, end_tokens_on_revoke) VALUES (?, ?, ?, ?, ?, ?) RETURNING ${API_KEY_COLUMNS}`,
    )
    .bind(
      appId,
      settings.name,
      await sha256Hex(key),
      key.slice(0, 8),
      toIso(nowMs),
      settings.end_tokens_on_revoke ? 1 : 0,
    );
  const audit = apiKeyAudit(actor, appId).created({ ...settings, key_prefix: key.slice(0, 8) });
  const row = await writeConfigRow<ApiKeyRow>(db, null, statement, audit);
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
