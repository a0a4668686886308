import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import {
  bearerSecurity,
  conflictResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  pathId,
  keyConflictResponse,
} from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { canonicalWebhookType } from "../core/webhook-types";
import { presentDelivery } from "../deliveries-repo";
import {
  deleteEndpoint,
  insertEndpoint,
  listEndpoints,
  presentEndpoint,
  replaceEndpoint,
  requireEndpoint,
} from "../endpoints-repo";
import { endpointInput, sendTestCall } from "./actions";
import { deliveriesAdmin } from "./deliveries-routes";
import { Delivery, Webhook, WebhookInput, WebhookTypeField } from "./schemas";
import { requestActor } from "../../apps/actor";

const AppParams = z.object({ appId: pathId("appId") });
const WebhookParams = AppParams.extend({ webhookId: pathId("webhookId") });
const ListQuery = PagingQuery.extend({ webhook_type: WebhookTypeField.optional() });
const tags = ["Admin: webhooks"];
const security = bearerSecurity.admin;

const endpointsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createWebhook",
      method: "post",
      path: "/api/v1/admin/apps/{appId}/webhooks",
      tags,
      security,
      summary: "Create a webhook endpoint",
      request: {
        params: AppParams,
        ...jsonBody(WebhookInput, "The endpoint", {
          challenges: {
            summary: "The studio's backend receives every change of players' challenges",
            value: {
              key: "challenge-progress",
              webhook_type: "challenge-changed",
              url: "https://studio.example.com/hooks/gamification",
            },
          },
        }),
      },
      responses: { 201: jsonResponse(Webhook, "The new endpoint"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const row = await insertEndpoint(
        c.env.DB,
        app.app_id,
        endpointInput(c.env, c.req.valid("json")),
        toIso(c.get("now")),
        requestActor(c),
      );
      return c.json(presentEndpoint(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listWebhooks",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/webhooks",
      tags,
      security,
      summary: "List webhook endpoints",
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
      operationId: "getWebhook",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}",
      tags,
      security,
      summary: "Get a webhook endpoint",
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
      operationId: "replaceWebhook",
      method: "put",
      path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}",
      tags,
      security,
      summary: "Replace a webhook endpoint (also enables it again after a 410)",
      request: { params: WebhookParams, ...jsonBody(WebhookInput) },
      responses: { 200: jsonResponse(Webhook, "The updated endpoint"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const { appId, webhookId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const row = await requireEndpoint(c.env.DB, app.app_id, webhookId);
      const updated = await replaceEndpoint(
        c.env.DB,
        row,
        endpointInput(c.env, c.req.valid("json")),
        toIso(c.get("now")),
        requestActor(c),
      );
      return c.json(presentEndpoint(updated), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteWebhook",
      method: "delete",
      path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}",
      tags,
      security,
      summary: "Delete a webhook endpoint; its queued calls are not sent, its delivery log stays",
      request: { params: WebhookParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, webhookId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      await deleteEndpoint(c.env.DB, await requireEndpoint(c.env.DB, app.app_id, webhookId), requestActor(c));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "testWebhook",
      method: "post",
      path: "/api/v1/admin/apps/{appId}/webhooks/{webhookId}/test",
      tags,
      security,
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
      const row = await sendTestCall(c.env, app, endpoint, c.get("now"));
      return c.json(presentDelivery(row), 202);
    },
  );

/** Every webhooks admin route: endpoints and the delivery log. */
export const webhooksAdmin = createRouter().route("/", endpointsAdmin).route("/", deliveriesAdmin);
