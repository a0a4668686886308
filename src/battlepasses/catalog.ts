import { parsePointsRewards } from "../apps/points-rewards";
import { cachedCatalog } from "../apps/catalog-cache";
import type { CounterFilter, CounterScope, GoalCondition } from "../rules/counter";
import type { Localized } from "../shared/localize";
import type { ChallengeDef, LevelDef, PassDef } from "./core/progress";

/** D1 rows, as migrations/0005_battlepasses.sql defines them. */
export interface PassRow {
  battle_pass_id: number;
  app_id: number;
  /**
   * Chosen by the studio, else battle-pass-<id> (migrations/0010_catalog_keys.sql); levels and level challenges alike.
   */
  key: string;
  battle_pass_name: string;
  battle_pass_description: string;
  battle_pass_short_description: string;
  battle_pass_disclaimer: string;
  battle_pass_priority: number;
  package_sku_ios: string;
  package_sku_android: string;
  image_xs: string;
  image_s: string;
  image_m: string;
  image_l: string;
  image_xl: string;
  start_date: string;
  end_date: string;
  read_more_link: string;
  is_unlocked_incrementally: number;
  is_active: number;
  can_purchase_with_money: number;
  can_purchase_with_coins: number;
  backend_only_unlock: number;
  expired_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface LevelRow {
  level_id: number;
  app_id: number;
  battle_pass_id: number;
  key: string;
  level_priority: number;
  reward_amount: string;
  reward_type_name: string;
  level_reward_type: string;
  reward_webhook_url: string | null;
  /** JSON array of {system, amount} (migrations/0016_points.sql). */
  points_rewards: string;
  created_at: string;
  updated_at: string;
}

export interface ChallengeRow {
  challenge_id: number;
  app_id: number;
  level_id: number;
  key: string;
  position: number;
  challenge_name: string;
  challenge_goal: number;
  challenge_goal_condition: number;
  challenge_xp: number;
  challenge_icon: string;
  challenge_icon_hd: string;
  event_name: string;
  value_field: string | null;
  filters: string;
  counter_scope: string;
}

/** One level challenge of the catalog: the counter definition plus what is shown. */
export interface CatalogChallenge extends ChallengeDef {
  /** Unique within its level. */
  key: string;
  name: Localized;
  xp: number;
  icon: string;
  iconHd: string;
}

export interface CatalogLevel extends LevelDef {
  appId: string;
  battlePassId: string;
  priority: number;
  rewardAmount: string;
  rewardTypeName: string;
  levelRewardType: string;
  rewardWebhookUrl: string | null;
  /** Points credited to the app's points systems when the level's reward is claimed. */
  pointsRewards: { system: string; amount: number }[];
  challenges: CatalogChallenge[];
}

export interface CatalogPass extends PassDef {
  appId: string;
  name: Localized;
  description: Localized;
  shortDescription: Localized;
  disclaimer: Localized;
  priority: number;
  packageSkuIos: string;
  packageSkuAndroid: string;
  images: { image_xs: string; image_s: string; image_m: string; image_l: string; image_xl: string };
  startDate: string;
  endDate: string;
  readMoreLink: string;
  canPurchaseWithMoney: boolean;
  canPurchaseWithCoins: boolean;
  /** Only an API key may unlock it (a client's unlock is refused). */
  backendOnlyUnlock: boolean;
  levels: CatalogLevel[];
}

/** An app's battle passes, ordered by priority then id, each with its levels in position order. */
export interface BattlePassCatalog {
  defaultLanguage: string;
  passes: CatalogPass[];
}

export const parseLocalized = (text: string): Localized => JSON.parse(text) as Localized;

export function toCatalogChallenge(row: ChallengeRow): CatalogChallenge {
  return {
    challengeId: String(row.challenge_id),
    key: row.key,
    name: parseLocalized(row.challenge_name),
    goal: row.challenge_goal,
    goalCondition: row.challenge_goal_condition as GoalCondition,
    xp: row.challenge_xp,
    icon: row.challenge_icon,
    iconHd: row.challenge_icon_hd,
    eventName: row.event_name,
    valueField: row.value_field,
    filters: JSON.parse(row.filters) as CounterFilter[],
    counterScope: row.counter_scope as CounterScope,
  };
}

export function toCatalogLevel(row: LevelRow, challenges: CatalogChallenge[]): CatalogLevel {
  return {
    levelId: String(row.level_id),
    appId: String(row.app_id),
    battlePassId: String(row.battle_pass_id),
    priority: row.level_priority,
    rewardAmount: row.reward_amount,
    rewardTypeName: row.reward_type_name,
    levelRewardType: row.level_reward_type,
    rewardWebhookUrl: row.reward_webhook_url,
    pointsRewards: parsePointsRewards(row.points_rewards),
    challenges,
  };
}

export function toCatalogPass(row: PassRow, levels: CatalogLevel[]): CatalogPass {
  return {
    battlePassId: String(row.battle_pass_id),
    appId: String(row.app_id),
    name: parseLocalized(row.battle_pass_name),
    description: parseLocalized(row.battle_pass_description),
    shortDescription: parseLocalized(row.battle_pass_short_description),
    disclaimer: parseLocalized(row.battle_pass_disclaimer),
    priority: row.battle_pass_priority,
    packageSkuIos: row.package_sku_ios,
    packageSkuAndroid: row.package_sku_android,
    images: {
      image_xs: row.image_xs,
      image_s: row.image_s,
      image_m: row.image_m,
      image_l: row.image_l,
      image_xl: row.image_xl,
    },
    startDate: row.start_date,
    endDate: row.end_date,
    startMs: Date.parse(row.start_date),
    endMs: Date.parse(row.end_date),
    readMoreLink: row.read_more_link,
    enabled: row.is_active === 1,
    incremental: row.is_unlocked_incrementally === 1,
    canPurchaseWithMoney: row.can_purchase_with_money === 1,
    canPurchaseWithCoins: row.can_purchase_with_coins === 1,
    backendOnlyUnlock: row.backend_only_unlock === 1,
    levels,
  };
}

/** Challenges grouped by level, in position order. */
export function groupChallenges(rows: ChallengeRow[]): Map<number, CatalogChallenge[]> {
  const byLevel = new Map<number, CatalogChallenge[]>();
  for (const row of rows) {
    const list = byLevel.get(row.level_id) ?? [];
    list.push(toCatalogChallenge(row));
    byLevel.set(row.level_id, list);
  }
  return byLevel;
}

export const LEVEL_ORDER = "level_priority, level_id";
export const PASS_ORDER = "battle_pass_priority, battle_pass_id";

async function loadBattlePassCatalog(db: D1Database, appId: string): Promise<BattlePassCatalog> {
  const id = Number(appId);
  const [app, passes, levels, challenges] = await db.batch<unknown>([
    db.prepare("SELECT default_language FROM apps WHERE app_id = ?").bind(id),
    db.prepare(`SELECT * FROM battle_passes WHERE app_id = ? ORDER BY ${PASS_ORDER}`).bind(id),
    db.prepare(`SELECT * FROM battle_pass_levels WHERE app_id = ? ORDER BY ${LEVEL_ORDER}`).bind(id),
    db.prepare("SELECT * FROM battle_pass_challenges WHERE app_id = ? ORDER BY level_id, position").bind(id),
  ]);
  const byLevel = groupChallenges(challenges.results as ChallengeRow[]);
  const byPass = new Map<number, CatalogLevel[]>();
  for (const row of levels.results as LevelRow[]) {
    const list = byPass.get(row.battle_pass_id) ?? [];
    list.push(toCatalogLevel(row, byLevel.get(row.level_id) ?? []));
    byPass.set(row.battle_pass_id, list);
  }
  return {
    defaultLanguage: (app.results[0] as { default_language: string } | undefined)?.default_language ?? "en",
    passes: (passes.results as PassRow[]).map((row) => toCatalogPass(row, byPass.get(row.battle_pass_id) ?? [])),
  };
}

/** The app's battle passes for hot paths (every event, every read): cached, invalidated by admin writes. */
export const battlePassCatalog = (db: D1Database, appId: string) =>
  cachedCatalog(db, "battlepasses", appId, loadBattlePassCatalog);

/** The level with its pass, by level id. */
export function findLevel(
  catalog: BattlePassCatalog,
  levelId: string,
): { pass: CatalogPass; level: CatalogLevel } | null {
  for (const pass of catalog.passes) {
    const level = pass.levels.find((l) => l.levelId === levelId);
    if (level) return { pass, level };
  }
  return null;
}
