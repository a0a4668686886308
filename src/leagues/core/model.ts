import type { CounterFilter } from "../../rules/counter";
import type { Localized } from "../../shared/localize";

/** How a league adds up a player's qualifying events of one season. */
export type Aggregation = "sum" | "max";
export type SeasonPeriod = "daily" | "weekly";

export interface LeagueSchedule {
  period: SeasonPeriod;
  /** `HH:MM:SS` in `timeZone`. */
  resetAtTime: string;
  timeZone: string;
}

export interface PointsReward {
  system: string;
  amount: number;
}

/** Rewards of the ranks `rankMin`..`rankMax` of a cohort of one tier (or of every tier: `tier` null). */
export interface LeagueReward {
  tier: string | null;
  rankMin: number;
  rankMax: number;
  pointsRewards: PointsReward[];
  reward: string | null;
}

export interface LeagueTier {
  key: string;
  name: Localized;
}

/** What decides a season's cohorts: kept with the season when it starts, so that an edit applies from the next one. */
export interface SeasonRules {
  tiers: LeagueTier[];
  cohortSize: number;
  promote: number;
  demote: number;
  rewards: LeagueReward[];
}

/** A league as the cached catalog holds it. */
export interface LeagueDef extends SeasonRules {
  id: string;
  key: string;
  name: Localized;
  eventName: string;
  filters: CounterFilter[];
  valueField: string | null;
  aggregation: Aggregation;
  schedule: LeagueSchedule;
  /** Only events of the studio's backend (an API key) count. */
  authoritative: boolean;
  minValue: number | null;
  maxValue: number | null;
}

export interface LeaguesCatalog {
  defaultLanguage: string;
  leagues: LeagueDef[];
  byId: Map<string, LeagueDef>;
}

export const indexLeagues = (defaultLanguage: string, leagues: LeagueDef[]): LeaguesCatalog => ({
  defaultLanguage,
  leagues,
  byId: new Map(leagues.map((l) => [l.id, l])),
});

export const seasonRulesOf = (league: SeasonRules): SeasonRules => ({
  tiers: league.tiers,
  cohortSize: league.cohortSize,
  promote: league.promote,
  demote: league.demote,
  rewards: league.rewards,
});
