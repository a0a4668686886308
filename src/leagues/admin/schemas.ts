import { z } from "@hono/zod-openapi";
import { PointsRewardsInput } from "../../apps/points-rewards";
import { CounterFilterInput } from "../../rules/schemas";
import { isValidTimeZone, parseWallClock } from "../../rules/schedule";
import { EventName } from "../../shared/event-name";
import { ConfigKey, Localized, LocalizedName } from "../../shared/schemas";

/** Zod schemas of the admin API for leagues. */

export const MAX_TIERS = 20;
export const MAX_COHORT_SIZE = 100;
const MAX_VALUE = 1_000_000_000_000;
const ValueBound = z.number().int().min(-MAX_VALUE).max(MAX_VALUE).nullable().default(null);

export const LeagueTierInput = z
  .object({
    key: ConfigKey.openapi({ description: "Unique in the league; how results name the tier", example: "silver" }),
    name: LocalizedName.openapi({ example: { en: "Silver", de: "Silber" } }),
  })
  .strict()
  .openapi("LeagueTier");

export const LeagueScheduleInput = z
  .object({
    period: z
      .enum(["daily", "weekly"])
      .openapi({ description: "daily at reset_at_time; weekly on Monday at reset_at_time" }),
    reset_at_time: z
      .string()
      .refine((v) => parseWallClock(v) !== null, "must be a time HH:MM:SS (24 h)")
      .default("00:00:00"),
    time_zone: z.string().refine(isValidTimeZone, "must be an IANA time zone such as Europe/Berlin").default("UTC"),
  })
  .strict()
  .openapi("LeagueSchedule");

export const LeagueRewardInput = z
  .object({
    tier: ConfigKey.nullable()
      .default(null)
      .openapi({ description: "The tier's key; null: every tier", example: "gold" }),
    rank_min: z.number().int().min(1).max(MAX_COHORT_SIZE).openapi({ example: 1 }),
    rank_max: z.number().int().min(1).max(MAX_COHORT_SIZE).openapi({ example: 3 }),
    points_rewards: PointsRewardsInput,
    reward: z.string().max(500).nullable().default(null).openapi({
      description: "Any reward your game gives (a chest, a badge): shown in the result, for your backend to grant",
      example: "silver-chest",
    }),
  })
  .strict()
  .openapi("LeagueReward");

/** The fields of a league's input; catalog documents take the same. */
export const LeagueFields = z.object({
  key: ConfigKey.openapi({ description: "Unique in the app", example: "weekly-xp" }),
  name: LocalizedName.openapi({ example: { en: "Weekly league", de: "Wochenliga" } }),
  event_name: EventName.openapi({ example: "earn-xp" }),
  filters: z.array(CounterFilterInput).max(20).default([]),
  value_field: z.string().min(1).max(100).nullable().default(null).openapi({
    description: "The meta data field whose integer value counts; null: `amount` when the event has one, else 1",
    example: "xp",
  }),
  aggregation: z
    .enum(["sum", "max"])
    .default("sum")
    .openapi({ description: "How a player's events of one season make the score: sum adds, max keeps the highest" }),
  tiers: z.array(LeagueTierInput).min(1).max(MAX_TIERS).openapi({
    description: "Lowest first: new players start in the first. Changes apply from the next season",
  }),
  cohort_size: z.number().int().min(2).max(MAX_COHORT_SIZE).default(30).openapi({
    description: "Players per cohort: a cohort is closed when full and the next one opens",
  }),
  promote: z
    .number()
    .int()
    .min(0)
    .max(MAX_COHORT_SIZE)
    .openapi({
      description:
        "How many of a full cohort move up at the season's end (none from the top tier). A cohort of n < cohort_size members promotes " +
        "max(1, floor(promote × n / cohort_size)) when n ≥ 2 and promote > 0, none when n = 1",
      example: 5,
    }),
  demote: z.number().int().min(0).max(MAX_COHORT_SIZE).openapi({
    description:
      "How many of a full cohort move down (none from the lowest tier). A cohort of n < cohort_size members demotes floor(demote × n / cohort_size)",
    example: 5,
  }),
  schedule: LeagueScheduleInput,
  rewards: z.array(LeagueRewardInput).max(100).default([]).openapi({
    description: "By tier and rank; a result gets the first entry that covers its tier and rank",
  }),
  authoritative: z.boolean().default(false).openapi({
    description: "true: only events sent with an API key (the studio's backend) count here, never a game client's",
  }),
  min_value: ValueBound.openapi({
    description: "Lowest value one event may bring; null: none. An event below it is dropped and counted",
  }),
  max_value: ValueBound.openapi({
    description: "Highest value one event may bring; null: none. An event above it is dropped and counted",
  }),
});

type LeagueShape = Pick<
  z.infer<typeof LeagueFields>,
  "tiers" | "cohort_size" | "promote" | "demote" | "rewards" | "min_value" | "max_value"
>;

/** The rules across a league's fields. */
export function leagueRule(l: LeagueShape, ctx: z.RefinementCtx): void {
  if (l.promote + l.demote > l.cohort_size)
    ctx.addIssue({ code: "custom", message: "promote + demote must not exceed cohort_size", path: ["demote"] });
  if (l.min_value !== null && l.max_value !== null && l.min_value > l.max_value)
    ctx.addIssue({ code: "custom", message: "must not be below min_value", path: ["max_value"] });
  const keys = new Set<string>();
  l.tiers.forEach((t, i) => {
    if (keys.has(t.key))
      ctx.addIssue({ code: "custom", message: `'${t.key}' is used more than once`, path: ["tiers", i, "key"] });
    keys.add(t.key);
  });
  l.rewards.forEach((r, i) => {
    if (r.tier !== null && !keys.has(r.tier))
      ctx.addIssue({ code: "custom", message: `no tier '${r.tier}' in this league`, path: ["rewards", i, "tier"] });
    if (r.rank_max < r.rank_min)
      ctx.addIssue({ code: "custom", message: "must not be below rank_min", path: ["rewards", i, "rank_max"] });
  });
}

export const LeagueInput = LeagueFields.superRefine(leagueRule).openapi("LeagueInput");
export type LeagueInput = z.infer<typeof LeagueInput>;

export const LeagueAdmin = z
  .object({
    league_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    name: Localized,
    event_name: z.string(),
    filters: z.array(CounterFilterInput),
    value_field: z.string().nullable(),
    aggregation: z.enum(["sum", "max"]),
    tiers: z.array(LeagueTierInput),
    cohort_size: z.number().int(),
    promote: z.number().int(),
    demote: z.number().int(),
    schedule: LeagueScheduleInput,
    rewards: z.array(LeagueRewardInput),
    authoritative: z.boolean(),
    min_value: z.number().int().nullable(),
    max_value: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("LeagueAdmin");
