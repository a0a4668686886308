import { z } from "@hono/zod-openapi";

/** Zod schemas of the achievements API: the player's list, the backend's grants and revocations, the export. */

export const AchievementView = z
  .object({
    achievement_id: z.string(),
    key: z.string(),
    name: z.string().openapi({ description: '"Hidden achievement" (or its translation) for a hidden one not held' }),
    description: z.string().openapi({ description: "The hidden description for a hidden one not held" }),
    icon: z.string().nullable().openapi({ description: "null for a hidden one not held" }),
    hidden: z.boolean(),
    achieved: z.boolean(),
    achieved_at: z.string().nullable(),
    progress: z
      .number()
      .int()
      .nullable()
      .openapi({
        description:
          "metric: the running total, at most `threshold`; composite: how many of the required achievements are held; " +
          "manual, and a hidden one not held: null",
      }),
    threshold: z.number().int().nullable().openapi({
      description: "metric: the value from which it is held; composite: how many achievements it requires; else null",
    }),
    rarity: z.number().openapi({
      description:
        "The percentage (0-100, one decimal) of the app's players (who sent it an event) who hold it, counted off the request path within a minute",
      example: 12.5,
    }),
  })
  .openapi("PlayerAchievement");

export const PlayerAchievements = z.object({ achievements: z.array(AchievementView) }).openapi("PlayerAchievements");

export const GrantInput = z
  .object({ user_id: z.string().min(1).max(256).openapi({ example: "player-42" }) })
  .openapi("AchievementGrantInput");

export const GrantAnswer = z
  .object({
    achievement_id: z.string(),
    key: z.string(),
    user_id: z.string(),
    achieved_at: z.string(),
    granted: z.boolean().openapi({ description: "false: the player held it already and nothing changed" }),
    also_earned: z.array(z.string()).openapi({ description: "Composites the grant completed, by id" }),
  })
  .openapi("AchievementGrantAnswer");

export const RevokeAnswer = z
  .object({
    achievement_id: z.string(),
    user_id: z.string(),
    revoked: z.array(z.string()).openapi({
      description:
        "The achievements the player no longer holds: this one and the composites that required it; empty when it was not held",
    }),
  })
  .openapi("AchievementRevokeAnswer");

/** Everything the area holds of a player (the admin's view, the export). */
export const PlayerAchievementsState = z
  .object({
    revoked: z
      .array(z.string())
      .openapi({ description: "Achievements taken back from the player, which events do not earn again (by id)" }),
    held: z.array(
      z.object({
        achievement_id: z.string(),
        achieved_at: z.string(),
        source: z.enum(["earned", "granted"]),
      }),
    ),
    totals: z
      .array(z.object({ event_name: z.string(), count: z.number().int(), sum: z.number(), max: z.number() }))
      .openapi({ description: "Per event name: the events counted, and the sum and maximum of their default amount" }),
  })
  .openapi("PlayerAchievementsState");
