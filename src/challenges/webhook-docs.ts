import { z } from "@hono/zod-openapi";
import { webhookTypeField, type WebhookDoc } from "../kit/area";
import { ChallengeSchema } from "./schemas";

/** The bodies of the area's webhooks, for the OpenAPI document (src/fanout/webhook-docs.ts). */

const PayloadChallenge = ChallengeSchema.extend({
  user_id: z.string().openapi({ description: "Whose challenge it is" }),
  session_id: z
    .string()
    .nullable()
    .openapi({ description: "The session of the last event its counter took; null before any" }),
}).openapi("WebhookChallenge");

const ChallengeChanged = z
  .object({
    webhook_type: webhookTypeField("challenge-changed"),
    category_position: z.number().int().openapi({ description: "Position of the challenge's category" }),
    user_token: z
      .string()
      .openapi({ description: "An access token of the player: the receiver may send further events for them" }),
    old_challenge: PayloadChallenge,
    new_challenge: PayloadChallenge,
  })
  .openapi("ChallengeChangedPayload");

export const challengeWebhooks: WebhookDoc[] = [
  {
    type: "challenge-changed",
    operationId: "challengeChangedWebhook",
    schema: ChallengeChanged,
    summary: "A player's challenge changed",
    description:
      "Sent on every transition of a player's personal challenge (unlocked, activated, progress, finished, claimed, cancelled), with the challenge before and after.",
  },
];
