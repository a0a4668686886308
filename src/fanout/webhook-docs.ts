import { z, type OpenAPIHono } from "@hono/zod-openapi";
import { UserInfoSchema } from "../auth/schemas";
import { ChallengeSchema } from "../challenges/schemas";
import type { WebhookType } from "../changes/types";
import type { AppEnv } from "../shared/http";

/**
 * The bodies this service POSTs to an app's webhook endpoints, one per webhook type, for the
 * OpenAPI document's `webhooks` section. They are built by the areas (src/challenges/core/changes.ts,
 * src/battlepasses/core/changes.ts, src/leaderboards/core/changes.ts,
 * src/players/core/erasure-notification.ts); the same payload is the MQTT message of the topic.
 */

const type = <T extends WebhookType>(value: T) =>
  z.literal(value).openapi({ description: "The webhook type", example: value });

const PayloadChallenge = ChallengeSchema.extend({
  user_id: z.string().openapi({ description: "Whose challenge it is" }),
  session_id: z
    .string()
    .nullable()
    .openapi({ description: "The session of the last event its counter took; null before any" }),
}).openapi("WebhookChallenge");

const ChallengeChanged = z
  .object({
    webhook_type: type("challenge-changed"),
    category_position: z.number().int().openapi({ description: "Position of the challenge's category" }),
    user_token: z
      .string()
      .openapi({ description: "An access token of the player: the receiver may send further events for them" }),
    old_challenge: PayloadChallenge,
    new_challenge: PayloadChallenge,
  })
  .openapi("ChallengeChangedPayload");

const BattlePassChallengeState = z
  .object({
    app_id: z.string(),
    battle_pass_id: z.string(),
    level_id: z.string(),
    user_id: z.string(),
    level_position_index: z.number().int(),
    challenge_id: z.string(),
    challenge_position_index: z.number().int(),
    challenge_goal: z.number().int(),
    user_challenge_current_score: z.number().int(),
    type: z.enum(["unlock", "in-progress", "overtime", "unclaimed", "finished"]),
  })
  .openapi("BattlePassChallengeState");

const BattlePassChallengeChanged = z
  .object({
    webhook_type: type("battlepass-challenge-changed"),
    old_battle_pass_challenge: BattlePassChallengeState,
    new_battle_pass_challenge: BattlePassChallengeState,
  })
  .openapi("BattlePassChallengeChangedPayload");

const BattlePassLevelRewardClaimed = z
  .object({
    webhook_type: type("battlepass-level-reward-claimed"),
    battle_pass_level_reward_claimed: z.object({
      app_id: z.string(),
      battle_pass_id: z.string(),
      level_id: z.string(),
      user_id: z.string(),
      level_position_index: z.number().int(),
      reward_amount: z.string(),
      reward_type_name: z.string(),
    }),
  })
  .openapi("BattlePassLevelRewardClaimedPayload");

const BattlePassState = z
  .object({
    battle_pass_id: z.string(),
    app_id: z.string(),
    battle_pass_priority: z.number().int(),
    start_date: z.string(),
    end_date: z.string(),
    is_active: z.boolean(),
  })
  .openapi("BattlePassState");

const BattlePassExpired = z
  .object({
    webhook_type: type("battlepass-expired"),
    old_battle_pass: BattlePassState.openapi({ description: "The pass while it ran" }),
    new_battle_pass: BattlePassState.openapi({ description: "The pass now that it ended: is_active false" }),
  })
  .openapi("BattlePassExpiredPayload");

const Ranking = z.object({
  score: z.number().openapi({ description: "0 for a member without a score before" }),
  rank: z.number().int().openapi({ description: "-1 for a member without a rank before" }),
});

const LeaderboardUpdated = z
  .object({
    webhook_type: type("leaderoard-updated"),
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

const UserErased = z
  .object({
    webhook_type: type("user-erased"),
    app_id: z.string(),
    erasure_id: z
      .string()
      .openapi({ description: "The erasure's id (the receipt the erasure request answered); the player is not named" }),
    requested_at: z.string().openapi({ format: "date-time" }),
    completed_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("UserErasedPayload");

const PointsLevel = z.object({ level: z.number().int(), name: z.string(), points: z.number().int() }).nullable();

const PointsChanged = z
  .object({
    webhook_type: type("points-changed"),
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

const WEBHOOKS: { type: WebhookType; operationId: string; schema: z.ZodType; summary: string; description: string }[] =
  [
    {
      type: "challenge-changed",
      operationId: "challengeChangedWebhook",
      schema: ChallengeChanged,
      summary: "A player's challenge changed",
      description:
        "Sent on every transition of a player's personal challenge (unlocked, activated, progress, finished, claimed, cancelled), with the challenge before and after.",
    },
    {
      type: "battlepass-challenge-changed",
      operationId: "battlePassChallengeChangedWebhook",
      schema: BattlePassChallengeChanged,
      summary: "A challenge of a battle pass level changed",
      description: "One call per level challenge whose counter or state moved.",
    },
    {
      type: "battlepass-level-reward-claimed",
      operationId: "battlePassLevelRewardClaimedWebhook",
      schema: BattlePassLevelRewardClaimed,
      summary: "A player claimed a level's reward",
      description: "Sent to the level's own reward URL when it has one, instead of the app's endpoints for this type.",
    },
    {
      type: "battlepass-expired",
      operationId: "battlePassExpiredWebhook",
      schema: BattlePassExpired,
      summary: "A battle pass ended",
      description: "Sent once when a pass's end_date has passed.",
    },
    {
      type: "leaderoard-updated",
      operationId: "leaderboardUpdatedWebhook",
      schema: LeaderboardUpdated,
      summary: "A member's score or rank on a leaderboard changed",
      description:
        "The spec's spelling of the type (`leaderoard-updated`; endpoints may subscribe with `leaderboard-updated` too). One call per member and board per applied batch of events.",
    },
    {
      type: "user-erased",
      operationId: "userErasedWebhook",
      schema: UserErased,
      summary: "A player's erasure completed",
      description: "Names the erasure, never the player, so that the delivery log holds no personal data.",
    },
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
