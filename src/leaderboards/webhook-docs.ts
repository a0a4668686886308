import { z } from "@hono/zod-openapi";
import { UserInfoSchema } from "../auth/schemas";
import { webhookTypeField, type WebhookDoc } from "../kit/area";

/** The bodies of the area's webhooks, for the OpenAPI document (src/fanout/webhook-docs.ts). */

const Ranking = z.object({
  score: z.number().openapi({ description: "0 for a member without a score before" }),
  rank: z.number().int().openapi({ description: "-1 for a member without a rank before" }),
});

const LeaderboardUpdated = z
  .object({
    webhook_type: webhookTypeField("leaderoard-updated"),
    leaderboard_data: z.object({
      app_id: z.string(),
      leaderboard_id: z.string(),
      leaderboard_name: z.string(),
      name: z.string(),
      event_type: z.string().openapi({ description: "The event name the board counts" }),
      sort_order_ascending: z.boolean(),
    }),
    member_data: z.object({
      member_id: z.string(),
      member_type: z.enum(["user", "team"]),
      score: z.number(),
      rank: z.number().int(),
      additional_info: UserInfoSchema,
    }),
    old_leaderboard_ranking: Ranking,
    new_leaderboard_ranking: Ranking,
  })
  .openapi("LeaderboardUpdatedPayload");

export const leaderboardWebhooks: WebhookDoc[] = [
  {
    type: "leaderoard-updated",
    operationId: "leaderboardUpdatedWebhook",
    schema: LeaderboardUpdated,
    summary: "A member's score or rank on a leaderboard changed",
    description:
      "The spec's spelling of the type (`leaderoard-updated`; endpoints may subscribe with `leaderboard-updated` too). One call per member and board per applied batch of events.",
  },
];
