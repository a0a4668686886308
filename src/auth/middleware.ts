import type { Context, MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { notFound, unauthenticated } from "../shared/domain-errors";
import { adminTokenProblem, isDevelopment, secretNotConfigured } from "../shared/secrets";
import type { AppEnv, Caller } from "../shared/http";
import { timingSafeEqual } from "../shared/crypto";
import { findActiveKey } from "./api-keys";
import { signingKeys, signingKeysProblem } from "./signing-keys";
import { trustedAccessToken } from "./trusted-token";
import { ACTOR_HEADER, actorNameOf } from "../apps/actor";

/** The SCILL SDK tells the two apart the same way: an API key is at most 64 characters. */
const MAX_API_KEY_LENGTH = 64;

export function bearerToken(c: Context): string {
  const header = c.req.header("Authorization");
  if (!header) throw unauthenticated("Missing Authorization header");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw unauthenticated("Authorization header must be 'Bearer <credential>'");
  return match[1];
}

const looksLikeApiKey = (credential: string) => credential.length <= MAX_API_KEY_LENGTH;

/** A JWT (three base64url parts) longer than an API key can be: what an access token looks like. */
export const isAccessTokenShaped = (credential: string) =>
  !looksLikeApiKey(credential) && /^[\w-]+\.[\w-]+\.[\w-]+$/.test(credential);

async function callerFromApiKey(c: Context<AppEnv>, credential: string): Promise<Caller> {
  if (!looksLikeApiKey(credential)) throw unauthenticated("This operation requires an API key, not an access token");
  const key = await findActiveKey(c.env.DB, credential);
  if (!key) throw unauthenticated("Invalid or revoked API key");
  return { kind: "api-key", ...key };
}

async function callerFromAccessToken(c: Context<AppEnv>, credential: string): Promise<Caller> {
  if (looksLikeApiKey(credential)) throw unauthenticated("This operation requires an access token, not an API key");
  const { appId, userId, issuedAt } = await trustedAccessToken(c.env, credential, c.get("now"));
  return { kind: "access-token", appId, userId, issuedAt };
}

const withCaller = (resolve: (c: Context<AppEnv>, credential: string) => Promise<Caller>): MiddlewareHandler<AppEnv> =>
  createMiddleware<AppEnv>(async (c, next) => {
    c.set("caller", await resolve(c, bearerToken(c)));
    await next();
  });

export const requireApiKey = withCaller(callerFromApiKey);
export const requireAccessToken = withCaller(callerFromAccessToken);
/** Leaderboards and battle-pass unlock take either credential, told apart by length. */
export const requireTokenOrKey = withCaller((c, credential) =>
  looksLikeApiKey(credential) ? callerFromApiKey(c, credential) : callerFromAccessToken(c, credential),
);

/**
 * The admin API stays closed (503, naming the secret) while its token is missing or, outside
 * development, weak or published; outside development also while the signing keys are, since an
 * operator would otherwise configure a service whose tokens anyone can forge.
 */
function assertAdminConfigured(env: Env): void {
  const tokenProblem = adminTokenProblem(env);
  if (tokenProblem) throw secretNotConfigured("ADMIN_TOKEN", tokenProblem);
  const keysProblem = isDevelopment(env) ? null : signingKeysProblem(env);
  if (keysProblem) throw secretNotConfigured("JWT_SIGNING_KEYS", keysProblem);
}

export const requireAdmin = createMiddleware<AppEnv>(async (c, next) => {
  assertAdminConfigured(c.env);
  const credential = bearerToken(c);
  if (!timingSafeEqual(credential, c.env.ADMIN_TOKEN)) throw unauthenticated("Invalid admin token");
  c.set("caller", { kind: "admin", actorName: actorNameOf(c.req.header(ACTOR_HEADER)) });
  await next();
});

/**
 * For paths whose work mints access tokens inside the user's object (challenge notifications carry
 * the user's token): unusable signing keys answer 503 naming the secret here, before the work
 * starts, since an error thrown inside the object reaches the Worker without its status.
 */
export const requireSigningKeys = createMiddleware<AppEnv>(async (c, next) => {
  signingKeys(c.env);
  await next();
});

/** The app of the caller's credential. A path naming any other app is answered as unknown (404). */
export function callerApp(c: Context<AppEnv>, pathAppId?: string): string {
  const caller = c.get("caller");
  if (caller.kind === "admin") {
    if (pathAppId === undefined) throw new Error("admin caller has no app");
    return pathAppId;
  }
  if (pathAppId !== undefined && pathAppId !== caller.appId) throw notFound(`App ${pathAppId} not found`);
  return caller.appId;
}

/** The access token of a route behind requireAccessToken. */
export function callerToken(c: Context<AppEnv>): Extract<Caller, { kind: "access-token" }> {
  const caller = c.get("caller");
  if (caller.kind !== "access-token") throw new Error("route without requireAccessToken");
  return caller;
}

/** The user of an access token; with an API key the user must come from the request itself. */
export function callerUser(c: Context<AppEnv>): string | undefined {
  const caller = c.get("caller");
  return caller.kind === "access-token" ? caller.userId : undefined;
}
