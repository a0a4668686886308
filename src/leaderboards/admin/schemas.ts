import { z } from "@hono/zod-openapi";
import { EventName } from "../../shared/event-name";
import { CounterFilterInput } from "../../rules/schemas";
import { PERIOD_RANGES, isValidTimeZone, parseWallClock } from "../../rules/schedule";
import { ConfigKey, LocalizedName as Name } from "../../shared/schemas";
import { AGGREGATIONS, MEMBER_TYPES } from "../catalog";
import { FLAG_REASONS } from "../core/contributions";
import { MAX_SCORE } from "../core/rank-key";

/** Zod schemas of the admin API for leaderboards. */

const LocalizedName = Name.openapi({ example: { en: "Hall of Fame", de: "Ruhmeshalle" } });
const ScoreBound = z.number().int().min(-MAX_SCORE).max(MAX_SCORE).nullable().default(null);

/** The fields of a leaderboard's input; catalog documents extend them. */
export const LeaderboardFields = z.object({
  key: ConfigKey.optional().openapi({
    description:
      "Stable key of the leaderboard in this app (catalog documents); default leaderboard-<id>. Left out on PUT: unchanged",
  }),
  name: LocalizedName,
  event_name: EventName.optional().openapi({
    example: "achieve-score",
    description: "The events that make the scores; left out when the board ranks a points system",
  }),
  points_system: ConfigKey.nullable().default(null).openapi({
    description:
      "Instead of event_name: the key of a points system of the app; a member's score is what they earned in it in the season (grants, triggers and rewards; spends do not lower it)",
    example: "xp",
  }),
  value_field: z.string().min(1).max(100).nullable().default(null).openapi({
    description: "The meta data field that holds the score; null: `amount` when the event has one, else 1 per event",
    example: "score",
  }),
  filters: z.array(CounterFilterInput).max(20).default([]),
  aggregation: z
    .enum(AGGREGATIONS)
    .default("sum")
    .openapi({
      description:
        "How a member's events make the score: sum adds, max keeps the highest, min the lowest, last the newest (by receipt time). " +
        "An event's event_type (single or group) does not matter to leaderboards",
    }),
  sort_order_ascending: z.boolean().default(false).openapi({
    description:
      "false: higher scores rank first; true: lower scores rank first (e.g. lap times). Changing it starts a new season",
  }),
  period_range: z
    .enum(PERIOD_RANGES)
    .nullable()
    .default(null)
    .openapi({
      description:
        "Seasons: d daily, w weekly on Monday, m monthly on the 1st, each at period_range_reset_at_time in period_range_time_zone; never or null: one season. " +
        "A reset starts an empty board; events count in the season they were received in. Changing the schedule starts a new season at once",
    }),
  period_range_reset_at_time: z
    .string()
    .refine((v) => parseWallClock(v) !== null, "must be a time HH:MM:SS (24 h)")
    .default("00:00:00"),
  period_range_time_zone: z
    .string()
    .refine(isValidTimeZone, "must be an IANA time zone such as Europe/Berlin")
    .default("UTC"),
  authoritative: z
    .boolean()
    .default(false)
    .openapi({
      description:
        "true: only events sent with an API key (the studio's backend) change this board; a game client's event (access token) " +
        "still counts for challenges and battle passes, but not here",
    }),
  min_value: ScoreBound.openapi({
    description:
      "Lowest value one event may bring (not the resulting score); null: none. An event below it is flagged for review, not applied",
  }),
  max_value: ScoreBound.openapi({
    description:
      "Highest value one event may bring (not the resulting score); null: none. An event above it is flagged for review, not applied",
  }),
  max_events_per_minute: z.number().int().min(1).max(1_000_000).nullable().default(null).openapi({
    description:
      "Events one player may bring to this board in any 60 seconds; null: no limit. The events past it are flagged for review, not applied",
  }),
});

/** The rule across a leaderboard's fields. */
export function boardRule(
  b: { min_value: number | null; max_value: number | null; event_name?: string; points_system: string | null },
  ctx: z.RefinementCtx,
): void {
  if (b.event_name !== undefined && b.points_system !== null)
    ctx.addIssue({
      code: "custom",
      message: "must not be given with event_name: a board ranks events or a points system",
      path: ["points_system"],
    });
  if (b.min_value !== null && b.max_value !== null && b.min_value > b.max_value)
    ctx.addIssue({ code: "custom", message: "must not be below min_value", path: ["max_value"] });
}

/**
 * A board ranks events or a points system, so it needs one of the two: checked even when other
 * fields of the board are wrong (a refinement alone would wait for them), so that every problem
 * shows at once.
 */
export const RANKS_SOMETHING: [
  (b: { event_name?: unknown; points_system?: unknown }) => boolean,
  { message: string; path: PropertyKey[]; when: (payload: { value: unknown }) => boolean },
] = [
  (b) => !(b.event_name === undefined && (b.points_system ?? null) === null),
  {
    message: "is required",
    path: ["event_name"],
    when: (payload) => typeof payload.value === "object" && payload.value !== null,
  },
];

export const LeaderboardInput = LeaderboardFields.superRefine(boardRule)
  .refine(...RANKS_SOMETHING)
  .openapi("LeaderboardInput");
export type LeaderboardInput = z.infer<typeof LeaderboardInput>;

export const LeaderboardAdmin = z
  .object({
    leaderboard_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    name: z.union([z.string(), z.record(z.string(), z.string())]),
    event_name: z.string(),
    points_system: z
      .string()
      .optional()
      .openapi({ description: "The points system ranked, on a board that ranks one" }),
    value_field: z.string().nullable(),
    filters: z.array(CounterFilterInput),
    aggregation: z.enum(AGGREGATIONS),
    sort_order_ascending: z.boolean(),
    period_range: z.enum(PERIOD_RANGES).nullable(),
    period_range_reset_at_time: z.string().nullable(),
    period_range_time_zone: z.string().nullable(),
    season_started_at: z.string().openapi({ description: "Start of the current season" }),
    nextReset: z.string().nullable().openapi({ description: "Start of the next season; null without a schedule" }),
    authoritative: z.boolean(),
    min_value: z.number().int().nullable(),
    max_value: z.number().int().nullable(),
    max_events_per_minute: z.number().int().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("LeaderboardAdmin");

// ---- Fair play: the review queue and removal of an entry ----

export const FlaggedSubmission = z
  .object({
    flag_id: z.string(),
    member_type: z.enum(MEMBER_TYPES),
    member_id: z.string(),
    value: z.number().int().openapi({ description: "The event's value for this board (what accepting applies)" }),
    reason: z.enum(FLAG_REASONS).openapi({
      description:
        "below_min_value / above_max_value: outside the board's bounds; over_max_events_per_minute: past the player's pace on this board",
    }),
    event_name: z.string(),
    flagged_at: z.string().openapi({ description: "When the event was received" }),
  })
  .openapi("FlaggedSubmission");

export const AcceptedSubmission = FlaggedSubmission.extend({
  member: z.object({ score: z.number().int(), rank: z.number().int() }).openapi({
    description:
      "The member's visible score and rank after the value was applied (rank -1: none, e.g. a banned player)",
  }),
}).openapi("AcceptedSubmission");

// ---- Public reads ----
