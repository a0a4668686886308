import { pointsSystemDoc } from "../../points/catalog-section";
import { parsePointsRewards } from "../../apps/points-rewards";
import { settingsColumns } from "../../apps/admin/repo";
import { backendOnlyEventsOf, type AppSettingsColumns } from "../../apps/settings";
import {
  levelChallengeColumns,
  levelColumns,
  passColumns,
  presentChallengeAdmin,
  presentLevelAdmin,
  presentPassAdmin,
} from "../../battlepasses/admin/repo";
import { BattlePassFields, LevelChallengeInput, LevelFields } from "../../battlepasses/admin/schemas";
import { toCatalogChallenge, type LevelRow, type PassRow } from "../../battlepasses/catalog";
import { categoryColumns, challengeColumns } from "../../challenges/admin/repo";
import { CategoryInput, ChallengeFields } from "../../challenges/admin/schemas";
import { presentCategoryRow, presentChallengeRow, type CategoryRow, type ChallengeRow } from "../../challenges/repo";
import { boardColumns } from "../../leaderboards/admin/repo";
import { LeaderboardInput } from "../../leaderboards/admin/schemas";
import { toDef, type LeaderboardRow } from "../../leaderboards/catalog";
import { presentAdmin } from "../../leaderboards/core/present";
import { canonicalWebhookType } from "../../webhooks/core/webhook-types";
import type { EndpointRow } from "../../webhooks/endpoints-repo";
import {
  CATALOG_FORMAT_VERSION,
  type CatalogBattlePass,
  type CatalogCategory,
  type CatalogChallenge,
  type CatalogDocument,
  type CatalogLeaderboard,
  type CatalogLevel,
  type CatalogLevelChallenge,
  type CatalogSettings,
  type CatalogWebhook,
  type SecretRef,
} from "../schemas";
import type { CatalogSnapshot, LevelChallengeRow } from "./snapshot";

/**
 * Rows to document objects (the export), and a document object to what its export would be once
 * applied (`canonical...`): written with the area's own column values, read back with the area's
 * own presenter. Plans compare those two, so every normalization an area makes (dates to UTC
 * milliseconds, derived reward names, an unscheduled board's reset time) is made once, by the area.
 */

/** The document's fields of each object, in the order of its area's input schema. */
const fieldsOf = (shape: object, ...without: string[]) => Object.keys(shape).filter((f) => !without.includes(f));
const CATEGORY_FIELDS = fieldsOf(CategoryInput.shape);
const CHALLENGE_FIELDS = fieldsOf(ChallengeFields.shape, "category_id");
const PASS_FIELDS = fieldsOf(BattlePassFields.shape);
const LEVEL_FIELDS = fieldsOf(LevelFields.shape, "challenges");
const LEVEL_CHALLENGE_FIELDS = fieldsOf(LevelChallengeInput.shape, "challenge_id", "key");
const BOARD_FIELDS = fieldsOf(LeaderboardInput.shape, "key");

function pick(source: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) picked[field] = source[field];
  return picked;
}

/** Where the CLI looks for a webhook's secret: WEBHOOK_SECRET_ and the key in capitals. */
export const secretVariable = (key: string): SecretRef => ({
  env: `WEBHOOK_SECRET_${key.toUpperCase().replaceAll("-", "_")}`,
});

/** A rate limit the app never set is left out: it stays the service's default wherever the document goes. */
export function settingsDoc(row: AppSettingsColumns): CatalogSettings {
  const rateLimits: CatalogSettings["rate_limits"] = {};
  if (row.rate_limit_per_user_per_minute !== null) rateLimits.per_user_per_minute = row.rate_limit_per_user_per_minute;
  if (row.rate_limit_per_app_per_minute !== null) rateLimits.per_app_per_minute = row.rate_limit_per_app_per_minute;
  return { backend_only_events: backendOnlyEventsOf(row), rate_limits: rateLimits };
}

export const categoryDoc = (row: CategoryRow, challenges: CatalogChallenge[]) =>
  ({ ...pick(presentCategoryRow(row), CATEGORY_FIELDS), challenges }) as CatalogCategory;

export const challengeDoc = (row: ChallengeRow) =>
  ({ key: row.key, ...pick(presentChallengeRow(row), CHALLENGE_FIELDS) }) as CatalogChallenge;

export const levelChallengeDoc = (row: LevelChallengeRow) =>
  ({
    key: row.key,
    ...pick(presentChallengeAdmin(toCatalogChallenge(row)), LEVEL_CHALLENGE_FIELDS),
  }) as CatalogLevelChallenge;

/**
 * A reward_type_name that is the default for the level's reward type (which may be none the input takes) is left out.
 */
export function levelDoc(row: LevelRow, challenges: CatalogLevelChallenge[]): CatalogLevel {
  const doc: Record<string, unknown> = { key: row.key, ...pick(presentLevelAdmin(row, []), LEVEL_FIELDS), challenges };
  const byDefault = levelColumns({
    ...row,
    level_reward_type: row.level_reward_type as CatalogLevel["level_reward_type"],
    reward_type_name: undefined,
    points_rewards: parsePointsRewards(row.points_rewards),
  });
  if (doc.reward_type_name === byDefault.reward_type_name) delete doc.reward_type_name;
  return doc as CatalogLevel;
}

