import { toHex } from "../shared/crypto";
import { topicSecret } from "../shared/secrets";
import { cachedCatalog } from "./catalog-cache";

/**
 * Erased players (migrations/0012_privacy.sql; erasure itself is in src/players): one tombstone per erased (app, user),
 * keyed by an HMAC of the pair, never the user id. Everything that could bring an erased player
 * back checks it: access tokens minted before the erasure are refused, and queue consumers and
 * writers skip what was received before it. Kept as long as Cloudflare keeps backups, so that a
 * restore can be purged again.
 */

const DAY_MS = 86_400_000;
/** D1 Time Travel and Durable Object point-in-time recovery reach 30 days back; a margin on top. */
export const TOMBSTONE_RETENTION_MS = 35 * DAY_MS;

/** Tombstones must also outlive every token they refuse. */
export const tombstoneRetentionMs = (env: Pick<Env, "ACCESS_TOKEN_TTL_SECONDS">) =>
  Math.max(TOMBSTONE_RETENTION_MS, Number(env.ACCESS_TOKEN_TTL_SECONDS) * 1000 + DAY_MS);

/**
 * The subject key is derived from TOPIC_SECRET for this one purpose: rotating that secret makes live tombstones
 * unrecognisable.
 */
const KEY_LABEL = "open-gamification erasure subject v1";
const keys = new Map<string, Promise<CryptoKey>>();
const encoder = new TextEncoder();

function subjectKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = (async () => {
      const root = await crypto.subtle.importKey(
        "raw",
        encoder.encode(secret),
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const derived = await crypto.subtle.sign("HMAC", root, encoder.encode(KEY_LABEL));
      return crypto.subtle.importKey("raw", derived, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    })();
    keys.set(secret, key);
  }
  return key;
}

/** The HMAC of (app, user): 64 hex characters that name the player without their id. */
export async function erasureSubject(
  env: Pick<Env, "TOPIC_SECRET">,
  appId: string | number,
  userId: string,
): Promise<string> {
  const key = await subjectKey(topicSecret(env));
  return toHex(await crypto.subtle.sign("HMAC", key, encoder.encode(`${appId}\u0000${userId}`)));
}

/**
 * The app's tombstones, subject → erased_at, from the per-isolate catalog cache (a request moves the app's catalog
 * version).
 */
function appTombstones(db: D1Database, appId: string): Promise<Map<string, number>> {
  return cachedCatalog(db, "erasure-tombstones", appId, async (database, id) => {
    const rows = await database
      .prepare("SELECT subject, erased_at FROM erasure_tombstones WHERE app_id = ?")
      .bind(Number(id))
      .all<{ subject: string; erased_at: number }>();
    return new Map(rows.results.map((r) => [r.subject, r.erased_at]));
  });
}

/**
 * When the player was erased (service time, ms), or null: one HMAC only in an app with erasures, one cached read per
 * second.
 */
export async function erasedAt(
  env: Pick<Env, "DB" | "TOPIC_SECRET">,
  appId: string,
  userId: string,
): Promise<number | null> {
  const tombstones = await appTombstones(env.DB, appId);
  if (tombstones.size === 0) return null;
  return tombstones.get(await erasureSubject(env, appId, userId)) ?? null;
}

/** The player's subject and erasure time, for a writer that also guards its statement (ERASED_SINCE_SQL). */
export async function playerTombstone(env: Pick<Env, "DB" | "TOPIC_SECRET">, appId: string, userId: string) {
  const [subject, tombstones] = await Promise.all([erasureSubject(env, appId, userId), appTombstones(env.DB, appId)]);
  return { subject, erasedAt: tombstones.get(subject) ?? null };
}

/**
 * Whatever happened before a player's erasure (an event received, a change made, a token issued)
 * belongs to the erased player and must not come back; what happened after belongs to a new one.
 */
export const erasedSince = (erasedAtMs: number | null, at: number) => erasedAtMs !== null && erasedAtMs > at;

/**
 * The same test inside a writer's statement, on SQL expressions of the player's subject and the time (ms) of what it
 * writes.
 */
export const erasedSinceSql = (subject: string, at: string) =>
  `EXISTS (SELECT 1 FROM erasure_tombstones WHERE subject = ${subject} AND erased_at > ${at})`;

/**
 * When a token counts as issued: `iat` has whole seconds, so the last millisecond of that second.
 * A token minted in the same second as an erasure, before it, thus still works (minted after the
 * request, it was only ever good for the new player).
 */
export const tokenIssuedAt = (iatSeconds: number) => iatSeconds * 1000 + 999;

/**
 * Records (or moves forward) the tombstone of a player. A second erasure of the same id moves
 * `erased_at` to its own time: a player who came back is refused again from then on.
 */
export function tombstoneStatement(
  db: D1Database,
  appId: string | number,
  subject: string,
  erasedAtMs: number,
  expiresAt: number,
): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO erasure_tombstones (subject, app_id, erased_at, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (subject) DO UPDATE SET erased_at = MAX(erased_at, excluded.erased_at), expires_at = MAX(expires_at, excluded.expires_at)`,
    )
    .bind(subject, Number(appId), erasedAtMs, expiresAt);
}

/** Drops tombstones past their retention (the cron). */
export async function pruneTombstones(db: D1Database, now: number): Promise<void> {
  await db.prepare("DELETE FROM erasure_tombstones WHERE expires_at < ?").bind(now).run();
}
