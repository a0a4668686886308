/**
 * When a failed delivery is tried again. Attempt n (1-based) failed → wait base·2^(n−1), at most
 * 720 bases (12 h with the production base of 60 s, the longest delay Cloudflare Queues accept).
 * With 21 attempts (max_retries = 20 of the webhooks consumer in wrangler.toml) the retries span
 * about 5.7 days, beyond the 3 days promised. WEBHOOK_RETRY_BASE_SECONDS scales the whole
 * schedule so tests can run it in seconds (0: retry at once).
 */
export const MAX_QUEUE_DELAY_SECONDS = 12 * 60 * 60;
export const DEFAULT_RETRY_BASE_SECONDS = 60;
/** Attempts before the queue dead-letters a message: max_retries + 1; keep in step with wrangler.toml. */
export const WEBHOOK_MAX_ATTEMPTS = 21;
const MAX_BACKOFF_IN_BASES = 720;

/** The configured base; anything unreadable or negative falls back to the production value. */
export function retryBaseSeconds(value: string | undefined): number {
  if (value === undefined || value.trim() === "") return DEFAULT_RETRY_BASE_SECONDS;
  const base = Number(value);
  return Number.isFinite(base) && base >= 0 ? base : DEFAULT_RETRY_BASE_SECONDS;
}

/** Whole seconds to wait after attempt `attempt` failed. */
export function backoffSeconds(attempt: number, baseSeconds: number): number {
  const exponential = baseSeconds * 2 ** Math.min(Math.max(attempt, 1) - 1, 30);
  return Math.round(Math.min(exponential, baseSeconds * MAX_BACKOFF_IN_BASES, MAX_QUEUE_DELAY_SECONDS));
}

/** The backoff, lengthened (never shortened) by the receiver's Retry-After, within the queue's limit. */
export function retryDelaySeconds(attempt: number, baseSeconds: number, retryAfterSeconds: number | null): number {
  return Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(backoffSeconds(attempt, baseSeconds), retryAfterSeconds ?? 0));
}

/** Seconds from the first to the last attempt when every attempt fails without Retry-After. */
export function retrySpanSeconds(baseSeconds: number, attempts = WEBHOOK_MAX_ATTEMPTS): number {
  let total = 0;
  for (let attempt = 1; attempt < attempts; attempt++) total += backoffSeconds(attempt, baseSeconds);
  return total;
}

/** Retry-After as delta-seconds or an HTTP date (relative to `nowMs`); null when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+$/.test(text)) return Math.min(Number(text), MAX_QUEUE_DELAY_SECONDS);
  // An HTTP date always names a weekday or month; this keeps numbers such as "-5" from parsing as years.
  const at = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(at)) return null;
  return Math.min(Math.max(0, Math.ceil((at - nowMs) / 1000)), MAX_QUEUE_DELAY_SECONDS);
}
