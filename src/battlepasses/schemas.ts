import { battlePassShownFields } from "./fields";
import { z } from "@hono/zod-openapi";
import { UserIdSchema } from "../auth/schemas";

/** Response and request schemas of the public battle-pass endpoints (the spec's objects). */

export const LanguageQuery = z.object({
  language: z
    .string()
    .max(20)
    .optional()
    .openapi({ description: "Language code such as en or de; default: the app's language", example: "en" }),
});

const CHALLENGE_TYPES_DOC = [
  "Status of the challenge in its level:",
  "`unlock`: not tracking (pass not unlocked, level not activated, or the season has not started / the pass is switched off);",
  "`in-progress`: the level is activated and the season runs: matching events move the counter;",
  "`overtime`: the season ended before the goal was reached; the counter stays as achieved;",
  "`unclaimed`: the goal was reached; `finished`: the level's reward was claimed.",
  "Transitions: unlock → in-progress (pass unlocked / level activated / previous level completed in an incremental pass / start_date reached),",
  "in-progress → unclaimed (an event reaches the goal), in-progress → overtime (end_date reached), unclaimed → finished (level reward claimed).",
].join(" ");

export const BattlePassLevelChallenge = z
  .object({
    challenge_id: z.string(),
    challenge_name: z.string(),
    challenge_goal: z.number().int(),
    challenge_goal_condition: z.number().int().openapi({ description: "0: reach the goal; 1: stay at or below it" }),
    user_challenge_current_score: z.number().int(),
    challenge_xp: z.number().int(),
    challenge_icon: z.string(),
    challenge_icon_hd: z.string(),
    type: z
      .enum(["unlock", "in-progress", "overtime", "unclaimed", "finished"])
      .openapi({ description: CHALLENGE_TYPES_DOC }),
  })
  .openapi("BattlePassLevelChallenge");

export const BattlePassLevel = z
  .object({
    level_id: z.string(),
    app_id: z.string(),
    battle_pass_id: z.string(),
    reward_amount: z.string(),
    reward_type_name: z.string().openapi({ deprecated: true }),
    level_reward_type: z.string(),
    level_completed: z.boolean().openapi({ description: "All challenges of the level are completed" }),
    level_priority: z.number(),
    reward_claimed: z.boolean(),
    activated_at: z.string().nullable().openapi({
      description:
        "When the level was activated, null before. The first level activates when the pass is unlocked; in an incremental pass each next level when the previous one completes; otherwise with the activate endpoint.",
    }),
    challenges: z.array(BattlePassLevelChallenge),
  })
  .openapi("BattlePassLevel");

const battlePassFields = {
  battle_pass_id: z.string(),
  app_id: z.string(),
  battle_pass_name: z.string(),
  battle_pass_description: z.string(),
  battle_pass_short_description: z.string(),
  battle_pass_disclaimer: z.string(),
  ...battlePassShownFields,
  is_active: z.boolean().openapi({ description: "Switched on by the admin and between start_date and end_date now" }),
  unlocked_at: z
    .string()
    .nullable()
    .openapi({ description: "When this user unlocked the pass; null when they did not" }),
  can_purchase_with_money: z.boolean(),
  can_purchase_with_coins: z.boolean(),
};

export const BattlePass = z.object(battlePassFields).openapi("BattlePass");

export const BattlePassForUser = z
  .object({
    ...battlePassFields,
    user_id: z.string(),
    purchase_price: z.number().nullable(),
    purchase_currency: z.string().nullable(),
    purchased_at: z.string().nullable(),
    battle_pass_completed: z.boolean().openapi({ description: "Every level of the pass is completed" }),
  })
  .openapi("BattlePassWithUserStatus");

export const BattlePassUnlockInfo = BattlePassForUser.extend({
  purchase_id: z.string().openapi({
    description:
      "The id of this user's purchase of this pass (SCILL's BattlePassUnlockInfo): digits, the same on every unlock answer",
    example: "603793843025346562",
  }),
}).openapi("BattlePassUnlockInfo");

export const UnlockBody = z
  .object({
    purchase_price: z
      .number()
      .min(0)
      .max(1_000_000_000)
      .optional()
      .openapi({ description: "0 when free", example: 5.99 }),
    purchase_currency: z.string().max(10).optional().openapi({ example: "EUR" }),
    user_id: UserIdSchema.optional().openapi({
      description:
        "The user to unlock for: required with an API key, refused with an access token (the token names the user)",
    }),
  })
  .openapi("BattlePassUnlockPayload");
