import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { createRouter, type AppEnv } from "../shared/http";
import { badRequest, type FieldProblem } from "../shared/errors";
import { toIso } from "../shared/clock";
import { bearerSecurity, errorResponses, jsonResponse, pathId, StatusMessageSchema } from "../shared/openapi";
import { PagingQuery, pageOf } from "../shared/paging";
import { callerApp, callerUser, requireAccessToken, requireApiKey } from "../auth/middleware";
import { requireApp } from "../admin/apps/repo";
import { describeCatalog } from "./catalog";
import { invalidEventMessage, validateEvent, type AuthMode } from "./core/validate";
import { countsPerDay } from "./core/periods";
import { requireHourRange } from "./hour-range";
import { ingestEvent, ingestEvents } from "./intake";
import { countEvents } from "./analytics-store";
import { listMonthUsage, readMonthUsage } from "./usage-store";
import type { UserEvent } from "./types";
import {
  AnalyticsQuery, AuthQuery, EventAnalytics, EventBatchPayload, EventBatchResponse, EventDescription, EventPayload, EventResult,
  MAX_BATCH_EVENTS, MonthUsage, UsageQuery,
} from "./schemas";

const AUTH_MODES: readonly string[] = ["api_key", "access_token"] satisfies AuthMode[];

/** `?auth=` chooses the credential (default api_key), so it is read before the credential is checked. */
function authMode(c: Context<AppEnv>): AuthMode {
  const value = c.req.query("auth");
  if (value === undefined || value === "") return "api_key";
  if (AUTH_MODES.includes(value)) return value as AuthMode;
  const problem = "must be 'api_key' or 'access_token'";
  throw badRequest(`Invalid query: auth ${problem}`, [{ field: "auth", problem }]);
}

const requireSender = createMiddleware<AppEnv>(async (c, next) => {
  // Awaited, not returned: an already rejected promise must get its handler in this same tick.
  await (authMode(c) === "access_token" ? requireAccessToken : requireApiKey)(c, next);
});

async function readJson(c: Context<AppEnv>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw badRequest("Request body must be JSON", [{ field: "body", problem: "must be JSON" }]);
  }
}

/** Validates one payload for the caller's credential; the event is stamped with the app and time. */
function checkEvent(c: Context<AppEnv>, raw: unknown): { event: UserEvent } | { errors: FieldProblem[] } {
  const result = validateEvent(raw, { mode: authMode(c), tokenUserId: callerUser(c) });
  if (!result.ok) return { errors: result.errors };
  return { event: { ...result.event, appId: callerApp(c), receivedAt: c.get("now") } };
}

// Requests are checked by validateEvent, not by the route: the schema is only referenced here.
const eventBody = (ref: string, description: string) => ({
  body: { required: true, description, content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } } },
});

type EventResultBody = z.infer<typeof EventResult>;

const tags = ["Events"];
const senderSecurity = bearerSecurity.tokenOrKey;

export const eventsRoutes = createRouter();
eventsRoutes.openAPIRegistry.register("EventPayload", EventPayload);
eventsRoutes.openAPIRegistry.register("EventBatchPayload", EventBatchPayload);

