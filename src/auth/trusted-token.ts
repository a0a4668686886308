import { unauthorized } from "../shared/errors";
import { verifyAccessToken, type AccessTokenClaims } from "./access-tokens";
import { appTrust, refuseBanned } from "./trust";

type TrustedTokenEnv = Parameters<typeof verifyAccessToken>[0] & Pick<Env, "DB">;

/**
 * An access token the service still honours: signed by us and not expired (access-tokens.ts), of
 * an app that still exists (401), not minted by a key revoked with its tokens (401), and not of a
 * banned player (403, naming the reason and the expiry). Every path that takes an access token
 * checks it here: REST (src/auth/middleware.ts) and MQTT. No D1 read: the app's trust is cached.
 */
export async function trustedAccessToken(env: TrustedTokenEnv, token: string, now: number): Promise<AccessTokenClaims> {
  const claims = await verifyAccessToken(env, token, now);
  const trust = await appTrust(env.DB, claims.appId);
  if (!trust.exists) throw unauthorized("Access token of an app that no longer exists");
  if (claims.keyId !== undefined && trust.endedKeys.has(claims.keyId)) {
    throw unauthorized("Access token minted by an API key that has been revoked");
  }
  refuseBanned(trust, claims.userId, now);
  return claims;
}
