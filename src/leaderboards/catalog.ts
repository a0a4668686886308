import { pointsEventName } from "../apps/points-rewards";
import { cachedCatalog } from "../apps/catalog-cache";
import type { CounterFilter } from "../rules/counter";
import type { Localized } from "../shared/localize";
import type { PeriodRange, PeriodSchedule } from "../rules/schedule";
import type { SeasonPolicy } from "./core/season";

export const AGGREGATIONS = ["sum", "max", "min", "last"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

export const MEMBER_TYPES = ["user", "team"] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

/** A row of `leaderboards` (migrations/0004_leaderboards.sql). */
export interface LeaderboardRow {
  leaderboard_id: number;
  app_id: number;
  /** Chosen by the studio, else leaderboard-<id> (migrations/0010_catalog_keys.sql). */
  key: string;
  name: string;
  event_name: string;
  value_field: string | null;
  filters: string;
  aggregation: Aggregation;
  sort_order_ascending: number;
  period_range: PeriodRange | null;
  period_range_reset_at_time: string | null;
  period_range_time_zone: string | null;
  season_origin: number;
  authoritative: number;
  min_value: number | null;
  max_value: number | null;
  max_events_per_minute: number | null;
  /** The points system the board ranks instead of an event (migrations/0016_points.sql); null: an event board. */
  points_system: string | null;
  created_at: string;
  updated_at: string;
}

export interface LeaderboardDef extends SeasonPolicy {
  id: string;
  appId: string;
  key: string;
  name: Localized;
  eventName: string;
  valueField: string | null;
  filters: CounterFilter[];
  aggregation: Aggregation;
  ascending: boolean;
  periodRange: PeriodRange | null;
  resetAtTime: string | null;
  timeZone: string | null;
  /** Only events sent with an API key (the studio's backend) count. */
  authoritative: boolean;
  /** Bounds of one event's value; an event outside is flagged for review instead of applied. */
  minValue: number | null;
  maxValue: number | null;
  /** Events one player may bring in any 60 seconds; the ones past it are flagged. */
  maxEventsPerMinute: number | null;
  /** The points system ranked: the board then matches the system's points event (src/apps/points-rewards.ts). */
  pointsSystem: string | null;
  createdAt: string;
  updatedAt: string;
}

function parseName(raw: string): Localized {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === "string" || (value && typeof value === "object") ? (value as Localized) : raw;
  } catch {
    return raw;
  }
}

export function toDef(row: LeaderboardRow): LeaderboardDef {
  const filters = JSON.parse(row.filters) as CounterFilter[];
  const schedule: PeriodSchedule | null =
    row.period_range && row.period_range !== "never"
      ? {
          period: row.period_range,
          resetAtTime: row.period_range_reset_at_time ?? "00:00:00",
          timeZone: row.period_range_time_zone ?? "UTC",
        }
      : null;
  return {
    id: String(row.leaderboard_id),
    appId: String(row.app_id),
    key: row.key,
    name: parseName(row.name),
    eventName: row.points_system ? pointsEventName(row.points_system) : row.event_name,
    valueField: row.value_field,
    filters,
    aggregation: row.aggregation,
    ascending: row.sort_order_ascending === 1,
    periodRange: row.period_range,
    resetAtTime: row.period_range_reset_at_time,
    timeZone: row.period_range_time_zone,
    origin: row.season_origin,
    schedule,
    authoritative: row.authoritative === 1,
    minValue: row.min_value,
    maxValue: row.max_value,
    maxEventsPerMinute: row.max_events_per_minute,
    pointsSystem: row.points_system ?? null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** What the hot paths need of an app: its boards and the language their names fall back to. */
export interface AppLeaderboards {
  defaultLanguage: string;
  boards: LeaderboardDef[];
}

async function load(db: D1Database, appId: string): Promise<AppLeaderboards> {
  const [app, boards] = await db.batch<{ default_language: string } | LeaderboardRow>([
    db.prepare("SELECT default_language FROM apps WHERE app_id = ?").bind(Number(appId)),
    db.prepare("SELECT * FROM leaderboards WHERE app_id = ? ORDER BY leaderboard_id").bind(Number(appId)),
  ]);
  return {
    defaultLanguage: (app.results[0] as { default_language: string } | undefined)?.default_language ?? "en",
    boards: (boards.results as LeaderboardRow[]).map(toDef),
  };
}

/** The app's leaderboards through the catalog cache (every admin write bumps its version). */
export const appLeaderboards = (db: D1Database, appId: string) => cachedCatalog(db, "leaderboards", appId, load);
