import { cachedCatalog } from "../apps/catalog-cache";
import type { Localized } from "../shared/localize";
import { indexPointsCatalog, type PointsCatalog, type PointsSystemDef } from "./core/model";

/** A row of `points_systems` (migrations/0016_points.sql). */
export interface PointsSystemRow {
  system_id: number;
  app_id: number;
  key: string;
  name: string;
  description: string | null;
  icon: string | null;
  spendable: number;
  max_balance: number | null;
  credits_challenge_xp: number;
  levels: string;
  triggers: string;
  created_at: string;
  updated_at: string;
}

interface StoredTrigger {
  event_name: string;
  filters: PointsSystemDef["triggers"][number]["filters"];
  value_field: string | null;
  every: number;
  points: number;
}

const parseLocalized = (raw: string): Localized => {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" || (value && typeof value === "object") ? (value as Localized) : raw;
  } catch {
    return raw;
  }
};

export function toSystemDef(row: PointsSystemRow): PointsSystemDef {
  return {
    systemId: String(row.system_id),
    key: row.key,
    name: parseLocalized(row.name),
    description: row.description === null ? null : parseLocalized(row.description),
    icon: row.icon,
    spendable: row.spendable === 1,
    maxBalance: row.max_balance,
    creditsChallengeXp: row.credits_challenge_xp === 1,
    levels: JSON.parse(row.levels),
    triggers: (JSON.parse(row.triggers) as StoredTrigger[]).map((t) => ({
      eventName: t.event_name,
      filters: t.filters,
      valueField: t.value_field,
      every: t.every,
      points: t.points,
    })),
  };
}

/** An app's points systems in one D1 batch; cached until a configuration write moves the app's catalog version. */
async function loadPointsCatalog(db: D1Database, appId: string): Promise<PointsCatalog> {
  const id = Number(appId);
  const [app, systems] = await db.batch<unknown>([
    db.prepare("SELECT default_language FROM apps WHERE app_id = ?").bind(id),
    db.prepare("SELECT * FROM points_systems WHERE app_id = ? ORDER BY system_id").bind(id),
  ]);
  const defaultLanguage = (app.results[0] as { default_language: string } | undefined)?.default_language ?? "en";
  return indexPointsCatalog(defaultLanguage, (systems.results as PointsSystemRow[]).map(toSystemDef));
}

export const pointsCatalog = (db: D1Database, appId: string) => cachedCatalog(db, "points", appId, loadPointsCatalog);
