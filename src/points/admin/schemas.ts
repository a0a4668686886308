import { z } from "@hono/zod-openapi";
import { EventName } from "../../shared/event-name";
import { CounterFilterInput } from "../../rules/schemas";
import { ConfigKey, Localized, LocalizedName, LocalizedText } from "../../shared/schemas";

/** Zod schemas of the admin API for points systems. */

/** Points an amount can be: a whole number a 64-bit float keeps exactly, with room to add. */
export const MAX_POINTS = 1_000_000_000_000;
export const MAX_LEVELS = 1000;
export const MAX_TRIGGERS = 50;

const Points = z.number().int().min(0).max(MAX_POINTS);

export const PointsLevelInput = z
  .object({
    level: z.number().int().min(1).max(MAX_LEVELS).openapi({ description: "1, 2, 3... in order", example: 2 }),
    name: LocalizedName.openapi({ example: { en: "Apprentice", de: "Lehrling" } }),
    points: Points.openapi({ description: "Points earned from which the level is reached", example: 100 }),
  })
  .strict()
  .openapi("PointsLevel");

export const PointsTriggerInput = z
  .object({
    event_name: EventName.openapi({ example: "kill-enemy" }),
    filters: z.array(CounterFilterInput).max(20).default([]),
    value_field: z.string().min(1).max(100).nullable().default(null).openapi({
      description:
        "The meta data field whose value counts (positive integers); null: each event counts one. Units carry over from one event to the next",
      example: "distance",
    }),
    every: z
      .number()
      .int()
      .min(1)
      .max(MAX_POINTS)
      .default(1)
      .openapi({ description: "Every this many units give `points`", example: 10 }),
    points: z.number().int().min(1).max(MAX_POINTS).openapi({ example: 5 }),
  })
  .strict()
  .openapi("PointsTrigger");

/** The fields of a points system's input; catalog documents take the same. */
export const PointsSystemFields = z.object({
  key: ConfigKey.openapi({
    description: "Unique in the app; how balances, rewards (`points_rewards`) and documents name the system",
    example: "xp",
  }),
  name: LocalizedName.openapi({ example: { en: "Experience", de: "Erfahrung" } }),
  description: LocalizedText.nullable().default(null),
  icon: z
    .string()
    .max(2000)
    .nullable()
    .default(null)
    .openapi({ description: "An image URL, or any text your client reads" }),
  spendable: z.boolean().default(false).openapi({
    description: "true: the studio's backend may spend from balances (coins); false: points only grow (XP)",
  }),
  max_balance: z.number().int().min(1).max(MAX_POINTS).nullable().default(null).openapi({
    description:
      "A balance never grows past it: a credit is capped, and the ledger shows the capped amount; null: no cap",
  }),
  credits_challenge_xp: z.boolean().default(false).openapi({
    description: "true: a claimed challenge's challenge_xp is credited here. At most one system per app",
  }),
  levels: z.array(PointsLevelInput).max(MAX_LEVELS).default([]).openapi({
    description:
      "Levels reached by the points earned (spends never lower them): level 1, 2, 3... with ascending points",
  }),
  triggers: z.array(PointsTriggerInput).max(MAX_TRIGGERS).default([]).openapi({
    description: "Events that give points: every `every` units of `value_field` (or events) give `points`",
  }),
});

/** Levels numbered 1, 2, 3... with strictly ascending thresholds. */
export function pointsSystemRule(s: { levels: { level: number; points: number }[] }, ctx: z.RefinementCtx): void {
  s.levels.forEach((level, i) => {
    if (level.level !== i + 1)
      ctx.addIssue({
        code: "custom",
        message: `must be ${i + 1}: levels are numbered 1, 2, 3... in order`,
        path: ["levels", i, "level"],
      });
    if (i > 0 && level.points <= s.levels[i - 1].points)
      ctx.addIssue({
        code: "custom",
        message: "must be above the previous level's points",
        path: ["levels", i, "points"],
      });
  });
}

export const PointsSystemInput = PointsSystemFields.superRefine(pointsSystemRule).openapi("PointsSystemInput");
export type PointsSystemInput = z.infer<typeof PointsSystemInput>;

export const PointsSystemAdmin = z
  .object({
    system_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    name: Localized,
    description: Localized.nullable(),
    icon: z.string().nullable(),
    spendable: z.boolean(),
    max_balance: z.number().int().nullable(),
    credits_challenge_xp: z.boolean(),
    levels: z.array(PointsLevelInput),
    triggers: z.array(PointsTriggerInput),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("PointsSystemAdmin");
