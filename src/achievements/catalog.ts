import { cachedCatalog } from "../apps/catalog-cache";
import { parsePointsRewards } from "../apps/points-rewards";
import type { Localized } from "../shared/localize";
import { rarityOf } from "./core/earn";
import {
  indexAchievements,
  type AchievementDef,
  type AchievementKind,
  type AchievementsCatalog,
  type AchievementStatus,
  type Aggregation,
} from "./core/model";

/** A row of `achievements` (migrations/0017_achievements.sql). */
export interface AchievementRow {
  achievement_id: number;
  app_id: number;
  key: string;
  name: string;
  description: string | null;
  hidden: number;
  hidden_description: string | null;
  icon: string | null;
  kind: string;
  status: string;
  sort_order: number;
  points_rewards: string;
  event_name: string | null;
  filters: string | null;
  value_field: string | null;
  aggregation: string | null;
  threshold: number | null;
  requires: string | null;
  created_at: string;
  updated_at: string;
}

export const parseLocalized = (raw: string): Localized => {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" || (value && typeof value === "object") ? (value as Localized) : raw;
  } catch {
    return raw;
  }
};

export function toAchievementDef(row: AchievementRow): AchievementDef {
  return {
    achievementId: String(row.achievement_id),
    key: row.key,
    name: parseLocalized(row.name),
    description: row.description === null ? null : parseLocalized(row.description),
    hidden: row.hidden === 1,
    hiddenDescription: row.hidden_description === null ? null : parseLocalized(row.hidden_description),
    icon: row.icon,
    kind: row.kind as AchievementKind,
    status: row.status as AchievementStatus,
    sortOrder: row.sort_order,
    pointsRewards: parsePointsRewards(row.points_rewards),
    metric:
      row.kind === "metric" && row.event_name !== null && row.threshold !== null
        ? {
            eventName: row.event_name,
            filters: row.filters ? JSON.parse(row.filters) : [],
            valueField: row.value_field,
            aggregation: (row.aggregation ?? "sum") as Aggregation,
            threshold: row.threshold,
          }
        : null,
    requires: row.kind === "composite" && row.requires ? (JSON.parse(row.requires) as string[]) : [],
  };
}

/** An app's achievements in one D1 batch; cached until a configuration write moves the app's catalog version. */
async function loadAchievementsCatalog(db: D1Database, appId: string): Promise<AchievementsCatalog> {
  const id = Number(appId);
  const [app, rows] = await db.batch<unknown>([
    db.prepare("SELECT default_language FROM apps WHERE app_id = ?").bind(id),
    db.prepare("SELECT * FROM achievements WHERE app_id = ? ORDER BY sort_order, achievement_id").bind(id),
  ]);
  const defaultLanguage = (app.results[0] as { default_language: string } | undefined)?.default_language ?? "en";
  return indexAchievements(defaultLanguage, (rows.results as AchievementRow[]).map(toAchievementDef));
}

export const achievementsCatalog = (db: D1Database, appId: string) =>
  cachedCatalog(db, "achievements", appId, loadAchievementsCatalog);

// ---- rarity: holders (written by the background consumer) over the app's players

/** How long an isolate keeps an app's rarity before reading it again. */
export const RARITY_TTL_MS = 10_000;

export interface AppRarity {
  /** Players who sent the app an event (the registry of its players). */
  players: number;
  /** Holders by achievement id. */
  holders: Map<string, number>;
}

/** The app's players and each achievement's holders, in one D1 batch. */
export async function readAppRarity(db: D1Database, appId: number): Promise<AppRarity> {
  const [players, holders] = await db.batch<unknown>([
    db.prepare("SELECT COUNT(*) AS n FROM players WHERE app_id = ? AND events > 0").bind(appId),
    db
      .prepare(
        "SELECT h.achievement_id, h.holders FROM achievement_holders h JOIN achievements a USING (achievement_id) WHERE a.app_id = ?",
      )
      .bind(appId),
  ]);
  return {
    players: (players.results[0] as { n: number }).n,
    holders: new Map(
      (holders.results as { achievement_id: number; holders: number }[]).map((r) => [
        String(r.achievement_id),
        Math.max(0, r.holders),
      ]),
    ),
  };
}

const rarities = new Map<string, { at: number; value: AppRarity }>();

/** The app's rarity as last read by this isolate, read again when older than RARITY_TTL_MS. */
export async function cachedRarity(db: D1Database, appId: string): Promise<AppRarity> {
  const known = rarities.get(appId);
  const wallNow = Date.now();
  if (known && wallNow - known.at < RARITY_TTL_MS) return known.value;
  const value = await readAppRarity(db, Number(appId));
  rarities.set(appId, { at: wallNow, value });
  return value;
}

/** One achievement's rarity (percent, one decimal). */
export const rarityIn = (rarity: AppRarity, achievementId: string) =>
  rarityOf(rarity.holders.get(achievementId) ?? 0, rarity.players);
