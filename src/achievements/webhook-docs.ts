import { z } from "@hono/zod-openapi";
import { webhookTypeField, type WebhookDoc } from "../kit/area";

/** The bodies of the area's webhooks, for the OpenAPI document (src/fanout/webhook-docs.ts). */

const AchievementUnlocked = z
  .object({
    webhook_type: webhookTypeField("achievement-unlocked"),
    app_id: z.string(),
    user_id: z.string(),
    achievement_id: z.string(),
    key: z.string().openapi({ description: "The achievement's key" }),
    achieved_at: z.string().openapi({ description: "When the player came to hold it (service time, ISO 8601)" }),
    rarity: z.number().openapi({
      description:
        "The percentage (0-100, one decimal) of the app's players who held it as last counted, before this player",
    }),
  })
  .openapi("AchievementUnlockedPayload");

export const achievementsWebhooks: WebhookDoc[] = [
  {
    type: "achievement-unlocked",
    operationId: "achievementUnlockedWebhook",
    schema: AchievementUnlocked,
    summary: "A player earned or was granted an achievement",
    description:
      "Beyond SCILL. One call per achievement, once per player (again only after a revocation); the same JSON goes to the " +
      "player's notifications topic (GET /api/v1/auth/user-notifications-topic-link). Its points_rewards are credited in the same " +
      "transaction (a `points-changed` call follows).",
  },
];
