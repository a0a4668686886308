import type { z } from "@hono/zod-openapi";
import type { CategoryAdmin, ChallengeAdmin } from "../admin/schemas";
import { FormReader, type Decoded, type FormValues } from "../../kit/console/core/form";
import {
  compactFilters,
  compactLocalized,
  dateTimeToForm,
  filtersToForm,
  flag,
  localizedToForm,
  readDateTime,
  readFilters,
  readWallClock,
  readLocalized,
  pointsRewardsToForm,
  readPointsRewards,
} from "../../kit/console/forms/common";

/** The category and challenge forms: values ⇄ the admin API's CategoryInput and ChallengeInput. */

export function categoryToForm(c: z.infer<typeof CategoryAdmin>, defaultLanguage: string): FormValues {
  return {
    category_slug: c.category_slug,
    ...localizedToForm("category_name", c.category_name, defaultLanguage),
    category_position: String(c.category_position),
    is_daily_category: flag(c.is_daily_category),
    daily_challenge_count: String(c.daily_challenge_count),
  };
}

export function decodeCategory(submitted: FormValues): Decoded {
  const values = compactLocalized(submitted, "category_name");
  const form = new FormReader(values);
  const input = {
    category_slug: form.text("category_slug"),
    category_name: readLocalized(form, "category_name"),
    category_position: form.integer("category_position"),
    is_daily_category: form.checked("is_daily_category"),
    daily_challenge_count: form.integer("daily_challenge_count"),
  };
  return { input, problems: form.problems, values };
}

export function challengeToForm(c: z.infer<typeof ChallengeAdmin>, defaultLanguage: string): FormValues {
  return {
    key: c.key,
    category_id: c.category_id,
    ...localizedToForm("challenge_name", c.challenge_name, defaultLanguage),
    ...localizedToForm("challenge_description", c.challenge_description, defaultLanguage),
    challenge_goal: String(c.challenge_goal),
    challenge_goal_condition: String(c.challenge_goal_condition),
    challenge_duration_time: String(c.challenge_duration_time),
    live_date: dateTimeToForm(c.live_date),
    challenge_price: String(c.challenge_price),
    challenge_reward: c.challenge_reward,
    challenge_reward_type: c.challenge_reward_type,
    challenge_xp: String(c.challenge_xp),
    points_rewards: pointsRewardsToForm(c.points_rewards),
    challenge_icon: c.challenge_icon,
    challenge_icon_hd: c.challenge_icon_hd,
    repeatable: flag(c.repeatable),
    is_auto_activated: flag(c.is_auto_activated),
    period_range: c.period_range,
    period_range_reset_at_time: c.period_range_reset_at_time,
    period_range_time_zone: c.period_range_time_zone,
    event_name: c.event_name,
    value_field: c.value_field ?? "",
    ...filtersToForm("filters", c.filters),
    counter_scope: c.counter_scope,
  };
}

export function decodeChallenge(submitted: FormValues): Decoded {
  const values = compactFilters(
    compactLocalized(compactLocalized(submitted, "challenge_name"), "challenge_description"),
    "filters",
  );
  const form = new FormReader(values);
  const input = {
    key: form.optionalText("key"),
    category_id: form.text("category_id"),
    challenge_name: readLocalized(form, "challenge_name"),
    challenge_description: readLocalized(form, "challenge_description") ?? null,
    challenge_goal: form.integer("challenge_goal"),
    challenge_goal_condition: form.integer("challenge_goal_condition"),
    challenge_duration_time: form.integer("challenge_duration_time"),
    live_date: readDateTime(form, "live_date") ?? null,
    challenge_price: form.integer("challenge_price"),
    challenge_reward: form.text("challenge_reward"),
    challenge_reward_type: form.text("challenge_reward_type"),
    challenge_xp: form.integer("challenge_xp"),
    points_rewards: readPointsRewards(form, "points_rewards"),
    challenge_icon: form.text("challenge_icon"),
    challenge_icon_hd: form.text("challenge_icon_hd"),
    repeatable: form.checked("repeatable"),
    is_auto_activated: form.checked("is_auto_activated"),
    period_range: form.optionalText("period_range"),
    period_range_reset_at_time: readWallClock(form, "period_range_reset_at_time"),
    period_range_time_zone: form.optionalText("period_range_time_zone"),
    event_name: form.text("event_name"),
    value_field: form.nullableText("value_field"),
    filters: readFilters(form, "filters"),
    counter_scope: form.optionalText("counter_scope"),
  };
  return { input, problems: form.problems, values };
}
