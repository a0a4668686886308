import type { CounterFilter } from "../../rules/counter";
import type { Localized } from "../../shared/localize";

/** One level of a system: reached when the points earned are at least `points`. */
export interface PointsLevel {
  level: number;
  name: Localized;
  points: number;
}

/** Every `every` units of the event's value (or events, without a value field) give `points`. */
export interface PointsTrigger {
  eventName: string;
  filters: CounterFilter[];
  valueField: string | null;
  every: number;
  points: number;
}

/** A points system of the catalog, as the player's object and the presenters read it. */
export interface PointsSystemDef {
  systemId: string;
  key: string;
  name: Localized;
  description: Localized | null;
  icon: string | null;
  spendable: boolean;
  /** Null: no cap. */
  maxBalance: number | null;
  creditsChallengeXp: boolean;
  /** Ascending by level and by points. */
  levels: PointsLevel[];
  triggers: PointsTrigger[];
}

/** An app's points configuration, loaded once per catalog version. */
export interface PointsCatalog {
  defaultLanguage: string;
  systems: PointsSystemDef[];
  byKey: Map<string, PointsSystemDef>;
  /** The triggers that listen to each event name, with their system and their place in it. */
  byEventName: Map<string, { system: PointsSystemDef; trigger: PointsTrigger; index: number }[]>;
  /** The system a challenge's challenge_xp is credited to, if the app has one. */
  challengeXp: PointsSystemDef | null;
}

export function indexPointsCatalog(defaultLanguage: string, systems: PointsSystemDef[]): PointsCatalog {
  const byKey = new Map(systems.map((s) => [s.key, s]));
  const byEventName: PointsCatalog["byEventName"] = new Map();
  for (const system of systems) {
    system.triggers.forEach((trigger, index) => {
      const listeners = byEventName.get(trigger.eventName) ?? [];
      listeners.push({ system, trigger, index });
      byEventName.set(trigger.eventName, listeners);
    });
  }
  return {
    defaultLanguage,
    systems,
    byKey,
    byEventName,
    challengeXp: systems.find((s) => s.creditsChallengeXp) ?? null,
  };
}

/** Where a ledger entry's points came from. */
export const SOURCE_KINDS = [
  "trigger",
  "challenge",
  "battle-pass-level",
  "achievement",
  "streak-milestone",
  "league",
  "grant",
  "spend",
  "adjustment",
  "opening-balance",
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export interface PointsSource {
  kind: SourceKind;
  id: string | null;
}
