import { ApiError } from "../shared/errors";

/**
 * How intake answers an event past a rate limit (docs/fair-play.md): 429 with Retry-After,
 * `retry_after_seconds` in the body, and the IETF RateLimit / RateLimit-Policy fields
 * (draft-ietf-httpapi-ratelimit-headers) naming the policy, its quota (events) and window.
 */
export type RatePolicy = "per-user" | "per-app";

export interface RateRefusal {
  policy: RatePolicy;
  /** The policy's quota: events in any 60 seconds. */
  limit: number;
  /** ms until one more event would be accepted. */
  retryAfterMs: number;
}

const SETTING: Record<RatePolicy, string> = { "per-user": "per_user_per_minute", "per-app": "per_app_per_minute" };

export const retryAfterSeconds = (refusal: RateRefusal) => Math.max(1, Math.ceil(refusal.retryAfterMs / 1000));

export function refusalMessage(refusal: RateRefusal, userId: string): string {
  const who = refusal.policy === "per-user" ? `player ${userId}` : "this app";
  return `Too many events: ${who} may send ${refusal.limit} a minute (rate_limits.${SETTING[refusal.policy]}); try again in ${retryAfterSeconds(refusal)} s`;
}

export function rateLimitHeaders(refusal: RateRefusal): Record<string, string> {
  const seconds = retryAfterSeconds(refusal);
  return {
    "Retry-After": String(seconds),
    "RateLimit-Policy": `"${refusal.policy}";q=${refusal.limit};w=60`,
    RateLimit: `"${refusal.policy}";r=0;t=${seconds}`,
  };
}

export const rateLimited = (refusal: RateRefusal, userId: string) =>
  new ApiError(429, refusalMessage(refusal, userId), undefined, rateLimitHeaders(refusal), {
    retry_after_seconds: retryAfterSeconds(refusal),
  });

/** The response headers a browser game may read: these and the request id. */
export const RATE_LIMIT_HEADERS = ["Retry-After", "RateLimit", "RateLimit-Policy"];

/**
 * Players this isolate has seen refused by their object, until the instant one more event of
 * theirs fits: refused again without a call to the object. Exact, because nothing the object
 * counts can leave its window before that instant; an app's new limit is a new key.
 */
const known = new Map<string, { until: number; limit: number }>();
const KNOWN_MAX = 10_000;
const keyOf = (appId: string, userId: string) => `${appId}\u0000${userId}`;

export function knownRefusal(appId: string, userId: string, now: number, limit: number): RateRefusal | null {
  const entry = known.get(keyOf(appId, userId));
  if (!entry || entry.limit !== limit || entry.until <= now) return null;
  return { policy: "per-user", limit, retryAfterMs: entry.until - now };
}

export function rememberRefusal(appId: string, userId: string, now: number, refusal: RateRefusal): void {
  if (known.size >= KNOWN_MAX) known.clear();
  known.set(keyOf(appId, userId), { until: now + refusal.retryAfterMs, limit: refusal.limit });
}
