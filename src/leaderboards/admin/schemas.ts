import { z } from "@hono/zod-openapi";
import { CounterFilterInput } from "../../rules/schemas";
import { PERIOD_RANGES, isValidTimeZone, parseWallClock } from "../../rules/schedule";
import { ConfigKey, LocalizedName as Name } from "../../shared/schemas";
import { AGGREGATIONS } from "../catalog";

/** Zod schemas of the admin API for leaderboards. */

const LocalizedName = Name.openapi({ example: { en: "Hall of Fame", de: "Ruhmeshalle" } });

export const LeaderboardInput = z
  .object({
    key: ConfigKey.optional().openapi({
      description: "Stable key of the leaderboard in this app (catalog documents); default leaderboard-<id>. Left out on PUT: unchanged",
    }),
    name: LocalizedName,
    event_name: z.string().trim().min(1).max(100).openapi({ example: "achieve-score" }),
    value_field: z.string().min(1).max(100).nullable().default(null).openapi({
      description: "The meta data field that holds the score; null: `amount` when the event has one, else 1 per event",
      example: "score",
    }),
    filters: z.array(CounterFilterInput).max(20).default([]),
    aggregation: z.enum(AGGREGATIONS).default("sum").openapi({
      description:
        "How a member's events make the score: sum adds, max keeps the highest, min the lowest, last the newest (by receipt time). " +
        "An event's event_type (single or group) does not matter to leaderboards",
    }),
    sort_order_ascending: z.boolean().default(false).openapi({
      description: "false: higher scores rank first; true: lower scores rank first (e.g. lap times). Changing it starts a new season",
    }),
    period_range: z.enum(PERIOD_RANGES).nullable().default(null).openapi({
      description:
        "Seasons: d daily, w weekly on Monday, m monthly on the 1st, each at period_range_reset_at_time in period_range_time_zone; never or null: one season. " +
        "A reset starts an empty board; events count in the season they were received in. Changing the schedule starts a new season at once",
    }),
    period_range_reset_at_time: z
      .string()
      .refine((v) => parseWallClock(v) !== null, "must be a time HH:MM:SS (24 h)")
      .default("00:00:00"),
    period_range_time_zone: z.string().refine(isValidTimeZone, "must be an IANA time zone such as Europe/Berlin").default("UTC"),
  })
  .openapi("LeaderboardInput");
export type LeaderboardInput = z.infer<typeof LeaderboardInput>;

export const LeaderboardAdmin = z
  .object({
    leaderboard_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    name: z.union([z.string(), z.record(z.string(), z.string())]),
    event_name: z.string(),
    value_field: z.string().nullable(),
    filters: z.array(CounterFilterInput),
    aggregation: z.enum(AGGREGATIONS),
    sort_order_ascending: z.boolean(),
    period_range: z.enum(PERIOD_RANGES).nullable(),
    period_range_reset_at_time: z.string().nullable(),
    period_range_time_zone: z.string().nullable(),
    season_started_at: z.string().openapi({ description: "Start of the current season" }),
    nextReset: z.string().nullable().openapi({ description: "Start of the next season; null without a schedule" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("LeaderboardAdmin");

// ---- Public reads ----
