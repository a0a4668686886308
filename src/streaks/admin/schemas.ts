import { z } from "@hono/zod-openapi";
import { EventName } from "../../shared/event-name";
import { CounterFilterInput } from "../../rules/schemas";
import { isValidTimeZone, parseWallClock } from "../../rules/schedule";
import { ConfigKey, Localized, LocalizedName } from "../../shared/schemas";
import { STREAK_PERIODS } from "../core/model";

/** Zod schemas of the admin API for streaks. */

export const MAX_FREEZES = 100;
export const MAX_MILESTONES = 50;
const MAX_POINTS = 1_000_000_000_000;

export const TimeZone = z
  .string()
  .min(1)
  .max(100)
  .refine(isValidTimeZone, "must be an IANA time zone such as Europe/Berlin")
  .openapi({ example: "Europe/Berlin" });

export const StreakPointsReward = z
  .object({
    system: ConfigKey.openapi({ description: "The points system's key", example: "xp" }),
    amount: z.number().int().min(1).max(MAX_POINTS).openapi({ example: 100 }),
  })
  .strict()
  .openapi("StreakPointsReward");

export const StreakMilestoneInput = z
  .object({
    length: z.number().int().min(1).max(100_000).openapi({ description: "The streak's length", example: 7 }),
    points_rewards: z.array(StreakPointsReward).max(10).default([]).openapi({
      description: "Credited once per streak run, when the run reaches the length",
    }),
  })
  .strict()
  .openapi("StreakMilestone");

export const StreakFreezesInput = z
  .object({
    initial: z.number().int().min(0).max(MAX_FREEZES).default(0).openapi({
      description: "Freezes a player holds when the streak first counts for them",
    }),
    earn_every: z.number().int().min(0).max(10_000).default(0).openapi({
      description: "A freeze is earned each time the length reaches a multiple of it; 0: never",
      example: 7,
    }),
    max: z.number().int().min(0).max(MAX_FREEZES).default(0).openapi({
      description: "Most freezes a player holds",
      example: 2,
    }),
  })
  .strict();

/** The fields of a streak's input; catalog documents take the same. */
export const StreakFields = z.object({
  key: ConfigKey.openapi({ description: "Unique in the app", example: "daily-practice" }),
  name: LocalizedName.openapi({ example: { en: "Daily practice", de: "Tägliches Üben" } }),
  period: z.enum(STREAK_PERIODS).openapi({ description: "daily, or weekly (weeks start on Monday)" }),
  event_name: EventName.nullable().default(null).openapi({ description: "null: any event counts" }),
  filters: z.array(CounterFilterInput).max(20).default([]),
  min_count: z.number().int().min(1).max(100_000).default(1).openapi({
    description: "Qualifying events in a period that keep it",
  }),
  reset_at_time: z
    .string()
    .refine((t) => parseWallClock(t) !== null, "must be HH:MM:SS (24 h)")
    .default("00:00:00")
    .openapi({ description: "Wall-clock time in the player's zone at which a period ends", example: "00:00:00" }),
  time_zone: TimeZone.openapi({ description: "The zone of players who have not stored their own" }),
  freezes: StreakFreezesInput.default({ initial: 0, earn_every: 0, max: 0 }),
  milestones: z.array(StreakMilestoneInput).max(MAX_MILESTONES).default([]),
});

/** Milestones of distinct, ascending lengths; initial freezes within max. */
export function streakRule(
  s: { milestones: { length: number }[]; freezes: { initial: number; max: number } },
  ctx: z.RefinementCtx,
): void {
  s.milestones.forEach((m, i) => {
    if (i > 0 && m.length <= s.milestones[i - 1].length)
      ctx.addIssue({
        code: "custom",
        message: "must be above the previous milestone's length",
        path: ["milestones", i, "length"],
      });
  });
  if (s.freezes.initial > s.freezes.max)
    ctx.addIssue({ code: "custom", message: "must not exceed freezes.max", path: ["freezes", "initial"] });
}

export const StreakInput = StreakFields.superRefine(streakRule).openapi("StreakInput");
export type StreakInput = z.infer<typeof StreakInput>;

export const StreakAdmin = z
  .object({
    streak_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    name: Localized,
    period: z.enum(STREAK_PERIODS),
    event_name: z.string().nullable(),
    filters: z.array(CounterFilterInput),
    min_count: z.number().int(),
    reset_at_time: z.string(),
    time_zone: z.string(),
    freezes: StreakFreezesInput,
    milestones: z.array(StreakMilestoneInput),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("StreakAdmin");
