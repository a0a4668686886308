import { localize } from "../../shared/localize";
import { toIso } from "../../shared/clock";
import type { NotificationType, Snapshot } from "./lifecycle";
import type { CategoryDef, ChallengeDef } from "./model";

/**
 * The Challenge and ChallengeCategory objects of the spec. `user_challenge_status` is a number in
 * SCILL's payloads whose meaning is not published; it is the position of `type` in this list.
 */
const STATUS_CODES: NotificationType[] = [
  "unlock",
  "unlocked",
  "in-progress",
  "unclaimed",
  "finished",
  "lost",
  "cancelled",
];

export interface Language {
  language?: string;
  defaultLanguage: string;
}

export function presentChallenge(def: ChallengeDef, snapshot: Snapshot, lang: Language) {
  const instance = snapshot.instance;
  const score = instance?.score ?? 0;
  const isClaimed = instance?.isClaimed ?? false;
  return {
    challenge_id: def.challengeId,
    user_challenge_id: instance?.userChallengeId ?? "0",
    challenge_name: localize(def.name, lang.language, lang.defaultLanguage),
    challenge_description: localize(def.description, lang.language, lang.defaultLanguage),
    challenge_duration_time: def.durationSeconds,
    live_date: def.liveDate,
    challenge_goal: def.goal,
    challenge_goal_condition: def.goalCondition,
    challenge_current_score: score,
    user_challenge_current_score: score,
    challenge_price: def.price,
    challenge_reward: def.reward,
    challenge_reward_type: def.rewardType,
    challenge_xp: def.xp,
    challenge_icon: def.icon,
    challenge_icon_hd: def.iconHd,
    repeatable: def.repeatable,
    type: snapshot.type,
    is_claimed: isClaimed,
    user_challenge_unlocked_at: instance?.unlockedAt != null ? toIso(instance.unlockedAt) : null,
    user_challenge_activated_at: instance?.activatedAt != null ? toIso(instance.activatedAt) : null,
    challenge_auto_activated: def.autoActivated,
    can_be_auto_activated: def.autoActivated,
    user_challenge_is_claimed: isClaimed,
    user_challenge_status: STATUS_CODES.indexOf(snapshot.type),
  };
}

export type ChallengeView = ReturnType<typeof presentChallenge>;

/** Unlock and activate answer fewer fields (spec): no description, no auto-activation flag. */
export function shortChallenge(view: ChallengeView) {
  const { challenge_description: _d, challenge_auto_activated: _a, ...rest } = view;
  return rest;
}

/**
 * `index`: the category's index in the categories array the user gets (spec: "Position index in the categories array").
 */
export function presentCategory(category: CategoryDef, index: number, challenges: ChallengeView[], lang: Language) {
  return {
    is_daily_category: category.isDaily,
    category_position: index,
    category_slug: category.slug,
    category_name: localize(category.name, lang.language, lang.defaultLanguage),
    category_id: category.categoryId,
    challenges,
  };
}

export type CategoryView = ReturnType<typeof presentCategory>;