export const passDoc = (row: PassRow, levels: CatalogLevel[]) =>
  ({ key: row.key, ...pick(presentPassAdmin(row), PASS_FIELDS), levels }) as CatalogBattlePass;

/** A board without a reset schedule stores no reset time or zone: the document leaves them out. */
export function boardDoc(row: LeaderboardRow, now: number): CatalogLeaderboard {
  const doc: Record<string, unknown> = { key: row.key, ...pick(presentAdmin(toDef(row), now), BOARD_FIELDS) };
  if (doc.period_range_reset_at_time === null) delete doc.period_range_reset_at_time;
  if (doc.period_range_time_zone === null) delete doc.period_range_time_zone;
  // A board ranks events or a points system: the document names the one it ranks.
  if (doc.points_system === undefined) delete doc.points_system;
  else delete doc.event_name;
  return doc as CatalogLeaderboard;
}

/** Never the secret itself: a reference to where the CLI finds it. */
export const webhookDoc = (row: EndpointRow): CatalogWebhook => ({
  key: row.key,
  webhook_type: row.webhook_type,
  url: row.url,
  secret_key: secretVariable(row.key),
});

const byId = <T>(rows: T[], id: (row: T) => number) => {
  const groups = new Map<number, T[]>();
  for (const row of rows) groups.set(id(row), [...(groups.get(id(row)) ?? []), row]);
  return groups;
};

/** The app's configuration as a document, in the order players see it. */
export function exportDocument(s: CatalogSnapshot, now: number): CatalogDocument {
  const challengesBy = byId(s.challenges, (c) => c.category_id);
  const levelsBy = byId(s.levels, (l) => l.battle_pass_id);
  const levelChallengesBy = byId(s.levelChallenges, (c) => c.level_id);
  return {
    version: CATALOG_FORMAT_VERSION,
    settings: settingsDoc(s.settings),
    categories: s.categories.map((row) =>
      categoryDoc(row, (challengesBy.get(row.category_id) ?? []).map(challengeDoc)),
    ),
    battle_passes: s.passes.map((pass) =>
      passDoc(
        pass,
        (levelsBy.get(pass.battle_pass_id) ?? []).map((level) =>
          levelDoc(level, (levelChallengesBy.get(level.level_id) ?? []).map(levelChallengeDoc)),
        ),
      ),
    ),
    leaderboards: s.leaderboards.map((row) => boardDoc(row, now)),
    points_systems: s.pointsSystems.map(pointsSystemDoc),
    webhooks: s.webhooks.map(webhookDoc),
  };
}

// ---- what a document object looks like once applied: the area's columns, read back by the area's presenter

const TIMES = { created_at: "", updated_at: "" };

export const canonicalSettings = (doc: CatalogSettings): CatalogSettings => settingsDoc(settingsColumns(doc));

export const canonicalCategory = (doc: CatalogCategory): CatalogCategory =>
  categoryDoc({ category_id: 0, app_id: 0, ...TIMES, ...categoryColumns(doc) } as CategoryRow, doc.challenges);

export const canonicalChallenge = (doc: CatalogChallenge): CatalogChallenge =>
  challengeDoc({
    challenge_id: 0,
    app_id: 0,
    category_id: 0,
    key: doc.key,
    ...TIMES,
    ...challengeColumns(doc),
  } as ChallengeRow);

/** `position`: its place in the level. */
export const canonicalLevelChallenge = (doc: CatalogLevelChallenge, position: number): CatalogLevelChallenge =>
  levelChallengeDoc({
    challenge_id: 0,
    app_id: 0,
    level_id: 0,
    key: doc.key,
    ...levelChallengeColumns(doc, position),
  } as LevelChallengeRow);

/** `current`: the level's row when it exists, whose priority a document without one keeps. */
export const canonicalLevel = (doc: CatalogLevel, current: LevelRow | undefined): CatalogLevel =>
  levelDoc(
    {
      level_id: 0,
      app_id: 0,
      battle_pass_id: 0,
      key: doc.key,
      level_priority: doc.level_priority ?? current?.level_priority ?? null,
      ...TIMES,
      ...levelColumns(doc),
    } as LevelRow,
    doc.challenges,
  );

export const canonicalPass = (doc: CatalogBattlePass): CatalogBattlePass =>
  passDoc(
    { battle_pass_id: 0, app_id: 0, key: doc.key, expired_at: null, ...TIMES, ...passColumns(doc) } as PassRow,
    doc.levels,
  );

export const canonicalBoard = (doc: CatalogLeaderboard, now: number): CatalogLeaderboard =>
  boardDoc(
    {
      leaderboard_id: 0,
      app_id: 0,
      key: doc.key,
      season_origin: now,
      ...TIMES,
      ...boardColumns(doc),
    } as LeaderboardRow,
    now,
  );

/** The secret is compared on its own (plan.ts): it never appears in a document the service writes. */
export const canonicalWebhook = (doc: CatalogWebhook): CatalogWebhook => ({
  key: doc.key,
  webhook_type: canonicalWebhookType(doc.webhook_type),
  url: doc.url,
  secret_key: secretVariable(doc.key),
});
