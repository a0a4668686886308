import type { Change, TopicRef } from "../../changes/types";
import type { CatalogPass } from "../catalog";
import { changedChallenges, viewLevels, type ChallengeView, type LevelView, type PassProgress } from "./progress";

/** The webhook and realtime payloads of the spec for battle passes. */

const userTopic = (pass: CatalogPass, userId: string): TopicRef => ({
  kind: "user-battle-pass",
  appId: pass.appId,
  userId,
  battlePassId: pass.battlePassId,
});

/** BattlePassChallengeState of the spec. */
function challengeState(pass: CatalogPass, userId: string, level: LevelView, challenge: ChallengeView) {
  return {
    app_id: pass.appId,
    battle_pass_id: pass.battlePassId,
    level_id: level.levelId,
    user_id: userId,
    level_position_index: level.index,
    challenge_id: challenge.challengeId,
    challenge_position_index: challenge.index,
    challenge_goal: pass.levels[level.index].challenges[challenge.index].goal,
    user_challenge_current_score: challenge.score,
    type: challenge.type,
  };
}

/** One battlepass-challenge-changed per level challenge whose counter or type moved between two states. */
export function challengeChanges(
  pass: CatalogPass,
  userId: string,
  before: PassProgress | null,
  after: PassProgress | null,
  now: number,
): Change[] {
  return changedChallenges(viewLevels(pass, before, now), viewLevels(pass, after, now)).map((change) => ({
    appId: pass.appId,
    webhookType: "battlepass-challenge-changed",
    payload: {
      webhook_type: "battlepass-challenge-changed",
      old_battle_pass_challenge: challengeState(pass, userId, change.level, change.old),
      new_battle_pass_challenge: challengeState(pass, userId, change.level, change.new),
    },
    topic: userTopic(pass, userId),
    userId,
  }));
}

/**
 * battlepass-level-reward-claimed; the level's own reward URL, when set, receives it instead of the app's endpoints.
 */
export function rewardClaimedChange(pass: CatalogPass, userId: string, levelId: string): Change {
  const index = pass.levels.findIndex((l) => l.levelId === levelId);
  const level = pass.levels[index];
  return {
    appId: pass.appId,
    webhookType: "battlepass-level-reward-claimed",
    payload: {
      webhook_type: "battlepass-level-reward-claimed",
      battle_pass_level_reward_claimed: {
        app_id: pass.appId,
        battle_pass_id: pass.battlePassId,
        level_id: level.levelId,
        user_id: userId,
        level_position_index: index,
        reward_amount: level.rewardAmount,
        reward_type_name: level.rewardTypeName,
      },
    },
    topic: userTopic(pass, userId),
    userId,
    ...(level.rewardWebhookUrl ? { webhookUrl: level.rewardWebhookUrl } : {}),
  };
}

export interface PassStateSource {
  battlePassId: string;
  appId: string;
  priority: number;
  startDate: string;
  endDate: string;
  enabled: boolean;
}

/** battlepass-expired: the pass as it was while running, and as it is now that it ended (no longer active). */
export function expiredChange(pass: PassStateSource): Change {
  const state = (isActive: boolean) => ({
    battle_pass_id: pass.battlePassId,
    app_id: pass.appId,
    battle_pass_priority: pass.priority,
    start_date: pass.startDate,
    end_date: pass.endDate,
    is_active: isActive,
  });
  return {
    appId: pass.appId,
    webhookType: "battlepass-expired",
    payload: {
      webhook_type: "battlepass-expired",
      old_battle_pass: state(pass.enabled),
      new_battle_pass: state(false),
    },
    topic: null,
    userId: null,
  };
}
