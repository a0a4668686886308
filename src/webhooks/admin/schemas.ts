import { z } from "@hono/zod-openapi";
import { WEBHOOK_TYPES } from "../../changes/types";
import { ACCEPTED_WEBHOOK_TYPES } from "../core/webhook-types";
import { DELIVERY_STATUSES } from "../deliveries-repo";
import { ConfigKey } from "../../shared/schemas";

/** Zod schemas of the admin API for webhook endpoints and the delivery log. */

export const WebhookTypeField = z.enum(ACCEPTED_WEBHOOK_TYPES).openapi({
  description:
    "One of the spec's five types, `user-erased` (beyond the spec: a player's erasure completed; the body names the erasure, never the player) `points-changed` (beyond the spec: a player's balance in a points system moved), a streak's `streak-extended`, `streak-freeze-used`, `streak-freeze-earned`, `streak-lost`, `streak-milestone` (beyond the spec) or `achievement-unlocked` (beyond the spec: a player earned or was granted an achievement). `leaderboard-updated` is accepted for the spec's `leaderoard-updated`, which is what is stored and sent.",
  example: "challenge-changed",
});

export const WebhookInput = z
  .object({
    key: ConfigKey.optional().openapi({
      description:
        "Stable key of the endpoint in this app (catalog documents); default webhook-<id>. Left out on PUT: unchanged",
    }),
    webhook_type: WebhookTypeField,
    url: z.string().openapi({
      description:
        "HTTPS URL called with POST. Plain http only to loopback addresses, and only where ALLOW_LOOPBACK_WEBHOOKS is on (local development).",
      example: "https://game.example.com/hooks/gamification",
    }),
    secret_key: z.string().optional().openapi({
      description:
        "Sent as the query parameter secret_key and used as the Standard Webhooks signing key: a `whsec_<base64>` secret is base64-decoded, any other is used as its bytes (the libraries' raw format). 8-256 printable ASCII characters. Generated in the `whsec_` form when omitted. It also signs the per-level reward URLs of battle pass levels when this is the app's first battlepass-level-reward-claimed endpoint.",
      example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    }),
  })
  .openapi("WebhookInput");

export const Webhook = z
  .object({
    webhook_id: z.string(),
    app_id: z.string(),
    key: z.string(),
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

export const Delivery = z
  .object({
    delivery_id: z.string(),
    message_id: z
      .string()
      .openapi({ description: "The webhook-id header: the same on every attempt and on redelivery." }),
    webhook_id: z.string().nullable(),
    webhook_type: z.enum(WEBHOOK_TYPES),
    url: z.string().nullable().openapi({ description: "The URL called (without the secret)." }),
    status: z.enum(DELIVERY_STATUSES).openapi({
      description:
        "pending: not delivered yet, attempts remain; succeeded: a 2xx answer; failed: 410 Gone, not sendable, or every attempt failed.",
    }),
    attempt_count: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    last_attempt_at: z.string().nullable(),
    next_attempt_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("WebhookDelivery");

export const Attempt = z
  .object({
    attempt_number: z.number().int(),
    attempted_at: z.string(),
    status_code: z.number().int().nullable().openapi({ description: "Null when no answer arrived." }),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable(),
    outcome: z.enum(["succeeded", "failed"]),
  })
  .openapi("WebhookAttempt");

export const DeliveryDetail = Delivery.extend({
  payload: z.unknown().openapi({ description: "The JSON body sent." }),
  attempts: z.array(Attempt),
}).openapi("WebhookDeliveryDetail");
