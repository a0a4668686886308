import { cachedCatalog } from "../apps/catalog-cache";
import type { Localized } from "../shared/localize";
import { indexStreaksCatalog, type StreakDef, type StreaksCatalog } from "./core/model";

/** A row of `streaks` (migrations/0018_streaks.sql). */
export interface StreakRow {
  streak_id: number;
  app_id: number;
  key: string;
  name: string;
  period: string;
  event_name: string | null;
  filters: string;
  min_count: number;
  reset_at_time: string;
  time_zone: string;
  freezes: string;
  milestones: string;
  created_at: string;
  updated_at: string;
}

const parseLocalized = (raw: string): Localized => {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" || (value && typeof value === "object") ? (value as Localized) : raw;
  } catch {
    return raw;
  }
};

export function toStreakDef(row: StreakRow): StreakDef {
  const freezes = JSON.parse(row.freezes) as { initial: number; earn_every: number; max: number };
  const milestones = JSON.parse(row.milestones) as {
    length: number;
    points_rewards: { system: string; amount: number }[];
  }[];
  return {
    streakId: String(row.streak_id),
    key: row.key,
    name: parseLocalized(row.name),
    period: row.period === "weekly" ? "weekly" : "daily",
    eventName: row.event_name,
    filters: JSON.parse(row.filters),
    minCount: row.min_count,
    resetAtTime: row.reset_at_time,
    timeZone: row.time_zone,
    freezes: { initial: freezes.initial, earnEvery: freezes.earn_every, max: freezes.max },
    milestones: milestones.map((m) => ({ length: m.length, pointsRewards: m.points_rewards })),
  };
}

/** An app's streaks in one D1 batch; cached until a configuration write moves the app's catalog version. */
async function loadStreaksCatalog(db: D1Database, appId: string): Promise<StreaksCatalog> {
  const id = Number(appId);
  const [app, streaks] = await db.batch<unknown>([
    db.prepare("SELECT default_language FROM apps WHERE app_id = ?").bind(id),
    db.prepare("SELECT * FROM streaks WHERE app_id = ? ORDER BY streak_id").bind(id),
  ]);
  const defaultLanguage = (app.results[0] as { default_language: string } | undefined)?.default_language ?? "en";
  return indexStreaksCatalog(defaultLanguage, (streaks.results as StreakRow[]).map(toStreakDef));
}

export const streaksCatalog = (db: D1Database, appId: string) =>
  cachedCatalog(db, "streaks", appId, loadStreaksCatalog);