eventsRoutes
  .openapi(
    createRoute({
      method: "post", path: "/api/v1/events", tags, security: senderSecurity,
      summary: "Send an event (sendEvent)",
      description:
        "With `auth=api_key` (default) the body names the user in `user_id`; with `auth=access_token` the token does. " +
        "A predefined event must carry its required meta data fields; floats are refused.",
      middleware: [requireSender] as const,
      request: { query: AuthQuery, ...eventBody("EventPayload", "The event") },
      responses: { 200: jsonResponse(StatusMessageSchema, "Accepted (also for a repeated event_id)"), ...errorResponses },
    }),
    async (c) => {
      const checked = checkEvent(c, await readJson(c));
      if ("errors" in checked) throw badRequest(invalidEventMessage(checked.errors), checked.errors);
      await ingestEvent(c.env, checked.event);
      return c.json({ status: 200, message: "OK" }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "post", path: "/api/v1/events/batch", tags, security: senderSecurity,
      summary: `Send up to ${MAX_BATCH_EVENTS} events at once`,
      description:
        "Each event is checked and applied on its own, in order per user; the answer has a result per event. " +
        "The request fails as a whole only when it is not a list of 1 to 500 events.",
      middleware: [requireSender] as const,
      request: { query: AuthQuery, ...eventBody("EventBatchPayload", "The events") },
      responses: { 200: jsonResponse(EventBatchResponse, "A result per event"), ...errorResponses },
    }),
    async (c) => {
      const raw = await readJson(c);
      const items = (raw as { events?: unknown } | null)?.events;
      if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_EVENTS) {
        const problem = `must be an array of 1 to ${MAX_BATCH_EVENTS} events`;
        throw badRequest(`Invalid body: events ${problem}`, [{ field: "events", problem }]);
      }
      const checked = items.map((item) => checkEvent(c, item));
      const accepted = checked.flatMap((item, index) => ("event" in item ? [{ index, event: item.event }] : []));
      const outcomes = await ingestEvents(c.env, accepted.map((a) => a.event));

      const outcomeAt = new Map(accepted.map(({ index }, i) => [index, outcomes[i]]));
      const results: EventResultBody[] = checked.map((item, index) => {
        const eventId = (items[index] as { event_id?: unknown } | null)?.event_id;
        const id = typeof eventId === "string" ? { event_id: eventId } : {};
        if ("errors" in item) return { index, status: 400, message: invalidEventMessage(item.errors), ...id, errors: item.errors };
        const outcome = outcomeAt.get(index)!;
        if ("failed" in outcome) return { index, status: 500, message: "Internal error", ...id };
        return { index, status: 200, message: "OK", ...id, ...(outcome.duplicate ? { duplicate: true } : {}) };
      });
      const rejected = results.filter((r) => r.status !== 200).length;
      const message = rejected === 0 ? "OK" : `${rejected} of ${results.length} events rejected`;
      return c.json({ status: 200, message, results }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/public/documentation", tags,
      summary: "The predefined events with their required and optional properties (getAvailableEvents)",
      responses: { 200: jsonResponse(z.array(EventDescription), "The predefined event catalog") },
    }),
    (c) => c.json(describeCatalog(), 200),
  );

const AppParams = z.object({ appId: pathId("appId") });
const adminTags = ["Admin: analytics"];
const security = bearerSecurity.admin;

export const eventsAdmin = createRouter()
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}/analytics/events", tags: adminTags, security,
      summary: "Counts of the app's events by event name and by UTC day",
      description: "Counted in whole UTC hours: `from` and `to` of the answer are the range widened to hour boundaries.",
      request: { params: AppParams, query: AnalyticsQuery },
      responses: { 200: jsonResponse(EventAnalytics, "Event counts in the range"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, callerApp(c, c.req.valid("param").appId));
      const query = c.req.valid("query");
      // Events are counted per UTC hour (migrations/0008): the answer states the whole hours counted.
      const { from, to } = requireHourRange(query.from, query.to, c.get("now"));
      const counts = await countEvents(c.env.DB, app.app_id, from, to);
      return c.json(
        {
          app_id: String(app.app_id),
          from: toIso(from),
          to: toIso(to),
          total: counts.total,
          by_name: counts.byName,
          by_day: countsPerDay(from, to, counts.byDay),
        },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}/usage", tags: adminTags, security,
      summary: "The app's events and unlocked challenges per UTC month, newest first",
      request: { params: AppParams, query: PagingQuery.extend(UsageQuery.shape) },
      responses: { 200: jsonResponse(pageOf(MonthUsage), "A page of months"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, callerApp(c, c.req.valid("param").appId));
      const { month, ...paging } = c.req.valid("query");
      if (month) return c.json({ items: [await readMonthUsage(c.env.DB, app.app_id, month)], ...paging, total: 1 }, 200);
      return c.json({ ...(await listMonthUsage(c.env.DB, app.app_id, paging)), ...paging }, 200);
    },
  );
