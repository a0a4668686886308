import { z } from "@hono/zod-openapi";
import { STREAK_PERIODS } from "./core/model";
import { TimeZone } from "./admin/schemas";

/** Zod schemas of the streaks API: the player's streaks and time zone, the operator's corrections. */

export const PlayerStreak = z
  .object({
    streak_id: z.string(),
    key: z.string(),
    name: z.string(),
    period: z.enum(STREAK_PERIODS),
    length: z
      .number()
      .int()
      .openapi({ description: "Kept periods in a row up to now; frozen ones bridge without counting" }),
    longest: z.number().int(),
    kept_this_period: z.boolean(),
    count_this_period: z.number().int(),
    min_count: z.number().int(),
    period_ends_at: z.string().openapi({ description: "When the current period ends (ISO 8601)" }),
    freezes: z.number().int(),
    started_at: z.string().nullable().openapi({ description: "Start of the current run's first period" }),
    last_kept_period_start: z.string().nullable(),
    lost_length: z.number().int().openapi({ description: "The length lost last (0: none to restore)" }),
  })
  .openapi("PlayerStreak");

export const PlayerStreaks = z.object({ streaks: z.array(PlayerStreak) }).openapi("PlayerStreaks");

export const UserTimeZone = z
  .object({ time_zone: TimeZone.nullable().openapi({ description: "IANA zone; null: never set" }) })
  .openapi("UserTimeZone");
export const UserTimeZoneInput = z.object({ time_zone: TimeZone }).strict().openapi("UserTimeZoneInput");

const StreakCalendarDay = z.object({
  period_start: z.string(),
  status: z.enum(["kept", "frozen", "missed"]),
});

/** The admin's view of a player's streaks (and their export). */
export const PlayerStreaksState = z
  .object({
    time_zone: z.string().nullable(),
    streaks: z.array(
      PlayerStreak.extend({
        freezes_max: z.number().int(),
        restorable: z.boolean(),
        calendar: z.array(StreakCalendarDay).openapi({ description: "The last closed periods, oldest first" }),
      }),
    ),
  })
  .openapi("PlayerStreaksState");

const StreakCorrectionView = z.object({
  streak_id: z.string(),
  key: z.string(),
  length: z.number().int(),
  longest: z.number().int(),
  freezes: z.number().int(),
  lost_length: z.number().int(),
});
export const StreakCorrectionAnswer = z
  .object({ before: StreakCorrectionView, after: StreakCorrectionView, reason: z.string() })
  .openapi("StreakCorrectionAnswer");

const Reason = z.string().trim().min(1, "is required: say why the player's state is corrected").max(500).openapi({
  description: "Why; kept in the audit log with the state before and after",
  example: "app outage on 3 May",
});

export const StreakRestoreInput = z.object({ reason: Reason }).strict().openapi("StreakRestoreInput");
export const StreakFreezesGrantInput = z
  .object({ amount: z.number().int().min(1).max(100).openapi({ example: 1 }), reason: Reason })
  .strict()
  .openapi("StreakFreezesGrantInput");
