import { battlePassShownFields } from "../fields";
import { PointsRewardsInput } from "../../apps/points-rewards";
import { z } from "@hono/zod-openapi";
import { EventName } from "../../shared/event-name";
import { CounterFilterInput } from "../../rules/schemas";
import { ConfigKey, DigitsId, Localized, LocalizedName as Name, LocalizedText, Text } from "../../shared/schemas";

const LocalizedInput = LocalizedText.openapi({ example: { en: "Season 1", de: "Saison 1" } });
const LocalizedName = Name.openapi({ example: { en: "Season 1", de: "Saison 1" } });

const IsoDate = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2025-06-01T00:00:00Z" });

const keyField = (kind: string, scope: string) =>
  ConfigKey.optional().openapi({
    description: `Stable key of the ${kind} in ${scope} (catalog documents); default ${kind}-<id>. Left out on PUT: unchanged`,
  });

/** The fields of a battle pass, without the rule across them (catalog documents reuse them: see passRule). */
export const BattlePassFields = z.object({
  battle_pass_name: LocalizedName,
  battle_pass_description: LocalizedInput.default(""),
  battle_pass_short_description: LocalizedInput.default(""),
  battle_pass_disclaimer: LocalizedInput.default(""),
  battle_pass_priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  package_sku_ios: Text(),
  package_sku_android: Text(),
  image_xs: Text(2000),
  image_s: Text(2000),
  image_m: Text(2000),
  image_l: Text(2000),
  image_xl: Text(2000),
  start_date: IsoDate.openapi({ example: "2025-06-01T00:00:00Z" }),
  end_date: IsoDate.openapi({ example: "2025-09-01T00:00:00Z" }),
  read_more_link: Text(2000),
  is_unlocked_incrementally: z.boolean().default(true),
  is_active: z
    .boolean()
    .default(true)
    .openapi({ description: "The admin's switch: a switched-off pass is not offered and tracks nothing" }),
  can_purchase_with_money: z.boolean().default(false),
  can_purchase_with_coins: z.boolean().default(false),
  backend_only_unlock: z.boolean().default(false).openapi({
    description:
      "true: only the studio's backend (an API key, after checking the purchase) may unlock the pass; a game client's unlock answers 403",
  }),
});

/** The rule across a battle pass's fields. */
export function passRule(p: { start_date: string; end_date: string }, ctx: z.RefinementCtx): void {
  if (!(Date.parse(p.end_date) > Date.parse(p.start_date)))
    ctx.addIssue({ code: "custom", message: "must be after start_date", path: ["end_date"] });
}

export const BattlePassInput = BattlePassFields.extend({ key: keyField("battle-pass", "this app") })
  .superRefine(passRule)
  .openapi("BattlePassInput");
export type BattlePassInput = z.infer<typeof BattlePassInput>;

