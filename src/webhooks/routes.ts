import { createRoute, z } from "@hono/zod-openapi";
import { WEBHOOK_TYPES } from "../changes/types";
import { requireApp } from "../admin/apps/repo";
import { toIso } from "../shared/clock";
import { createRouter } from "../shared/http";
import { bearerSecurity, conflictResponse, errorResponses, jsonBody, jsonResponse, pathId } from "../shared/openapi";
import { PagingQuery, pageOf } from "../shared/paging";
import { ACCEPTED_WEBHOOK_TYPES, canonicalWebhookType } from "./core/webhook-types";
import { deliveriesAdmin, Delivery } from "./deliveries-routes";
import { webhooksDevAdmin } from "./dev-routes";
import { presentDelivery } from "./deliveries-repo";
import { deleteEndpoint, insertEndpoint, listEndpoints, presentEndpoint, replaceEndpoint, requireEndpoint } from "./endpoints-repo";
import { endpointInput, sendTestCall } from "./admin-actions";

const WebhookTypeField = z.enum(ACCEPTED_WEBHOOK_TYPES).openapi({
  description: "One of the spec's five types. `leaderboard-updated` is accepted for the spec's `leaderoard-updated`, which is what is stored and sent.",
  example: "challenge-changed",
});

export const WebhookInput = z
  .object({
    webhook_type: WebhookTypeField,
    url: z.string().openapi({
      description: "HTTPS URL called with POST. Plain http only to loopback addresses, and only where ALLOW_LOOPBACK_WEBHOOKS is on (local development).",
      example: "https://game.example.com/hooks/gamification",
    }),
    secret_key: z.string().optional().openapi({
      description:
        "Sent as the query parameter secret_key and used as the Standard Webhooks signing key: a `whsec_<base64>` secret is base64-decoded, any other is used as its bytes (the libraries' raw format). 8-256 printable ASCII characters. Generated in the `whsec_` form when omitted. It also signs the per-level reward URLs of battle pass levels when this is the app's first battlepass-level-reward-claimed endpoint.",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }),
  })
  .openapi("WebhookInput");

const Webhook = z
  .object({
    webhook_id: z.string(),
    app_id: z.string(),
    webhook_type: z.enum(WEBHOOK_TYPES),
    url: z.string(),
    secret_key: z.string(),
    enabled: z.boolean().openapi({ description: "False once the receiver answered 410 Gone; a PUT enables it again." }),
    disabled_at: z.string().nullable(),
    disabled_reason: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("Webhook");

const AppParams = z.object({ appId: pathId("appId") });
const WebhookParams = AppParams.extend({ webhookId: pathId("webhookId") });
const ListQuery = PagingQuery.extend({ webhook_type: WebhookTypeField.optional() });
const tags = ["Admin: webhooks"];
const security = bearerSecurity.admin;

const endpointsAdmin = createRouter()
  .openapi(
    createRoute({
      method: "post", path: "/api/v1/admin/apps/{appId}/webhooks", tags, security, summary: "Create a webhook endpoint",
      request: { params: AppParams, ...jsonBody(WebhookInput) },
      responses: { 201: jsonResponse(Webhook, "The new endpoint"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const row = await insertEndpoint(c.env.DB, app.app_id, endpointInput(c.env, c.req.valid("json")), toIso(c.get("now")));
      return c.json(presentEndpoint(row), 201);
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}/webhooks", tags, security, summary: "List webhook endpoints",
      request: { params: AppParams, query: ListQuery },
      responses: { 200: jsonResponse(pageOf(Webhook), "A page of endpoints"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const { webhook_type, ...paging } = c.req.valid("query");
      const type = webhook_type ? canonicalWebhookType(webhook_type) : null;
      const { rows, total } = await listEndpoints(c.env.DB, app.app_id, type, paging);
      return c.json({ items: rows.map(presentEndpoint), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}", tags, security, summary: "Get a webhook endpoint",
      request: { params: WebhookParams },
      responses: { 200: jsonResponse(Webhook, "The endpoint"), ...errorResponses },
    }),
    async (c) => {
      const { appId, webhookId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(presentEndpoint(await requireEndpoint(c.env.DB, app.app_id, webhookId)), 200);
    },
  )
  .openapi(
    createRoute({
      method: "put", path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}", tags, security,
      summary: "Replace a webhook endpoint (also enables it again after a 410)",
      request: { params: WebhookParams, ...jsonBody(WebhookInput) },
      responses: { 200: jsonResponse(Webhook, "The updated endpoint"), ...errorResponses },
    }),
    async (c) => {
      const { appId, webhookId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const row = await requireEndpoint(c.env.DB, app.app_id, webhookId);
      const updated = await replaceEndpoint(c.env.DB, row, endpointInput(c.env, c.req.valid("json")), toIso(c.get("now")));
      return c.json(presentEndpoint(updated), 200);
    },
  )
  .openapi(
    createRoute({
      method: "delete", path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}", tags, security,
      summary: "Delete a webhook endpoint; its queued calls are not sent, its delivery log stays",
      request: { params: WebhookParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, webhookId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      await deleteEndpoint(c.env.DB, await requireEndpoint(c.env.DB, app.app_id, webhookId));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      method: "post", path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}/test", tags, security,
      summary: "Send a test call to one endpoint",
      description:
        "Queues a call with the body {webhook_type, test: true, message, created_at}, delivered, signed, retried and logged like any other. Answers the new delivery.",
      request: { params: WebhookParams },
      responses: { 202: jsonResponse(Delivery, "The queued delivery"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const { appId, webhookId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const endpoint = await requireEndpoint(c.env.DB, app.app_id, webhookId);
      return c.json(presentDelivery(await sendTestCall(c.env, app, endpoint, c.get("now"))), 202);
    },
  );

/** Every webhooks admin route: endpoints, the delivery log, and the development change emitter. */
export const webhooksAdmin = createRouter().route("/", endpointsAdmin).route("/", deliveriesAdmin).route("/", webhooksDevAdmin);
