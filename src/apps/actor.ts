import type { Context } from "hono";
import type { Actor } from "./audit-log";
import { invalid } from "../shared/domain-errors";
import type { AppEnv } from "../shared/http";

/**
 * Who calls the admin API or acts with an API key, for the audit log. The admin token is shared, so
 * its callers may say who they are in X-Actor ("deploy-bot", "ann@studio"): the log then tells
 * scripts and people apart.
 */
export const ACTOR_HEADER = "X-Actor";
const MAX_ACTOR_NAME = 100;

/** The X-Actor name, trimmed; null when absent or blank; a 400 when it is too long or holds control characters. */
export function actorNameOf(header: string | undefined): string | null {
  const name = header?.trim() ?? "";
  if (name === "") return null;
  const problem =
    name.length > MAX_ACTOR_NAME
      ? `must be at most ${MAX_ACTOR_NAME} characters`
      : // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
        /[\u0000-\u001f\u007f]/.test(name)
        ? "must not contain control characters"
        : null;
  if (problem) throw invalid(`Invalid header: ${ACTOR_HEADER} ${problem}`, [{ field: ACTOR_HEADER, problem }]);
  return name;
}

/** Where a request comes from: the client's address as Cloudflare saw it (absent in local runs) and the request id. */
export const requestOrigin = <E extends { Variables: { requestId: string } }>(c: Context<E>) => ({
  ip: c.req.header("CF-Connecting-IP") ?? null,
  requestId: (c.get("requestId") as string | undefined) ?? null,
});

/** The actor of an admin-token or API-key request (a player's access token acts on nothing the log records). */
export function requestActor(c: Context<AppEnv>): Actor {
  const caller = c.get("caller");
  const origin = requestOrigin(c);
  if (caller.kind === "admin")
    return { kind: "admin-token", id: null, name: caller.actorName, channel: "admin-api", ...origin };
  if (caller.kind === "api-key") return { kind: "api-key", id: caller.keyId, name: null, channel: "api", ...origin };
  throw new Error("a player's access token is no audit actor");
}
