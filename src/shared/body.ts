import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors";
import { invalid } from "./domain-errors";
import type { AppEnv } from "./http";

/**
 * Request bodies of the JSON API, checked once for every endpoint that takes one (DESIGN.md,
 * "Request bodies"):
 * - an empty body is no body, whatever its Content-Type: SCILL's Unity, Unreal and PHP SDKs send
 *   empty POSTs and PUTs with `application/json` (Unreal with `; charset=utf-8`), and HTTP
 *   libraries add a form type to an empty POST on their own;
 * - any other body must be JSON: `application/json` or `application/*+json`, with any media-type
 *   parameters, else 415 (every SCILL SDK sends one of these, see sdk-clients.md);
 * - its bytes must be UTF-8 (RFC 8259): anything else is 400, never silently replaced by U+FFFD,
 *   which would merge distinct ids.
 * After the check the request carries the canonical `application/json` type and the checked bytes,
 * so the route validators and handlers read the body as usual.
 */

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json$/;
const CANONICAL_TYPE = "application/json";

/** The media type without its parameters, lower case; "" when there is none. */
const mediaTypeOf = (contentType: string) => contentType.split(";")[0].trim().toLowerCase();

export const UNSUPPORTED_MEDIA_TYPE_MESSAGE = "Request bodies must be JSON: send Content-Type application/json";

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The same request with another Content-Type and body (its own body has been read). */
function rebuilt(raw: Request, contentType: string | null, body: string | null): Request {
  const headers = new Headers(raw.headers);
  headers.delete("Content-Length");
  if (contentType === null) headers.delete("Content-Type");
  else headers.set("Content-Type", contentType);
  return new Request(raw.url, { method: raw.method, headers, body });
}

export const jsonRequestBodies = createMiddleware<AppEnv>(async (c, next) => {
  const raw = c.req.raw;
  if (!METHODS_WITH_BODY.has(raw.method) || raw.body === null) return next();
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength === 0) {
    c.req.raw = rebuilt(raw, null, null);
    c.req.bodyCache = {};
    return next();
  }
  const contentType = raw.headers.get("Content-Type");
  if (contentType === null || !JSON_MEDIA_TYPE.test(mediaTypeOf(contentType))) {
    const given = contentType === null ? "no Content-Type" : `Content-Type ${mediaTypeOf(contentType) || contentType}`;
    throw new ApiError(415, `${UNSUPPORTED_MEDIA_TYPE_MESSAGE} (got ${given})`);
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    throw invalid("Request body is not valid UTF-8", [{ field: "body", problem: "must be UTF-8 encoded JSON" }]);
  }
  // The usual case reads on from the bytes already cached. Any other JSON type is made canonical,
  // and a byte order mark, which the decoder dropped and JSON.parse would refuse, is left out.
  const hadByteOrderMark = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
  if (contentType !== CANONICAL_TYPE || hadByteOrderMark) {
    c.req.raw = rebuilt(raw, CANONICAL_TYPE, text);
    c.req.bodyCache = {};
  }
  return next();
});

/** The request's JSON body, or undefined when it has none (an empty body is none). */
export async function jsonBodyOf(c: Context<AppEnv>): Promise<unknown> {
  if (c.req.raw.body === null) return undefined;
  try {
    return await c.req.json();
  } catch {
    throw invalid("Request body must be JSON", [{ field: "body", problem: "must be JSON" }]);
  }
}
