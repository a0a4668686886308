import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { createRouter } from "../../shared/http";
import { bearerSecurity, conflictResponse, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { ACCEPTED_WEBHOOK_TYPES, canonicalWebhookType } from "../core/webhook-types";
import { attemptsOf, DELIVERY_STATUSES, listDeliveries, presentDelivery, requireDelivery } from "../deliveries-repo";
import { redeliver } from "./actions";
import { Delivery, DeliveryDetail } from "./schemas";

const AppParams = z.object({ appId: pathId("appId") });
const DeliveryParams = AppParams.extend({ deliveryId: pathId("deliveryId") });
const ListQuery = PagingQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional(),
  webhook_id: z.string().optional(),
  webhook_type: z.enum(ACCEPTED_WEBHOOK_TYPES).optional(),
  message_id: z.string().optional(),
  user_id: z
    .string()
    .max(256)
    .optional()
    .openapi({ description: "Only the deliveries whose payload names this player (what a player's export points to)" }),
});
const tags = ["Admin: webhooks"];
const security = bearerSecurity.admin;

export const deliveriesAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "listWebhookDeliveries",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/webhook-deliveries",
      tags,
      security,
      summary: "The delivery log, newest first (kept 30 days)",
      request: { params: AppParams, query: ListQuery },
      responses: { 200: jsonResponse(pageOf(Delivery), "A page of deliveries"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const { status, webhook_id, webhook_type, message_id, user_id, ...paging } = c.req.valid("query");
      const filter = {
        status,
        webhook_id,
        message_id,
        user_id,
        webhook_type: webhook_type && canonicalWebhookType(webhook_type),
      };
      const { rows, total } = await listDeliveries(c.env.DB, app.app_id, filter, paging);
      return c.json({ items: rows.map(presentDelivery), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getWebhookDelivery",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/webhook-deliveries/{deliveryId}",
      tags,
      security,
      summary: "One delivery with its body and every attempt",
      request: { params: DeliveryParams },
      responses: { 200: jsonResponse(DeliveryDetail, "The delivery"), ...errorResponses },
    }),
    async (c) => {
      const { appId, deliveryId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const row = await requireDelivery(c.env.DB, app.app_id, deliveryId);
      const attempts = await attemptsOf(c.env.DB, row.delivery_id);
      return c.json({ ...presentDelivery(row), payload: JSON.parse(row.payload) as unknown, attempts }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "redeliverWebhookDelivery",
      method: "post",
      path: "/api/v1/admin/apps/{appId}/webhook-deliveries/{deliveryId}/redeliver",
      tags,
      security,
      summary: "Send a finished delivery again",
      description:
        "Queues the same body with the same webhook-id (receivers deduplicate by it) to the endpoint's current URL and secret, with a fresh retry schedule. 409 while the delivery is still pending or when its endpoint is deleted or disabled.",
      request: { params: DeliveryParams },
      responses: { 202: jsonResponse(Delivery, "The delivery, pending again"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const { appId, deliveryId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const row = await requireDelivery(c.env.DB, app.app_id, deliveryId);
      const reopened = await redeliver(c.env, app.app_id, row, c.get("now"));
      return c.json(presentDelivery(reopened), 202);
    },
  );
