import { z } from "@hono/zod-openapi";
import { withReason } from "../corrections";

/** Zod schemas of the corrections of a player's progress (src/players/admin/correction-routes.ts). */

const Counter = z
  .number()
  .int()
  .min(0)
  .openapi({ description: "The counter to set, 0 to the challenge's goal", example: 10 });

/** Exactly one of counter and state. */
const oneOf = (value: { counter?: unknown; state?: unknown }) =>
  (value.counter === undefined) !== (value.state === undefined);
const ONE_OF = { message: "give either counter or state, not both", path: ["counter"] };

export const ChallengeCorrectionInput = withReason({
  counter: Counter.optional(),
  state: z
    .enum(["unclaimed", "unlocked"])
    .optional()
    .openapi({ description: "unclaimed: complete the in-progress challenge; unlocked: put it back" }),
})
  .refine(oneOf, ONE_OF)
  .openapi("ChallengeCorrection");

export const BattlePassChallengeCorrectionInput = withReason({
  counter: Counter.optional(),
  state: z
    .enum(["unclaimed"])
    .optional()
    .openapi({ description: "unclaimed: complete the in-progress level challenge" }),
})
  .refine(oneOf, ONE_OF)
  .openapi("BattlePassChallengeCorrection");

export const BattlePassCorrectionInput = withReason({
  state: z.enum(["unlocked"]).openapi({ description: "unlocked: unlock the pass for the player" }),
}).openapi("BattlePassCorrection");

export const ScoreCorrectionInput = withReason({
  score: z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER).openapi({ example: 1200 }),
}).openapi("ScoreCorrection");

export const CorrectionAnswer = z
  .object({
    before: z.record(z.string(), z.unknown()).openapi({ description: "The corrected object as it was" }),
    after: z.record(z.string(), z.unknown()).openapi({ description: "As it is now" }),
    reason: z.string(),
  })
  .openapi("Correction");
