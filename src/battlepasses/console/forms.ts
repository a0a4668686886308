import type { z } from "@hono/zod-openapi";
import type { BattlePassAdmin, LevelAdmin } from "../admin/schemas";
import { FormReader, rowsOf, withRows, type Decoded, type FormValues } from "../../kit/console/core/form";
import {
  compactFilters,
  compactLocalized,
  dateTimeToForm,
  filtersToForm,
  flag,
  localizedToForm,
  readDateTime,
  readFilters,
  readLocalized,
  pointsRewardsToForm,
  readPointsRewards,
} from "../../kit/console/forms/common";

/** The battle pass and level forms: values ⇄ the admin API's BattlePassInput and LevelInput. */

const PASS_LOCALIZED = [
  "battle_pass_name",
  "battle_pass_description",
  "battle_pass_short_description",
  "battle_pass_disclaimer",
] as const;
const PASS_TEXTS = [
  "package_sku_ios",
  "package_sku_android",
  "image_xs",
  "image_s",
  "image_m",
  "image_l",
  "image_xl",
  "read_more_link",
] as const;
const PASS_FLAGS = [
  "is_unlocked_incrementally",
  "is_active",
  "can_purchase_with_money",
  "can_purchase_with_coins",
] as const;

export function passToForm(p: z.infer<typeof BattlePassAdmin>, defaultLanguage: string): FormValues {
  return {
    key: p.key,
    ...Object.assign({}, ...PASS_LOCALIZED.map((name) => localizedToForm(name, p[name], defaultLanguage))),
    battle_pass_priority: String(p.battle_pass_priority),
    ...Object.fromEntries(PASS_TEXTS.map((name) => [name, p[name]])),
    ...Object.fromEntries(PASS_FLAGS.map((name) => [name, flag(p[name])])),
    start_date: dateTimeToForm(p.start_date),
    end_date: dateTimeToForm(p.end_date),
  };
}

/** A new pass starts with the API's defaults for its switches. */
export const NEW_PASS: FormValues = { is_unlocked_incrementally: "on", is_active: "on" };

export function decodePass(submitted: FormValues): Decoded {
  const values = PASS_LOCALIZED.reduce(compactLocalized, submitted);
  const form = new FormReader(values);
  const input = {
    key: form.optionalText("key"),
    ...Object.fromEntries(PASS_LOCALIZED.map((name) => [name, readLocalized(form, name)])),
    battle_pass_priority: form.integer("battle_pass_priority"),
    ...Object.fromEntries(PASS_TEXTS.map((name) => [name, form.text(name)])),
    ...Object.fromEntries(PASS_FLAGS.map((name) => [name, form.checked(name)])),
    start_date: readDateTime(form, "start_date"),
    end_date: readDateTime(form, "end_date"),
  };
  return { input, problems: form.problems, values };
}

// ---- levels with their challenges (rows of `challenges`, each with its own filters and names)

type LevelChallenge = z.infer<typeof LevelAdmin>["challenges"][number];

function levelChallengeToRow(c: LevelChallenge, defaultLanguage: string): FormValues {
  return {
    challenge_id: c.challenge_id,
    key: c.key,
    ...localizedToForm("challenge_name", c.challenge_name, defaultLanguage),
    challenge_goal: String(c.challenge_goal),
    challenge_goal_condition: String(c.challenge_goal_condition),
    challenge_xp: String(c.challenge_xp),
    challenge_icon: c.challenge_icon,
    challenge_icon_hd: c.challenge_icon_hd,
    event_name: c.event_name,
    value_field: c.value_field ?? "",
    ...filtersToForm("filters", c.filters),
    counter_scope: c.counter_scope,
  };
}

export function levelToForm(level: z.infer<typeof LevelAdmin>, defaultLanguage: string): FormValues {
  const base = {
    key: level.key,
    level_priority: String(level.level_priority),
    reward_amount: level.reward_amount,
    reward_type_name: level.reward_type_name,
    level_reward_type: level.level_reward_type,
    reward_webhook_url: level.reward_webhook_url ?? "",
    points_rewards: pointsRewardsToForm(level.points_rewards),
  };
  return withRows(
    base,
    "challenges",
    level.challenges.map((c) => levelChallengeToRow(c, defaultLanguage)),
  );
}

/** A new level offers one challenge to fill in. */
export const NEW_LEVEL: FormValues = {
  level_reward_type: "nothing",
  "challenges.0.challenge_goal_condition": "0",
  "challenges.0.counter_scope": "session",
};

const CHALLENGE_FIELDS = [
  "key",
  "challenge_name.0.text",
  "challenge_goal",
  "event_name",
  "challenge_icon",
  "value_field",
];

/** A challenge row counts when anything of it was filled in (its selects alone do not count). */
const challengeFilled = (row: FormValues) =>
  (row.challenge_id ?? "") !== "" ||
  Object.entries(row).some(
    ([name, value]) =>
      (CHALLENGE_FIELDS.includes(name) || /^challenge_name\.\d+\.text$|^filters\.\d+\.(field|value)$/.test(name)) &&
      value.trim() !== "",
  );

export function decodeLevel(submitted: FormValues): Decoded {
  const rows = rowsOf(submitted, "challenges")
    .filter(challengeFilled)
    .map((row) => compactFilters(compactLocalized(row, "challenge_name"), "filters"));
  const values = withRows(submitted, "challenges", rows);
  const form = new FormReader(values);
  const challenges = rows.map((_, i) => {
    const at = (name: string) => `challenges.${i}.${name}`;
    return {
      challenge_id: form.optionalText(at("challenge_id")),
      key: form.optionalText(at("key")),
      challenge_name: readLocalized(form, at("challenge_name")),
      challenge_goal: form.integer(at("challenge_goal")),
      challenge_goal_condition: form.integer(at("challenge_goal_condition")),
      challenge_xp: form.integer(at("challenge_xp")),
      challenge_icon: form.text(at("challenge_icon")),
      challenge_icon_hd: form.text(at("challenge_icon_hd")),
      event_name: form.text(at("event_name")),
      value_field: form.nullableText(at("value_field")),
      filters: readFilters(form, at("filters")),
      counter_scope: form.optionalText(at("counter_scope")),
    };
  });
  const input = {
    key: form.optionalText("key"),
    level_priority: form.integer("level_priority"),
    reward_amount: form.text("reward_amount"),
    reward_type_name: form.optionalText("reward_type_name"),
    level_reward_type: form.optionalText("level_reward_type"),
    reward_webhook_url: form.nullableText("reward_webhook_url"),
    points_rewards: readPointsRewards(form, "points_rewards"),
    challenges,
  };
  return { input, problems: form.problems, values };
}
