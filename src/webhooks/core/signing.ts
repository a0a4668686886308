import { hmacSha256 } from "../../shared/crypto";

/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): `webhook-signature` is
 * `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`. The key is the
 * endpoint's secret_key: a secret in the standard's `whsec_<base64>` form is base64-decoded (any
 * Standard Webhooks library verifies it as is); any other secret is used as its ASCII bytes
 * (libraries call this the "raw" format, e.g. `new Webhook(secret, { format: "raw" })`).
 */
export const SECRET_PREFIX = "whsec_";
const MIN_SECRET_LENGTH = 8;
const MAX_SECRET_LENGTH = 256;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** Why a secret cannot be used, or null. Printable ASCII only: it travels in a URL and keys an HMAC. */
export function secretProblem(secret: string): string | null {
  if (secret.length < MIN_SECRET_LENGTH || secret.length > MAX_SECRET_LENGTH) {
    return `must be ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters`;
  }
  if (!/^[\x21-\x7e]+$/.test(secret)) return "must be printable ASCII without spaces";
  if (secret.startsWith(SECRET_PREFIX)) {
    const encoded = secret.slice(SECRET_PREFIX.length);
    if (!BASE64.test(encoded)) return `after ${SECRET_PREFIX} must be standard base64`;
    const bytes = fromBase64(encoded).length;
    if (bytes < 24 || bytes > 64) return `after ${SECRET_PREFIX} must encode 24 to 64 bytes`;
  }
  return null;
}

export function signingKey(secret: string): Uint8Array {
  return secret.startsWith(SECRET_PREFIX)
    ? fromBase64(secret.slice(SECRET_PREFIX.length))
    : new TextEncoder().encode(secret);
}

export async function webhookSignature(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const mac = await hmacSha256(signingKey(secret), `${messageId}.${timestampSeconds}.${body}`);
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** A secret in the standard's form, for endpoints created without one. */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(24)));
}
