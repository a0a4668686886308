import type { CounterFilter } from "../../rules/counter";
import type { Localized } from "../../shared/localize";

export const STREAK_PERIODS = ["daily", "weekly"] as const;
export type StreakPeriod = (typeof STREAK_PERIODS)[number];

/** Points credited when a run of the streak reaches `length`. */
export interface StreakMilestone {
  length: number;
  pointsRewards: { system: string; amount: number }[];
}

/** A streak of the catalog, as the player's object and the presenters read it. */
export interface StreakDef {
  streakId: string;
  key: string;
  name: Localized;
  period: StreakPeriod;
  /** Null: any event counts. */
  eventName: string | null;
  filters: CounterFilter[];
  /** Qualifying events in one period that keep it. */
  minCount: number;
  /** `HH:MM:SS`: the wall-clock time a period ends at. */
  resetAtTime: string;
  /** The zone of players who have none of their own. */
  timeZone: string;
  freezes: { initial: number; earnEvery: number; max: number };
  /** Ascending by length. */
  milestones: StreakMilestone[];
}

/** An app's streaks, loaded once per catalog version. */
export interface StreaksCatalog {
  defaultLanguage: string;
  streaks: StreakDef[];
  byId: Map<string, StreakDef>;
}

export function indexStreaksCatalog(defaultLanguage: string, streaks: StreakDef[]): StreaksCatalog {
  return { defaultLanguage, streaks, byId: new Map(streaks.map((s) => [s.streakId, s])) };
}
