import { z } from "@hono/zod-openapi";
import { webhookTypeField, type WebhookDoc } from "../kit/area";

/** The bodies of the area's webhooks, for the OpenAPI document (src/fanout/webhook-docs.ts). */

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
    webhook_type: webhookTypeField("battlepass-challenge-changed"),
    old_battle_pass_challenge: BattlePassChallengeState,
    new_battle_pass_challenge: BattlePassChallengeState,
  })
  .openapi("BattlePassChallengeChangedPayload");

const BattlePassLevelRewardClaimed = z
  .object({
    webhook_type: webhookTypeField("battlepass-level-reward-claimed"),
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
    webhook_type: webhookTypeField("battlepass-expired"),
    old_battle_pass: BattlePassState.openapi({ description: "The pass while it ran" }),
    new_battle_pass: BattlePassState.openapi({ description: "The pass now that it ended: is_active false" }),
  })
  .openapi("BattlePassExpiredPayload");

export const battlePassWebhooks: WebhookDoc[] = [
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
];