export const BattlePassAdmin = z
  .object({
    battle_pass_id: z.string(),
    app_id: z.string(),
    key: z.string(),
    battle_pass_name: Localized,
    battle_pass_description: Localized,
    battle_pass_short_description: Localized,
    battle_pass_disclaimer: Localized,
    ...battlePassShownFields,
    is_active: z.boolean(),
    can_purchase_with_money: z.boolean(),
    can_purchase_with_coins: z.boolean(),
    backend_only_unlock: z.boolean(),
    expired_at: z
      .string()
      .nullable()
      .openapi({ description: "When the battlepass-expired webhook went out; null before" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("BattlePassAdmin");

/** Most challenges one level may hold. */
export const MAX_CHALLENGES_PER_LEVEL = 100;

export const LevelChallengeInput = z
  .object({
    challenge_id: DigitsId.optional().openapi({
      description:
        "On PUT: the id of an existing challenge of this level, to keep it (and users' progress in it). New challenges leave it out.",
    }),
    key: keyField("challenge", "its level"),
    challenge_name: LocalizedName,
    challenge_goal: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    challenge_goal_condition: z.union([z.literal(0), z.literal(1)]).default(0),
    challenge_xp: z.number().int().min(0).default(0),
    challenge_icon: Text(2000),
    challenge_icon_hd: Text(2000),
    event_name: EventName.openapi({ example: "kill-enemy" }),
    value_field: z.string().min(1).max(100).nullable().default(null).openapi({
      description: "The meta data field the counter adds; null: `amount` when the event has one, else 1 per event",
    }),
    filters: z.array(CounterFilterInput).max(20).default([]),
    counter_scope: z.enum(["session", "total"]).default("session"),
  })
  .openapi("BattlePassLevelChallengeInput");

/** The fields of a level, without the rule across them (catalog documents reuse them). */
export const LevelFields = z.object({
  level_priority: z.number().int().min(0).max(1_000_000).optional().openapi({
    description: "Position of the level; levels are ordered by it, then by id. Default: after the last level",
  }),
  reward_amount: Text(),
  reward_type_name: z.enum(["Coins", "Voucher", "Money", "Experience"]).optional().openapi({
    description: "Deprecated by the spec; default derived from level_reward_type",
  }),
  level_reward_type: z.enum(["nothing", "coin", "experience", "item"]).default("nothing"),
  reward_webhook_url: z.string().nullable().default(null).openapi({
    description:
      "Receives battlepass-level-reward-claimed for this level instead of the app's endpoints of that type. It is signed (and given secret_key) with the secret of the app's first battlepass-level-reward-claimed endpoint, which must therefore exist.",
    example: "https://game.example.com/hooks/level-reward",
  }),
  points_rewards: PointsRewardsInput,
  challenges: z.array(LevelChallengeInput).min(1).max(MAX_CHALLENGES_PER_LEVEL),
});

export const LevelInput = LevelFields.extend({ key: keyField("level", "its battle pass") })
  .superRefine((level, ctx) => {
    const ids = level.challenges.map((c) => c.challenge_id).filter((id) => id !== undefined);
    if (new Set(ids).size !== ids.length)
      ctx.addIssue({ code: "custom", message: "challenge ids must be unique", path: ["challenges"] });
    // Keys are unique in the level: a repeat is named where it is, rather than as the write's clash.
    const keys = new Set<string>();
    level.challenges.forEach((c, i) => {
      if (c.key === undefined) return;
      if (keys.has(c.key))
        ctx.addIssue({
          code: "custom",
          message: `'${c.key}' is the key of another challenge of this level`,
          path: ["challenges", i, "key"],
        });
      keys.add(c.key);
    });
  })
  .openapi("BattlePassLevelInput");
export type LevelInput = z.infer<typeof LevelInput>;

export const LevelChallengeAdmin = z
  .object({
    challenge_id: z.string(),
    key: z.string(),
    challenge_name: Localized,
    challenge_goal: z.number().int(),
    challenge_goal_condition: z.number().int(),
    challenge_xp: z.number().int(),
    challenge_icon: z.string(),
    challenge_icon_hd: z.string(),
    event_name: z.string(),
    value_field: z.string().nullable(),
    filters: z.array(CounterFilterInput),
    counter_scope: z.string(),
  })
  .openapi("BattlePassLevelChallengeAdmin");

export const LevelAdmin = z
  .object({
    level_id: z.string(),
    app_id: z.string(),
    battle_pass_id: z.string(),
    key: z.string(),
    level_priority: z.number().int(),
    reward_amount: z.string(),
    reward_type_name: z.string(),
    level_reward_type: z.string(),
    reward_webhook_url: z.string().nullable(),
    points_rewards: z.array(z.object({ system: z.string(), amount: z.number().int() })),
    challenges: z.array(LevelChallengeAdmin),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .openapi("BattlePassLevelAdmin");

export const LevelOrder = z
  .object({
    level_ids: z
      .array(DigitsId)
      .max(10_000)
      .openapi({ description: "Every level of the pass, once, first level first" }),
  })
  .openapi("BattlePassLevelOrder");
