import { withSecretKey } from "../rules/webhook-url";
import { webhookSignature } from "./core/signing";

/** A receiver that has not answered within this time has failed the attempt. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of a failing receiver's answer the log keeps. */
const MAX_ERROR_BODY_CHARS = 200;

export interface AttemptResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  retryAfter: string | null;
}

/**
 * One HTTP call. Timestamps and latency use the wall clock, not the service clock: receivers
 * check `webhook-timestamp` against their real clock (Standard Webhooks allows five minutes).
 * Redirects are not followed: a 3xx is a failed attempt, as the body must not go elsewhere.
 */
export async function attemptDelivery(
  url: string,
  secret: string,
  messageId: string,
  body: string,
): Promise<AttemptResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  const headers = {
    "content-type": "application/json",
    "user-agent": "open-gamification-webhooks/1",
    "webhook-id": messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await webhookSignature(secret, messageId, timestamp, body),
  };
  const started = Date.now();
  try {
    const response = await fetch(withSecretKey(url, secret), {
      method: "POST",
      headers,
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const latencyMs = Date.now() - started;
    const ok = response.status >= 200 && response.status < 300;
    const error = ok ? null : `HTTP ${response.status}${await bodySnippet(response)}`;
    if (ok) await response.body?.cancel();
    return { statusCode: response.status, latencyMs, error, retryAfter: response.headers.get("retry-after") };
  } catch (err) {
    const latencyMs = Date.now() - started;
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    const error = timedOut
      ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
      : `Request failed: ${err instanceof Error ? err.message : String(err)}`;
    return { statusCode: null, latencyMs, error, retryAfter: null };
  }
}

/** The start of a failing answer, for the log; never more than one small read. */
async function bodySnippet(response: Response): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  try {
    const { value } = await reader.read();
    const text = value ? new TextDecoder().decode(value).slice(0, MAX_ERROR_BODY_CHARS).trim() : "";
    return text ? `: ${text}` : "";
  } catch {
    return "";
  } finally {
    await reader.cancel().catch(() => {});
  }
}
