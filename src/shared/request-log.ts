import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { errorBody } from "./errors";
import type { AppEnv } from "./http";
import { configureLog, logError, logFormatOf, logLine, logText } from "./log";

/** Named in every answer and in every 5xx body, so that a studio can quote the request. */
export const REQUEST_ID_HEADER = "X-Request-Id";

/** Our own id for every request: a client-sent id is not trusted into the logs. */
const newRequestId = (): string => crypto.randomUUID();

/**
 * LOG_SAMPLE_RATE is the share (0 to 1) of successful requests that get a log line; an answer of
 * 400 or more is an error and always gets one, except 429: refusing a client past its rate limit
 * is the service working as configured, and a flooding client must not cost a log line (and its
 * CPU) per refused request, so 429s are sampled like successes. A value that is not a number in
 * that range logs everything: losing lines to a typo is worse than writing too many.
 */
export function sampleRate(raw: string | undefined): number {
  const rate = Number(raw);
  return raw !== undefined && raw.trim() !== "" && Number.isFinite(rate) && rate >= 0 && rate <= 1 ? rate : 1;
}

export function shouldLogRequest(status: number, rate: number, draw: number): boolean {
  return (status >= 400 && status !== 429) || draw < rate;
}

/**
 * The fields of a request's log line. `route` is the pattern, never the path: paths and queries carry user ids and
 * tokens.
 */
export interface RequestLine {
  request_id: string;
  method: string;
  route: string | null;
  status: number;
  duration_ms: number;
  app_id: string | null;
  /** Cloudflare's id of the request (`cf-ray`), to find it in Cloudflare's own logs. */
  ray?: string;
}

/** The request line of the pretty format: method, path (without its query), status and duration. */
export function prettyRequestLine(line: Pick<RequestLine, "method" | "status" | "duration_ms">, path: string): string {
  return `${line.method} ${path} ${line.status} ${line.duration_ms}ms`;
}

/**
 * The request's line: an object in the json format; in the pretty format one short line that names
 * the path itself, which helps on a developer's terminal but carries player ids, so the structured
 * format, which names only the route pattern, stays the default.
 */
export function logRequest(env: Pick<Env, "LOG_SAMPLE_RATE" | "LOG_FORMAT">, line: RequestLine, path: string): void {
  if (!shouldLogRequest(line.status, sampleRate(env.LOG_SAMPLE_RATE), Math.random())) return;
  const level = line.status >= 500 ? "error" : "info";
  if (logFormatOf(env.LOG_FORMAT) === "pretty") logText(level, prettyRequestLine(line, path));
  else logLine(level, "request", { ...line }, "json");
}

/** Cloudflare's id of the request, when it came through Cloudflare. */
function rayOf(request: Request): { ray?: string } {
  const ray = request.headers.get("cf-ray");
  return ray ? { ray } : {};
}

/** The route pattern that answered; null when no route matched (a 404 of an unknown path). */
function routePattern(c: Context<AppEnv>): string | null {
  // Middlewares are registered for every method ("ALL"); a route's handler names its method.
  const routes = matchedRoutes(c);
  for (let i = routes.length - 1; i >= 0; i--) if (routes[i].method !== "ALL") return routes[i].path;
  return null;
}

/** The app the request was about: the credential's, or for the admin API the one in the path. */
function appOf(c: Context<AppEnv>): string | null {
  const caller = c.get("caller");
  if (caller && caller.kind !== "admin") return caller.appId;
  return c.req.param("appId") ?? null;
}

/**
 * The first middleware: gives the request its id, puts `X-Request-Id` on whatever answer comes
 * back (401s and errors included) and writes the request's log line.
 */
export const requestLog = createMiddleware<AppEnv>(async (c, next) => {
  configureLog(c.env);
  const started = Date.now();
  const requestId = newRequestId();
  c.set("requestId", requestId);
  await next();
  try {
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
  } catch {
    // A response passed through from a fetch has immutable headers: copy it.
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(REQUEST_ID_HEADER, requestId);
  }
  logRequest(
    c.env,
    {
      request_id: requestId,
      method: c.req.method,
      route: routePattern(c),
      status: c.res.status,
      duration_ms: Date.now() - started,
      app_id: appOf(c),
      ...rayOf(c.req.raw),
    },
    c.req.path,
  );
});

/** A copy of `response` with the request id in its headers and, for a JSON 5xx, in its body. */
async function stamped(response: Response, requestId: string): Promise<Response> {
  const headers = new Headers(response.headers);
  headers.set(REQUEST_ID_HEADER, requestId);
  const init = { status: response.status, statusText: response.statusText, headers };
  // A WebSocket upgrade (101) keeps its socket and has no body.
  if (response.webSocket) return new Response(null, { ...init, webSocket: response.webSocket });
  if (response.status >= 500 && headers.get("Content-Type")?.startsWith("application/json")) {
    const body = (await response.json()) as Record<string, unknown>;
    headers.delete("Content-Length");
    return new Response(JSON.stringify({ ...body, request_id: requestId }), init);
  }
  return new Response(response.body, init);
}

/**
 * For the few paths served before the Hono app (the MQTT upgrade): the same request id, header,
 * 5xx body and log line as `requestLog`, and an unexpected error becomes a logged 500 instead of
 * the runtime's bare one.
 */
export async function observeRequest(
  request: Request,
  env: Pick<Env, "LOG_SAMPLE_RATE" | "LOG_FORMAT">,
  route: string,
  handle: () => Promise<Response>,
): Promise<Response> {
  configureLog(env);
  const started = Date.now();
  const requestId = newRequestId();
  let response: Response;
  try {
    response = await handle();
  } catch (err) {
    logError("unexpected error", err, { request_id: requestId, method: request.method, route });
    response = Response.json(errorBody(500, "Internal error"), { status: 500 });
  }
  const answer = await stamped(response, requestId);
  logRequest(
    env,
    {
      request_id: requestId,
      method: request.method,
      route,
      status: answer.status,
      duration_ms: Date.now() - started,
      app_id: null,
      ...rayOf(request),
    },
    new URL(request.url).pathname,
  );
  return answer;
}
