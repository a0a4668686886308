import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { toIso } from "../../shared/clock";
import { badRequest, conflict } from "../../shared/errors";
import { createRouter } from "../../shared/http";
import { bearerSecurity, conflictResponse, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf, pageOffset } from "../../shared/paging";
import { webhookUrlProblem } from "../../rules/webhook-url";
import { newWebhookSecret, secretProblem } from "../core/signing";
import { canonicalWebhookType } from "../core/webhook-types";
import { deliveriesAdmin } from "./deliveries-routes";
import { Delivery, Webhook, WebhookInput, WebhookTypeField } from "./schemas";
import { insertQueuedDelivery, presentDelivery } from "../deliveries-repo";
import { sendAll } from "../../shared/chunks";
import {
  deleteEndpoint, type EndpointInput, type EndpointRow, insertEndpoint, presentEndpoint, replaceEndpoint, requireEndpoint,
} from "../endpoints-repo";
import { newMessageId } from "../messages";

const AppParams = z.object({ appId: pathId("appId") });
const WebhookParams = AppParams.extend({ webhookId: pathId("webhookId") });
const ListQuery = PagingQuery.extend({ webhook_type: WebhookTypeField.optional() });
const tags = ["Admin: webhooks"];
const security = bearerSecurity.admin;

/** Validates and normalises an endpoint: canonical type, allowed URL, usable secret. */
function endpointInput(env: Env, input: z.infer<typeof WebhookInput>): EndpointInput {
  const urlProblem = webhookUrlProblem(input.url, env.ALLOW_LOOPBACK_WEBHOOKS === "on");
  if (urlProblem) throw badRequest(`Invalid body: url: ${urlProblem}`, [{ field: "url", problem: urlProblem }]);
  const secret = input.secret_key ?? newWebhookSecret();
  const problem = secretProblem(secret);
  if (problem) throw badRequest(`Invalid body: secret_key: ${problem}`, [{ field: "secret_key", problem }]);
  return { key: input.key, webhook_type: canonicalWebhookType(input.webhook_type), url: input.url, secret_key: secret };
}

const TEST_MESSAGE = "Test call from the gamification service: not a real change. Answer 2xx when the secret matches.";

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
      const where = "app_id = ?1 AND (?2 IS NULL OR webhook_type = ?2)";
      const [rows, total] = await c.env.DB.batch<EndpointRow | { n: number }>([
        c.env.DB.prepare(`SELECT * FROM webhooks WHERE ${where} ORDER BY webhook_id LIMIT ?3 OFFSET ?4`)
          .bind(app.app_id, type, paging.pageSize, pageOffset(paging)),
        c.env.DB.prepare(`SELECT COUNT(*) AS n FROM webhooks WHERE ${where}`).bind(app.app_id, type),
      ]);
      return c.json(
        { items: (rows.results as EndpointRow[]).map(presentEndpoint), ...paging, total: (total.results[0] as { n: number }).n },
        200,
      );
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
      if (endpoint.disabled_at) throw conflict(`Webhook ${webhookId} is disabled; replace it (PUT) to enable it again`);
      const now = c.get("now");
      const message = {
        messageId: newMessageId(),
        appId: String(app.app_id),
        webhookId: String(endpoint.webhook_id),
        webhookType: endpoint.webhook_type,
        overrideUrl: null,
        body: JSON.stringify({ webhook_type: endpoint.webhook_type, test: true, message: TEST_MESSAGE, created_at: toIso(now) }),
        createdAt: now,
      };
      const row = await insertQueuedDelivery(c.env.DB, message, toIso(now));
      await sendAll(c.env.WEBHOOKS, [message]);
      return c.json(presentDelivery(row), 202);
    },
  );

/** Every webhooks admin route: endpoints and the delivery log. */
export const webhooksAdmin = createRouter().route("/", endpointsAdmin).route("/", deliveriesAdmin);
