import type { webhooks } from "./generated/schema.js";

/** The body of each webhook type, by `webhook_type`: the document's `webhooks`, each a POST with a JSON body. */
export type WebhookPayloads = {
  [K in keyof webhooks]: webhooks[K] extends { post: { requestBody?: { content: { "application/json": infer Body } } } }
    ? Body
    : never;
};
export type WebhookType = keyof WebhookPayloads;
/** Any webhook's body: switch on `webhook_type` to narrow it. */
export type WebhookPayload = WebhookPayloads[WebhookType];

/** The signature is missing, malformed, wrong, or its timestamp is too far from now. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const PREFIX = "whsec_";

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function fromBase64(text: string): Uint8Array | undefined {
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** The HMAC key of an endpoint's secret: `whsec_<base64>` is decoded, any other secret is its bytes. */
function keyBytes(secret: string): Uint8Array {
  if (secret.startsWith(PREFIX)) {
    const bytes = fromBase64(secret.slice(PREFIX.length));
    if (!bytes) throw new WebhookVerificationError("the secret is not whsec_ followed by base64");
    return bytes;
  }
  return new TextEncoder().encode(secret);
}

/**
 * Verifies a webhook call's Standard Webhooks signature (`webhook-id`, `webhook-timestamp`,
 * `webhook-signature`: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`) with the endpoint's
 * secret, and answers the parsed, typed body. `body` is the raw text as received: parsing and
 * serializing it again can change its bytes. A timestamp more than `toleranceSeconds` (default 300)
 * away from now is refused, so that a recorded call cannot be replayed later. WebCrypto only: runs
 * in Workers, Deno, browsers and Node 20+.
 */
export async function verifyWebhook(
  secret: string,
  headers: WebhookHeaders,
  body: string,
  options: { toleranceSeconds?: number; now?: Date } = {},
): Promise<WebhookPayload> {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signatures = header(headers, "webhook-signature");
  if (!id || !timestamp || !signatures)
    throw new WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not a number of seconds");
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError("webhook-timestamp is too far from now");

  const key = await crypto.subtle.importKey(
    "raw",
    keyBytes(secret) as BufferSource,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  for (const entry of signatures.split(" ")) {
    const [version, encoded] = entry.split(",", 2);
    if (version !== "v1" || !encoded) continue;
    const signature = fromBase64(encoded);
    // crypto.subtle.verify compares in constant time.
    if (signature && (await crypto.subtle.verify("HMAC", key, signature as BufferSource, signed)))
      return JSON.parse(body) as WebhookPayload;
  }
  throw new WebhookVerificationError("no webhook-signature matches");
}
