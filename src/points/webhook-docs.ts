import { z } from "@hono/zod-openapi";
import { webhookTypeField, type WebhookDoc } from "../kit/area";

/** The bodies of the area's webhooks, for the OpenAPI document (src/fanout/webhook-docs.ts). */

const PointsLevel = z.object({ level: z.number().int(), name: z.string(), points: z.number().int() }).nullable();

const PointsChanged = z
  .object({
    webhook_type: webhookTypeField("points-changed"),
    app_id: z.string(),
    user_id: z.string(),
    system: z.string().openapi({ description: "The points system's key" }),
    amount: z.number().int().openapi({ description: "What moved: positive credited, negative spent or taken" }),
    balance: z.number().int(),
    earned: z.number().int().openapi({ description: "Everything ever credited; levels follow it" }),
    level: PointsLevel,
    previous_level: PointsLevel.openapi({ description: "The level before; differs from `level` on a level change" }),
    source: z.object({ kind: z.string(), id: z.string().nullable() }),
  })
  .openapi("PointsChangedPayload");

export const pointsWebhooks: WebhookDoc[] = [
  {
    type: "points-changed",
    operationId: "pointsChangedWebhook",
    schema: PointsChanged,
    summary: "A player's balance in a points system moved",
    description:
      "Beyond SCILL. One call per system per applied event or request (a trigger, a claimed reward, a grant, a spend, an adjustment); " +
      "the same JSON goes to the player's notifications topic (GET /api/v1/auth/user-notifications-topic-link).",
  },
];
