import { cachedCatalog } from "../apps/catalog-cache";
import {
  backendOnlyEventsOf,
  DEFAULT_RATE_LIMITS,
  rateLimitsOf,
  type AppSettingsColumns,
  type RateLimits,
} from "../apps/settings";
import { banOf, bannedError, isInForce, type BanRow, type PlayerBan } from "./bans";

/**
 * What every credential check of an app needs, from the per-isolate catalog cache so that no
 * request pays a D1 read for it: whether the app still exists, the keys whose tokens ended with
 * their revocation, the banned players, and the app's fair-play settings. Deleting an app,
 * revoking a key and banning move the app's catalog version (src/apps/config-write.ts): this
 * isolate sees it at once, the others within a second.
 */
export interface AppTrust {
  exists: boolean;
  /** Revoked keys with end_tokens_on_revoke: the access tokens they minted are refused. */
  endedKeys: ReadonlySet<string>;
  bans: ReadonlyMap<string, PlayerBan>;
  backendOnlyEvents: ReadonlySet<string>;
  rateLimits: RateLimits;
}

async function load(db: D1Database, appId: string): Promise<AppTrust> {
  const id = Number(appId);
  const [app, keys, bans] = await db.batch<unknown>([
    db
      .prepare(
        "SELECT backend_only_events, rate_limit_per_user_per_minute, rate_limit_per_app_per_minute FROM apps WHERE app_id = ?",
      )
      .bind(id),
    db
      .prepare("SELECT key_id FROM api_keys WHERE app_id = ? AND revoked_at IS NOT NULL AND end_tokens_on_revoke = 1")
      .bind(id),
    db.prepare("SELECT * FROM player_bans WHERE app_id = ?").bind(id),
  ]);
  const settings = app.results[0] as AppSettingsColumns | undefined;
  return {
    exists: settings !== undefined,
    endedKeys: new Set((keys.results as { key_id: number }[]).map((k) => String(k.key_id))),
    bans: new Map((bans.results as BanRow[]).map((row) => [row.user_id, banOf(row)])),
    backendOnlyEvents: new Set(settings ? backendOnlyEventsOf(settings) : []),
    rateLimits: settings ? rateLimitsOf(settings) : DEFAULT_RATE_LIMITS,
  };
}

export const appTrust = (db: D1Database, appId: string) => cachedCatalog(db, "trust", appId, load);

/** The player's ban when it refuses them at `now`, else null. */
export function banInForce(trust: AppTrust, userId: string, now: number): PlayerBan | null {
  const ban = trust.bans.get(userId);
  return ban && isInForce(ban, now) ? ban : null;
}

/** 403 naming the reason and the expiry while the player is banned. */
export function refuseBanned(trust: AppTrust, userId: string, now: number): void {
  const ban = banInForce(trust, userId, now);
  if (ban) throw bannedError(userId, ban);
}
