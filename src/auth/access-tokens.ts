import { SignJWT, decodeProtectedHeader, jwtVerify, errors as joseErrors } from "jose";
import { unauthenticated } from "../shared/domain-errors";
import { signingKeys } from "./signing-keys";
import { erasedAt, erasedSince, tokenIssuedAt } from "../apps/erasure-tombstones";

type TokenEnv = Pick<Env, "JWT_SIGNING_KEYS" | "JWT_ISSUER" | "JWT_AUDIENCE" | "ACCESS_TOKEN_TTL_SECONDS"> & {
  ENVIRONMENT?: string;
};

export interface AccessTokenClaims {
  appId: string;
  userId: string;
  /**
   * The API key that minted the token (claim `key_id`): revoking that key ends the token. Tokens the
   * service mints itself (the `user_token` of webhook payloads) have none.
   */
  keyId?: string;
}

export interface VerifiedClaims extends AccessTokenClaims {
  /** `iat`, in seconds (0 for a token without one: such a token is older than any erasure). */
  issuedAt: number;
}

/** HS256, pinned: verification accepts no other algorithm, so `alg: none` and RS/HS confusion fail. */
const ALGORITHM = "HS256";

export async function mintAccessToken(env: TokenEnv, claims: AccessTokenClaims, nowMs: number): Promise<string> {
  const [current] = signingKeys(env);
  const issuedAt = Math.floor(nowMs / 1000);
  return new SignJWT(
    claims.keyId === undefined ? { app_id: claims.appId } : { app_id: claims.appId, key_id: claims.keyId },
  )
    .setProtectedHeader({ alg: ALGORITHM, kid: current.kid, typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuer(env.JWT_ISSUER)
    .setAudience(env.JWT_AUDIENCE)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + Number(env.ACCESS_TOKEN_TTL_SECONDS))
    .sign(current.key);
}

function headerAlgorithm(token: string): unknown {
  try {
    return decodeProtectedHeader(token).alg;
  } catch {
    return undefined; // not a JWS at all
  }
}

export async function verifyAccessToken(env: TokenEnv, token: string, nowMs: number): Promise<VerifiedClaims> {
  const keys = signingKeys(env);
  try {
    // Checked before jwtVerify too, so a foreign algorithm is refused without touching any key.
    if (headerAlgorithm(token) !== ALGORITHM) throw unauthenticated("Access token is invalid");
    const { payload } = await jwtVerify(
      token,
      async (header) => {
        const match = keys.find((k) => k.kid === header.kid);
        if (!match) throw unauthenticated("Access token is signed with an unknown key");
        return match.key;
      },
      {
        algorithms: [ALGORITHM],
        issuer: env.JWT_ISSUER,
        audience: env.JWT_AUDIENCE,
        currentDate: new Date(nowMs),
        requiredClaims: ["sub", "exp"],
      },
    );
    if (typeof payload.app_id !== "string" || typeof payload.sub !== "string" || payload.sub === "") {
      throw unauthenticated("Access token lacks its app or user");
    }
    const keyId = typeof payload.key_id === "string" ? { keyId: payload.key_id } : {};
    return {
      appId: payload.app_id,
      userId: payload.sub,
      issuedAt: typeof payload.iat === "number" ? payload.iat : 0,
      ...keyId,
    };
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw unauthenticated("Access token has expired");
    if (err instanceof joseErrors.JOSEError) throw unauthenticated("Access token is invalid");
    throw err;
  }
}

/**
 * What every check of a player's credential accepts (API routes, MQTT): a valid token, not issued
 * before that player's data was erased (src/apps/erasure-tombstones.ts). Erasure refuses every
 * token minted before it; a new token works at once.
 */
export async function verifyPlayerToken(
  env: TokenEnv & Pick<Env, "DB" | "TOPIC_SECRET">,
  token: string,
  nowMs: number,
): Promise<VerifiedClaims> {
  const claims = await verifyAccessToken(env, token, nowMs);
  if (erasedSince(await erasedAt(env, claims.appId, claims.userId), tokenIssuedAt(claims.issuedAt)))
    throw erasedMeanwhile();
  return claims;
}

/** The 401 of a token older than its player's erasure. */
export const erasedMeanwhile = () =>
  unauthenticated("Access token was issued before this player's data was erased; mint a new one");
