import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { webhookTypeField, type WebhookDoc } from "../kit/area";
import { AREAS } from "../registry/areas";
import type { AppEnv } from "../shared/http";

/**
 * The bodies this service POSTs to an app's webhook endpoints, one per webhook type, for the
 * OpenAPI document's `webhooks` section. They are built, and described, by the areas (each
 * plugin's `webhooks`) and by src/players/core/erasure-notification.ts; the same payload is the
 * MQTT message of the topic.
 */

const UserErased = z
  .object({
    webhook_type: webhookTypeField("user-erased"),
    app_id: z.string(),
    erasure_id: z
      .string()
      .openapi({ description: "The erasure's id (the receipt the erasure request answered); the player is not named" }),
    requested_at: z.string().openapi({ format: "date-time" }),
    completed_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("UserErasedPayload");

const DeliveryHeaders = z.object({
  "webhook-id": z
    .string()
    .openapi({ description: "The delivery's id, the same on every attempt: receivers deduplicate by it" }),
  "webhook-timestamp": z.string().openapi({ description: "Seconds since the epoch when the attempt was signed" }),
  "webhook-signature": z.string().openapi({
    description:
      'Standard Webhooks signature: `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` with the endpoint\'s secret',
  }),
});

/** Every area's webhooks (their plugins' `webhooks`), then the players' own. */
const WEBHOOKS: WebhookDoc[] = [
  ...AREAS.flatMap((area) => area.webhooks ?? []),
  {
    type: "user-erased",
    operationId: "userErasedWebhook",
    schema: UserErased,
    summary: "A player's erasure completed",
    description: "Names the erasure, never the player, so that the delivery log holds no personal data.",
  },
];

const errorAnswer = (description: string) => ({ description });

/** Adds the `webhooks` section: what an endpoint subscribed to each type receives and may answer. */
export function registerWebhookDocs(app: OpenAPIHono<AppEnv>) {
  for (const webhook of WEBHOOKS) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: webhook.type,
      operationId: webhook.operationId,
      tags: ["Webhooks"],
      // Signed (webhook-signature), not sent with any of the API's credentials.
      security: [],
      summary: webhook.summary,
      description: `${webhook.description} Signed per Standard Webhooks; retried with exponential back-off for about 5.7 days (21 attempts) until the endpoint answers 2xx.`,
      request: {
        headers: DeliveryHeaders,
        body: {
          required: true,
          description: "The payload, also the MQTT message of the topic",
          content: { "application/json": { schema: webhook.schema } },
        },
      },
      responses: {
        "2XX": errorAnswer("Received: the delivery is done"),
        410: errorAnswer("Gone: the endpoint is disabled and gets no further calls until it is replaced (PUT)"),
        default: errorAnswer("Any other answer, or none within the timeout: the call is retried"),
      },
    });
  }
}
