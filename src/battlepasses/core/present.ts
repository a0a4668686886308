import { toIso } from "../../shared/clock";
import { localize } from "../../shared/localize";
import type { CatalogPass } from "../catalog";
import { isPassCompleted, isTracking, viewLevels, type PassProgress } from "./progress";

/** The spec's BattlePass, BattlePassLevel and BattlePassLevelChallenge in one language. */

export interface Presentation {
  language: string | undefined;
  defaultLanguage: string;
  now: number;
}

const isoOrNull = (ms: number | null | undefined) => (ms == null ? null : toIso(ms));

/** `is_active`: the admin's switch and the season running now (false before start_date and after end_date). */
export function presentPass(pass: CatalogPass, progress: PassProgress | null, p: Presentation) {
  const text = (value: CatalogPass["name"]) => localize(value, p.language, p.defaultLanguage);
  return {
    battle_pass_id: pass.battlePassId,
    app_id: pass.appId,
    battle_pass_name: text(pass.name),
    battle_pass_description: text(pass.description),
    battle_pass_short_description: text(pass.shortDescription),
    battle_pass_disclaimer: text(pass.disclaimer),
    battle_pass_priority: pass.priority,
    package_sku_ios: pass.packageSkuIos,
    package_sku_android: pass.packageSkuAndroid,
    ...pass.images,
    start_date: pass.startDate,
    end_date: pass.endDate,
    read_more_link: pass.readMoreLink,
    is_unlocked_incrementally: pass.incremental,
    is_active: isTracking(pass, p.now),
    unlocked_at: isoOrNull(progress?.unlockedAt),
    can_purchase_with_money: pass.canPurchaseWithMoney,
    can_purchase_with_coins: pass.canPurchaseWithCoins,
  };
}

/** The pass with the user's status: their purchase (SCILL's BattlePassUnlockInfo fields) and completion. */
export function presentPassForUser(pass: CatalogPass, progress: PassProgress | null, userId: string, p: Presentation) {
  return {
    ...presentPass(pass, progress, p),
    user_id: userId,
    purchase_price: progress?.purchasePrice ?? null,
    purchase_currency: progress?.purchaseCurrency ?? null,
    purchased_at: isoOrNull(progress?.unlockedAt),
    battle_pass_completed: isPassCompleted(pass, progress),
  };
}

export function presentLevels(pass: CatalogPass, progress: PassProgress | null, p: Presentation) {
  return viewLevels(pass, progress, p.now).map((view) => {
    const level = pass.levels[view.index];
    return {
      level_id: level.levelId,
      app_id: level.appId,
      battle_pass_id: level.battlePassId,
      reward_amount: level.rewardAmount,
      reward_type_name: level.rewardTypeName,
      level_reward_type: level.levelRewardType,
      level_completed: view.completed,
      level_priority: level.priority,
      reward_claimed: view.rewardClaimed,
      activated_at: isoOrNull(view.activatedAt),
      challenges: view.challenges.map((c) => {
        const def = level.challenges[c.index];
        return {
          challenge_id: def.challengeId,
          challenge_name: localize(def.name, p.language, p.defaultLanguage),
          challenge_goal: def.goal,
          challenge_goal_condition: def.goalCondition,
          user_challenge_current_score: c.score,
          challenge_xp: def.xp,
          challenge_icon: def.icon,
          challenge_icon_hd: def.iconHd,
          type: c.type,
        };
      }),
    };
  });
}
