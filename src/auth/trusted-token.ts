import { unauthenticated } from "../shared/domain-errors";
import { verifyPlayerToken, type VerifiedClaims } from "./access-tokens";
import { appTrust, refuseBanned } from "./trust";

type TrustedTokenEnv = Parameters<typeof verifyPlayerToken>[0];

/**
 * An access token the service still honours: signed by us, not expired and not older than its
 * player's erasure (access-tokens.ts), of
 * an app that still exists (401), not minted by a key revoked with its tokens (401), and not of a
 * banned player (403, naming the reason and the expiry). Every path that takes an access token
 * checks it here: REST (src/auth/middleware.ts) and MQTT. The app's trust is cached.
 */
export async function trustedAccessToken(env: TrustedTokenEnv, token: string, now: number): Promise<VerifiedClaims> {
  const claims = await verifyPlayerToken(env, token, now);
  const trust = await appTrust(env.DB, claims.appId);
  if (!trust.exists) throw unauthenticated("Access token of an app that no longer exists");
  if (claims.keyId !== undefined && trust.endedKeys.has(claims.keyId)) {
    throw unauthenticated("Access token minted by an API key that has been revoked");
  }
  refuseBanned(trust, claims.userId, now);
  return claims;
}
