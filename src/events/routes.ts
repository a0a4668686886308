import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createRouter, type AppEnv } from "../shared/http";
import { invalid, forbidden, type FieldProblem } from "../shared/domain-errors";
import { jsonBodyOf } from "../shared/body";
import { logError } from "../shared/log";
import {
  bearerSecurity,
  errorResponses,
  type Examples,
  forbiddenResponse,
  jsonResponse,
  rateLimitedResponse,
  StatusMessageSchema,
} from "../shared/openapi";
import {
  bearerToken,
  callerApp,
  callerUser,
  isAccessTokenShaped,
  requireAccessToken,
  requireApiKey,
  requireSigningKeys,
} from "../auth/middleware";
import { appTrust } from "../auth/trust";
import { describeCatalog } from "../rules/predefined-events";
import { invalidEventMessage, validateEvent, type AuthMode } from "./core/validate";
import { takeEvents, type IntakeContext } from "./intake";
import { appRefusal } from "./app-rate";
import { knownRefusal, rateLimited, refusalMessage, retryAfterSeconds } from "./rate-limits";
import type { UserEvent } from "../user/event";
import {
  AuthQuery,
  EventBatchPayload,
  EventBatchResponse,
  EventDescription,
  EventPayload,
  type EventResult,
  MAX_BATCH_EVENTS,
} from "./schemas";

const AUTH_MODES: readonly string[] = ["api_key", "access_token"] satisfies AuthMode[];

/**
 * `?auth=` chooses the credential, so it is read before the credential is checked. Without it the
 * credential tells: Unreal's and PHP's SDKs never send `auth`, and an Unreal game client sends
 * its access token.
 */
function authMode(c: Context<AppEnv>): AuthMode {
  const value = c.req.query("auth");
  if (value === undefined || value === "") return isAccessTokenShaped(bearerToken(c)) ? "access_token" : "api_key";
  if (AUTH_MODES.includes(value)) return value as AuthMode;
  const problem = "must be 'api_key' or 'access_token'";
  throw invalid(`Invalid query: auth ${problem}`, [{ field: "auth", problem }]);
}

const requireSender = createMiddleware<AppEnv>(async (c, next) => {
  // Awaited, not returned: an already rejected promise must get its handler in this same tick.
  await (authMode(c) === "access_token" ? requireAccessToken : requireApiKey)(c, next);
});

/** An empty body is no body: checked as `{}`, so each missing field is named. */
const readJson = async (c: Context<AppEnv>): Promise<unknown> => (await jsonBodyOf(c)) ?? {};

/** Validates one payload for the caller's credential; the event is stamped with the app and time. */
function checkEvent(c: Context<AppEnv>, raw: unknown): { event: UserEvent } | { errors: FieldProblem[] } {
  const result = validateEvent(raw, { mode: authMode(c), tokenUserId: callerUser(c) });
  if (!result.ok) return { errors: result.errors };
  return { event: { ...result.event, appId: callerApp(c), receivedAt: c.get("now") } };
}

/** The app's trust and this request's clock, for takeEvents. */
async function intakeContext(c: Context<AppEnv>): Promise<IntakeContext> {
  const appId = callerApp(c);
  return {
    env: c.env,
    appId,
    trust: await appTrust(c.env.DB, appId),
    now: c.get("now"),
    waitUntil: (work) => c.executionCtx.waitUntil(work),
  };
}

/**
 * A request nothing of which can be accepted is refused whole before its body is read, so that a
 * flooding client costs little: the app has no room left this minute, or the access token's
 * player is known to be past the per-player limit.
 */
function refuseWhenFull(c: Context<AppEnv>, { appId, trust, now }: IntakeContext): void {
  const user = callerUser(c);
  const appWait = appRefusal(appId, now, trust.rateLimits.perAppPerMinute);
  if (appWait !== null)
    throw rateLimited(
      { policy: "per-app", limit: trust.rateLimits.perAppPerMinute, retryAfterMs: appWait },
      user ?? "",
    );
  const known = user === undefined ? null : knownRefusal(appId, user, now, trust.rateLimits.perUserPerMinute);
  if (known) throw rateLimited(known, user!);
}

const intakeRefusals = {
  ...forbiddenResponse(
    "The access token's player is banned, or (per event) the event's player is banned or a game client sent an event the app lists in backend_only_events",
  ),
  ...rateLimitedResponse,
};

