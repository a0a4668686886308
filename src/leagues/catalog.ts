import { cachedCatalog } from "../apps/catalog-cache";
import type { CounterFilter } from "../rules/counter";
import type { Localized } from "../shared/localize";
import { indexLeagues, type LeagueDef, type LeaguesCatalog } from "./core/model";

/** A row of `leagues` (migrations/0019_leagues.sql). */
export interface LeagueRow {
  league_id: number;
  app_id: number;
  key: string;
  name: string;
  event_name: string;
  filters: string;
  value_field: string | null;
  aggregation: string;
  tiers: string;
  cohort_size: number;
  promote: number;
  demote: number;
  schedule: string;
  rewards: string;
  authoritative: number;
  min_value: number | null;
  max_value: number | null;
  created_at: string;
  updated_at: string;
}

export interface StoredReward {
  tier: string | null;
  rank_min: number;
  rank_max: number;
  points_rewards: { system: string; amount: number }[];
  reward: string | null;
}

const parseLocalized = (raw: string): Localized => {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" || (value && typeof value === "object") ? (value as Localized) : raw;
  } catch {
    return raw;
  }
};

export function toLeagueDef(row: LeagueRow): LeagueDef {
  const schedule = JSON.parse(row.schedule) as { period: "daily" | "weekly"; reset_at_time: string; time_zone: string };
  return {
    id: String(row.league_id),
    key: row.key,
    name: parseLocalized(row.name),
    eventName: row.event_name,
    filters: JSON.parse(row.filters) as CounterFilter[],
    valueField: row.value_field,
    aggregation: row.aggregation === "max" ? "max" : "sum",
    tiers: JSON.parse(row.tiers),
    cohortSize: row.cohort_size,
    promote: row.promote,
    demote: row.demote,
    schedule: { period: schedule.period, resetAtTime: schedule.reset_at_time, timeZone: schedule.time_zone },
    rewards: (JSON.parse(row.rewards) as StoredReward[]).map((r) => ({
      tier: r.tier,
      rankMin: r.rank_min,
      rankMax: r.rank_max,
      pointsRewards: r.points_rewards,
      reward: r.reward,
    })),
    authoritative: row.authoritative === 1,
    minValue: row.min_value,
    maxValue: row.max_value,
  };
}

async function loadLeagues(db: D1Database, appId: string): Promise<LeaguesCatalog> {
  const id = Number(appId);
  const [app, leagues] = await db.batch<unknown>([
    db.prepare("SELECT default_language FROM apps WHERE app_id = ?").bind(id),
    db.prepare("SELECT * FROM leagues WHERE app_id = ? ORDER BY league_id").bind(id),
  ]);
  const defaultLanguage = (app.results[0] as { default_language: string } | undefined)?.default_language ?? "en";
  return indexLeagues(defaultLanguage, (leagues.results as LeagueRow[]).map(toLeagueDef));
}

/** An app's leagues; cached until a configuration write moves the app's catalog version. */
export const leaguesCatalog = (db: D1Database, appId: string) => cachedCatalog(db, "leagues", appId, loadLeagues);
