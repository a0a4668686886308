import { PointsRewardsInput } from "../../apps/points-rewards";
import { z } from "@hono/zod-openapi";
import { EventName } from "../../shared/event-name";
import { challengeFieldDocs, challengeShownFields } from "../fields";
import { CounterFilterInput } from "../../rules/schemas";
import { PERIOD_RANGES, isValidTimeZone, parseWallClock } from "../../rules/schedule";
import {
  ConfigKey,
  DigitsId,
  Localized,
  LocalizedName as Name,
  LocalizedText as LongText,
  Text,
} from "../../shared/schemas";

/** Zod schemas of the admin API for categories and challenges. */

/** Most challenges one category may hold (spec limit). */
export const MAX_CHALLENGES_PER_CATEGORY = 1000;

const LocalizedName = Name.openapi({ example: { en: "Kill 10 enemies", de: "Besiege 10 Gegner" } });
const LocalizedText = LongText.openapi({ example: { en: "Any weapon counts", de: "Jede Waffe zählt" } });
const Int = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const MetaValue = z.union([z.number().int(), z.string().max(500)]);

export const CategoryInput = z
  .object({
    category_slug: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_-]{0,99}$/, "must be lower-case letters, digits, - and _ (at most 100)")
      .openapi({ example: "daily-quests" }),
    category_name: LocalizedName,
    category_position: z.number().int().min(0).max(1_000_000).default(0),
    is_daily_category: z.boolean().default(false),
    daily_challenge_count: z.number().int().min(1).max(MAX_CHALLENGES_PER_CATEGORY).default(3).openapi({
      description: "In a daily category: how many challenges of its pool are shown each day",
    }),
  })
  .openapi("ChallengeCategoryInput");
export type CategoryInput = z.infer<typeof CategoryInput>;

export const CategoryAdmin = z
  .object({
    category_id: z.string(),
    app_id: z.string(),
    category_slug: z.string(),
    category_name: Localized,
    category_position: z.number().int(),
    is_daily_category: z.boolean(),
    daily_challenge_count: z.number().int(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ChallengeCategoryAdmin");

/** The fields of a challenge, without the rule across them (catalog documents reuse them: see challengeRule). */
export const ChallengeFields = z.object({
  category_id: DigitsId.openapi({ example: "1" }),
  challenge_name: LocalizedName,
  challenge_description: LocalizedText.nullable().default(null),
  challenge_goal: z.number().int().min(0, "must not be negative").max(Number.MAX_SAFE_INTEGER).openapi({ example: 10 }),
  challenge_goal_condition: z
    .union([z.literal(0), z.literal(1)])
    .default(0)
    .openapi({ description: challengeFieldDocs.challenge_goal_condition }),
  challenge_duration_time: z
    .number()
    .int()
    .max(Number.MAX_SAFE_INTEGER / 1000)
    .refine((v) => v === -1 || v > 0, "must be -1 (no time-out) or a positive number of seconds")
    .default(-1)
    .openapi({ description: challengeFieldDocs.challenge_duration_time }),
  live_date: z.iso
    .datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2025-06-01T00:00:00Z" })
    .nullable()
    .default(null)
    .openapi({ description: challengeFieldDocs.live_date }),
  challenge_price: Int.default(0),
  challenge_reward: Text(),
  challenge_reward_type: Text(),
  challenge_xp: Int.default(0).openapi({
    description: "Credited to the app's points system with credits_challenge_xp, if any, when the challenge is claimed",
  }),
  points_rewards: PointsRewardsInput,
  challenge_icon: Text(2000),
  challenge_icon_hd: Text(2000),
  repeatable: z.boolean().default(false),
  is_auto_activated: z.boolean().default(false),
  period_range: z.enum(PERIOD_RANGES).default("never").openapi({
    description: "Reset of an automatic challenge: d daily, w weekly on Monday, m monthly on the 1st, never",
  }),
  period_range_reset_at_time: z
    .string()
    .refine((v) => parseWallClock(v) !== null, "must be a time HH:MM:SS (24 h)")
    .default("00:00:00"),
  period_range_time_zone: z
    .string()
    .refine(isValidTimeZone, "must be an IANA time zone such as Europe/Berlin")
    .default("UTC"),
  event_name: EventName.openapi({ example: "kill-enemy" }),
  value_field: z.string().min(1).max(100).nullable().default(null).openapi({
    description: "The meta data field the counter adds; null: `amount` when the event has one, else 1 per event",
  }),
  filters: z.array(CounterFilterInput).max(20).default([]),
  counter_scope: z.enum(["session", "total"]).default("session").openapi({
    description: "session (spec): a new session_id resets the counter; total: sessions do not reset it",
  }),
});

/** The rule across a challenge's fields. */
export function challengeRule(
  c: { period_range: string; is_auto_activated: boolean; repeatable: boolean },
  ctx: z.RefinementCtx,
): void {
  if (c.period_range !== "never" && !(c.is_auto_activated && c.repeatable)) {
    ctx.addIssue({
      code: "custom",
      path: ["period_range"],
      message:
        "periodic resets apply to automatic, repeatable challenges: set is_auto_activated and repeatable, or period_range never",
    });
  }
}

export const ChallengeInput = ChallengeFields.extend({
  key: ConfigKey.optional().openapi({
    description:
      "Stable key of the challenge in this app (catalog documents); default challenge-<id>. Left out on PUT: unchanged",
  }),
})
  .superRefine(challengeRule)
  .openapi("ChallengeInput");
export type ChallengeInput = z.infer<typeof ChallengeInput>;

export const ChallengeAdmin = z
  .object({
    challenge_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    category_id: z.string(),
    challenge_name: Localized,
    challenge_description: Localized.nullable(),
    ...challengeShownFields,
    points_rewards: z.array(z.object({ system: z.string(), amount: z.number().int() })),
    is_auto_activated: z.boolean(),
    period_range: z.string(),
    period_range_reset_at_time: z.string(),
    period_range_time_zone: z.string(),
    event_name: z.string(),
    value_field: z.string().nullable(),
    filters: z.array(z.object({ field: z.string(), op: z.string(), value: z.union([MetaValue, z.array(MetaValue)]) })),
    counter_scope: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("ChallengeAdmin");