// Requests are checked by validateEvent, not by the route: the schema is only referenced here.
const eventBody = (ref: string, description: string, examples: Examples) => ({
  body: {
    required: true,
    description,
    content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` }, examples } },
  },
});

const serverEvent = {
  user_id: "player-42",
  event_name: "kill-enemy",
  session_id: "match-17",
  meta_data: { amount: 1, weapon_used: "rifle" },
  event_id: "6f1c9a8e-2f4b-4f7e-9a1d-1f2e3d4c5b6a",
};
const EVENT_EXAMPLES: Examples = {
  minimal: {
    summary: "The least a custom event needs (API key): its name and its player",
    value: { event_name: "tutorial-finished", user_id: "player-42" },
  },
  server: { summary: "From the studio's backend (API key), idempotent by event_id", value: serverEvent },
  client: {
    summary: "From a game client (access token: the token names the player)",
    value: { event_name: "kill-enemy", meta_data: { amount: 1 } },
  },
};
const BATCH_EXAMPLES: Examples = {
  two: {
    summary: "Two events of one player (API key)",
    value: {
      events: [
        serverEvent,
        { user_id: "player-42", event_name: "collect-item", meta_data: { amount: 3, item_type: "gem" } },
      ],
    },
  },
};
const OK_EXAMPLE: Examples = { ok: { summary: "Accepted", value: { status: 200, message: "OK" } } };

type EventResultBody = z.infer<typeof EventResult>;

const tags = ["Events"];
const senderSecurity = bearerSecurity.tokenOrKey;

export const eventsRoutes = createRouter();
eventsRoutes.openAPIRegistry.register("EventPayload", EventPayload);
eventsRoutes.openAPIRegistry.register("EventBatchPayload", EventBatchPayload);

eventsRoutes
  .openapi(
    createRoute({
      operationId: "sendEvent",
      method: "post",
      path: "/api/v1/events",
      tags,
      security: senderSecurity,
      summary: "Send an event (sendEvent)",
      description:
        "With an API key the body names the user in `user_id`; with an access token the token does. `auth` says which " +
        "credential is sent; without it the credential itself tells. " +
        "A predefined event must carry its required meta data fields; floats are refused. " +
        "A banned player's event, and a client's event the app lists in backend_only_events, answer 403; past the app's rate limits (events a minute, " +
        "per player and per app) the answer is 429 with Retry-After.",
      middleware: [requireSender, requireSigningKeys] as const,
      request: { query: AuthQuery, ...eventBody("EventPayload", "The event", EVENT_EXAMPLES) },
      responses: {
        200: jsonResponse(StatusMessageSchema, "Accepted (also for a repeated event_id)", OK_EXAMPLE),
        ...errorResponses,
        ...intakeRefusals,
      },
    }),
    async (c) => {
      const ctx = await intakeContext(c);
      refuseWhenFull(c, ctx);
      const checked = checkEvent(c, await readJson(c));
      if ("errors" in checked) throw invalid(invalidEventMessage(checked.errors), checked.errors);
      const [outcome] = await takeEvents(ctx, [checked.event]);
      if (outcome.kind === "forbidden") throw forbidden(outcome.message);
      if (outcome.kind === "limited") throw rateLimited(outcome.refusal, checked.event.userId);
      if (outcome.kind === "failed") throw outcome.error;
      return c.json({ status: 200, message: "OK" }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "sendEventBatch",
      method: "post",
      path: "/api/v1/events/batch",
      tags,
      security: senderSecurity,
      summary: `Send up to ${MAX_BATCH_EVENTS} events at once`,
      description:
        "Each event is checked and applied on its own, in order per user; the answer has a result per event: 400 for an invalid one, " +
        "403 for a banned player's or a client's backend-only one, 429 (with retry_after_seconds) past a rate limit, where every event counts. " +
        "The request fails as a whole only when it is not a list of 1 to 500 events, or when none of it can be accepted: " +
        "429 when the app has no room left this minute or the access token's player is known to be past the per-player limit.",
      middleware: [requireSender, requireSigningKeys] as const,
      request: { query: AuthQuery, ...eventBody("EventBatchPayload", "The events", BATCH_EXAMPLES) },
      responses: { 200: jsonResponse(EventBatchResponse, "A result per event"), ...errorResponses, ...intakeRefusals },
    }),
    async (c) => {
      const ctx = await intakeContext(c);
      refuseWhenFull(c, ctx);
      const raw = await readJson(c);
      const items = (raw as { events?: unknown } | null)?.events;
      if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_EVENTS) {
        const problem = `must be an array of 1 to ${MAX_BATCH_EVENTS} events`;
        throw invalid(`Invalid body: events ${problem}`, [{ field: "events", problem }]);
      }
      const checked = items.map((item) => checkEvent(c, item));
      const accepted = checked.flatMap((item, index) => ("event" in item ? [{ index, event: item.event }] : []));
      const outcomes = await takeEvents(
        ctx,
        accepted.map((a) => a.event),
      );

      const outcomeAt = new Map(accepted.map(({ index, event }, i) => [index, { event, outcome: outcomes[i] }]));
      const results: EventResultBody[] = checked.map((item, index) => {
        const eventId = (items[index] as { event_id?: unknown } | null)?.event_id;
        const id = typeof eventId === "string" ? { event_id: eventId } : {};
        if ("errors" in item)
          return { index, status: 400, message: invalidEventMessage(item.errors), ...id, errors: item.errors };
        const { event, outcome } = outcomeAt.get(index)!;
        switch (outcome.kind) {
          case "forbidden":
            return { index, status: 403, message: outcome.message, ...id };
          case "limited":
            return {
              index,
              status: 429,
              message: refusalMessage(outcome.refusal, event.userId),
              ...id,
              retry_after_seconds: retryAfterSeconds(outcome.refusal),
            };
          case "failed":
            logError("applying an event of a batch failed", outcome.error, {
              app_id: event.appId,
              event_name: event.eventName,
            });
            return { index, status: 500, message: "Internal error", ...id };
          default:
            return { index, status: 200, message: "OK", ...id, ...(outcome.duplicate ? { duplicate: true } : {}) };
        }
      });
      const rejected = results.filter((r) => r.status !== 200).length;
      const message = rejected === 0 ? "OK" : `${rejected} of ${results.length} events rejected`;
      return c.json({ status: 200, message, results }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getAvailableEvents",
      method: "get",
      path: "/api/v1/public/documentation",
      tags,
      summary: "The predefined events with their required and optional properties (getAvailableEvents)",
      responses: { 200: jsonResponse(z.array(EventDescription), "The predefined event catalog") },
    }),
    (c) => c.json(describeCatalog(), 200),
  );
