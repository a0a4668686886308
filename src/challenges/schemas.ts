import { z } from "@hono/zod-openapi";
import { challengeShownFields } from "./fields";

/**
 * Zod schemas of the player's challenge endpoints, with the field names of the spec and SCILL (admin:
 * ./admin/schemas.ts).
 */

const challengeFields = {
  challenge_id: z.string().openapi({ example: "12" }),
  user_challenge_id: z.string().openapi({ description: '"0" while the challenge is not unlocked' }),
  challenge_name: z.string(),
  ...challengeShownFields,
  challenge_current_score: z.number().int(),
  user_challenge_current_score: z.number().int(),
  type: z.enum(["unlock", "unlocked", "in-progress", "unclaimed", "finished", "lost", "cancelled"]),
  is_claimed: z.boolean(),
  user_challenge_unlocked_at: z.string().nullable(),
  user_challenge_activated_at: z.string().nullable(),
  can_be_auto_activated: z.boolean(),
  user_challenge_is_claimed: z.boolean(),
  user_challenge_status: z.number().int().openapi({
    description: "Position of type in [unlock, unlocked, in-progress, unclaimed, finished, lost, cancelled]",
  }),
};

export const ChallengeSchema = z
  .object({
    ...challengeFields,
    challenge_description: z.string(),
    challenge_auto_activated: z.boolean(),
  })
  .openapi("Challenge");

/** Unlock and activate answer without the description and the auto-activation flag (spec). */
export const ShortChallengeSchema = z.object(challengeFields).openapi("ChallengeSummary");

export const ChallengeCategorySchema = z
  .object({
    is_daily_category: z.boolean(),
    category_position: z.number().int(),
    category_slug: z.string(),
    category_name: z.string(),
    category_id: z.string(),
    challenges: z.array(ChallengeSchema),
  })
  .openapi("ChallengeCategory");

export const ChallengeEnvelope = z
  .object({
    status: z.number().int().openapi({ example: 200 }),
    message: z.string().openapi({ example: "OK" }),
    challenge: z.union([ChallengeSchema, ShortChallengeSchema]),
  })
  .openapi("ChallengeActionResponse");

export const StoredChallengeStateSchema = z
  .object({
    challenge_id: z.string(),
    user_challenge_id: z.string(),
    type: z.string().openapi({ description: "A stored state, or gone: not offered to this user again" }),
    score: z.number().int(),
    last_session_id: z.string().nullable(),
    unlocked_at: z.string().nullable(),
    activated_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    is_claimed: z.boolean(),
    period_start: z.string().nullable(),
  })
  .openapi("StoredChallengeState");
