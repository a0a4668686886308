import { trustedAccessToken } from "../auth/trusted-token";
import { DomainError } from "../shared/domain-errors";
import { ApiError, errorBody, toApiError } from "../shared/errors";
import { getNow } from "../shared/clock";
import { topicSecret } from "../shared/secrets";
import { brokerShard, randomShard } from "./shards";

export const MQTT_PATH = "/mqtt";

const refuse = (status: number, message: string, headers: Record<string, string> = {}) =>
  Response.json(errorBody(status, message), { status, headers });

/**
 * `/mqtt`: hands a WebSocket upgrade to a broker object. Served before the Hono app because a
 * 101 answer must reach the client untouched by response middlewares. Anonymous connections are
 * allowed (the SCILL SDK sends no credentials); a `?token=` must be an access token the service
 * still honours (not of a deleted app, a revoked key or a banned player).
 */
export async function connectMqtt(request: Request, env: Env): Promise<Response> {
  if (request.method !== "GET" || request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
    return refuse(426, "MQTT is served over WebSocket here: connect with subprotocol mqtt", { Upgrade: "websocket" });
  }
  const offered = (request.headers.get("Sec-WebSocket-Protocol") ?? "")
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  if (offered.length > 0 && !offered.includes("mqtt")) {
    return refuse(400, `Unsupported WebSocket subprotocol ${offered.join(", ")}: use mqtt`);
  }
  const token = new URL(request.url).searchParams.get("token");
  try {
    // Without it the broker can check no topic, so no subscription could ever succeed.
    topicSecret(env);
    if (token !== null) await trustedAccessToken(env, token, await getNow(env));
  } catch (err) {
    const answer = err instanceof DomainError ? toApiError(err) : err;
    if (answer instanceof ApiError) return refuse(answer.status, answer.message, answer.headers);
    throw err;
  }
  return brokerShard(env, randomShard(env)).fetch(request);
}
