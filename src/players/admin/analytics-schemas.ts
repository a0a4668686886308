import { z } from "@hono/zod-openapi";
import { DEFAULT_PLAYER_DAYS, MAX_PLAYER_DAYS } from "../core/player-analytics";

/** Zod schemas of the players' analytics and the unused events (admin API). */

export const DayRangeQuery = z.object({
  from: z
    .string()
    .optional()
    .openapi({
      description: `First UTC day (YYYY-MM-DD), included. Default: ${DEFAULT_PLAYER_DAYS - 1} days before \`to\`.`,
      example: "2025-01-01",
    }),
  to: z
    .string()
    .optional()
    .openapi({
      description: `Last UTC day (YYYY-MM-DD), included; not after today. Default: today. At most ${MAX_PLAYER_DAYS} days from \`from\`, both included.`,
      example: "2025-01-30",
    }),
});

const Day = z.string().openapi({ example: "2025-01-30" });

const RetentionPoint = z
  .object({
    players: z.number().int().openapi({ description: "The day's new players active again that many days later" }),
    share: z.number().openapi({ description: "players / new_players, from 0 to 1", example: 0.4 }),
  })
  .nullable()
  .openapi({ description: "Null while that day has not come yet" });

export const PlayersAnalytics = z
  .object({
    app_id: z.string(),
    from: Day,
    to: Day,
    data_starts: Day.nullable().openapi({
      description:
        "The app's first UTC day with players counted, or null before any. Days before it have no counts; players from before it count from their next event, as active (never as new).",
    }),
    days: z.array(
      z.object({
        day: Day,
        active: z.number().int().openapi({ description: "Players who sent an event that UTC day" }),
        new: z.number().int().openapi({ description: "Of them, those whose first event was that day" }),
        returning: z.number().int().openapi({ description: "Of them, those who had played before (active - new)" }),
      }),
    ),
    retention: z
      .array(
        z.object({
          first_day: Day,
          new_players: z.number().int(),
          day_1: RetentionPoint,
          day_7: RetentionPoint,
          day_30: RetentionPoint,
        }),
      )
      .openapi({
        description:
          "Per day of the range with new players, newest first: the share active again 1, 7 and 30 days later",
      }),
    events_by_hour: z
      .array(
        z.object({
          hour: z.string().openapi({ description: "Start of the UTC hour", example: "2025-01-30T14:00:00.000Z" }),
          count: z.number().int(),
        }),
      )
      .openapi({ description: "The app's events in each of the last 48 UTC hours, the current one last" }),
  })
  .openapi("PlayersAnalytics");

export const UnusedEvents = z
  .object({
    app_id: z.string(),
    from: Day,
    to: Day,
    counted_event_names: z
      .array(z.string())
      .openapi({ description: "Every event name a configuration counts (challenges, leaderboards, points...)" }),
    every_event_counts: z.boolean().openapi({
      description: "Something counts every event (a streak of any event): then no event name is unused",
    }),
    items: z
      .array(
        z.object({
          event_name: z.string(),
          count: z.number().int().openapi({ description: "Events of this name received in the range" }),
          similar: z
            .array(z.string())
            .openapi({ description: "Counted event names within two edits: what was probably meant" }),
        }),
      )
      .openapi({ description: "Event names received in the range that no configuration counts, most sent first" }),
  })
  .openapi("UnusedEvents");
