import type { Localized } from "../shared/localize";
import { parsePointsRewards } from "../apps/points-rewards";
import type { CounterFilter, CounterScope } from "../rules/counter";
import type { CategoryDef, ChallengeDef } from "./core/model";
import type { PeriodRange } from "../rules/schedule";

/** D1 rows of the challenge catalog and their mapping to the admin API and to the core. */

export interface CategoryRow {
  category_id: number;
  app_id: number;
  category_slug: string;
  category_name: string;
  category_position: number;
  is_daily_category: number;
  daily_challenge_count: number;
  created_at: string;
  updated_at: string;
}

export interface ChallengeRow {
  challenge_id: number;
  app_id: number;
  /** Chosen by the studio, else challenge-<id> (migrations/0010_catalog_keys.sql). */
  key: string;
  category_id: number;
  challenge_name: string;
  challenge_description: string | null;
  challenge_goal: number;
  challenge_goal_condition: number;
  challenge_duration_time: number;
  live_date: string | null;
  challenge_price: number;
  challenge_reward: string;
  challenge_reward_type: string;
  challenge_xp: number;
  /** JSON array of {system, amount} (migrations/0016_points.sql). */
  points_rewards: string;
  challenge_icon: string;
  challenge_icon_hd: string;
  repeatable: number;
  is_auto_activated: number;
  period_range: string;
  period_range_reset_at_time: string;
  period_range_time_zone: string;
  event_name: string;
  value_field: string | null;
  filters: string;
  counter_scope: string;
  created_at: string;
  updated_at: string;
}

const parseLocalized = (text: string): Localized => JSON.parse(text) as Localized;

export const presentCategoryRow = (row: CategoryRow) => ({
  category_id: String(row.category_id),
  app_id: String(row.app_id),
  category_slug: row.category_slug,
  category_name: parseLocalized(row.category_name),
  category_position: row.category_position,
  is_daily_category: row.is_daily_category === 1,
  daily_challenge_count: row.daily_challenge_count,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export const presentChallengeRow = (row: ChallengeRow) => ({
  challenge_id: String(row.challenge_id),
  app_id: String(row.app_id),
  key: row.key,
  category_id: String(row.category_id),
  challenge_name: parseLocalized(row.challenge_name),
  challenge_description: row.challenge_description === null ? null : parseLocalized(row.challenge_description),
  challenge_goal: row.challenge_goal,
  challenge_goal_condition: row.challenge_goal_condition,
  challenge_duration_time: row.challenge_duration_time,
  live_date: row.live_date,
  challenge_price: row.challenge_price,
  challenge_reward: row.challenge_reward,
  challenge_reward_type: row.challenge_reward_type,
  challenge_xp: row.challenge_xp,
  points_rewards: parsePointsRewards(row.points_rewards),
  challenge_icon: row.challenge_icon,
  challenge_icon_hd: row.challenge_icon_hd,
  repeatable: row.repeatable === 1,
  is_auto_activated: row.is_auto_activated === 1,
  period_range: row.period_range,
  period_range_reset_at_time: row.period_range_reset_at_time,
  period_range_time_zone: row.period_range_time_zone,
  event_name: row.event_name,
  value_field: row.value_field,
  filters: JSON.parse(row.filters) as CounterFilter[],
  counter_scope: row.counter_scope,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

export function toChallengeDef(row: ChallengeRow): ChallengeDef {
  return {
    challengeId: String(row.challenge_id),
    key: row.key,
    categoryId: String(row.category_id),
    name: parseLocalized(row.challenge_name),
    description: row.challenge_description === null ? null : parseLocalized(row.challenge_description),
    goal: row.challenge_goal,
    goalCondition: row.challenge_goal_condition === 1 ? 1 : 0,
    durationSeconds: row.challenge_duration_time,
    liveDate: row.live_date,
    price: row.challenge_price,
    reward: row.challenge_reward,
    rewardType: row.challenge_reward_type,
    xp: row.challenge_xp,
    pointsRewards: parsePointsRewards(row.points_rewards),
    icon: row.challenge_icon,
    iconHd: row.challenge_icon_hd,
    repeatable: row.repeatable === 1,
    autoActivated: row.is_auto_activated === 1,
    period: {
      period: row.period_range as PeriodRange,
      resetAtTime: row.period_range_reset_at_time,
      timeZone: row.period_range_time_zone,
    },
    counter: {
      eventName: row.event_name,
      valueField: row.value_field,
      filters: JSON.parse(row.filters) as CounterFilter[],
      goal: row.challenge_goal,
      goalCondition: row.challenge_goal_condition === 1 ? 1 : 0,
      counterScope: row.counter_scope as CounterScope,
    },
  };
}

export function toCategoryDef(row: CategoryRow, challenges: ChallengeDef[]): CategoryDef {
  return {
    categoryId: String(row.category_id),
    slug: row.category_slug,
    name: parseLocalized(row.category_name),
    position: row.category_position,
    isDaily: row.is_daily_category === 1,
    dailyChallengeCount: row.daily_challenge_count,
    challenges,
  };
}
