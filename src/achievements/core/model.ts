import type { CounterFilter } from "../../rules/counter";
import type { Localized } from "../../shared/localize";

/** Achievements as the player's object and the player API read them: pure types and their index. */

export const ACHIEVEMENT_KINDS = ["metric", "manual", "composite"] as const;
export type AchievementKind = (typeof ACHIEVEMENT_KINDS)[number];

export const ACHIEVEMENT_STATUSES = ["active", "locked", "inactive"] as const;
export type AchievementStatus = (typeof ACHIEVEMENT_STATUSES)[number];

export const AGGREGATIONS = ["sum", "count", "max"] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];

/** What a hidden achievement is called while the player does not hold it, unless the app says otherwise. */
export const HIDDEN_NAME = "Hidden achievement";

export interface MetricRule {
  eventName: string;
  filters: CounterFilter[];
  /** null: the event's default amount (`amount` when it has one, else 1). */
  valueField: string | null;
  aggregation: Aggregation;
  threshold: number;
}

export interface AchievementDef {
  achievementId: string;
  key: string;
  name: Localized;
  description: Localized | null;
  hidden: boolean;
  hiddenDescription: Localized | null;
  icon: string | null;
  kind: AchievementKind;
  status: AchievementStatus;
  sortOrder: number;
  pointsRewards: { system: string; amount: number }[];
  /** Set for `metric`. */
  metric: MetricRule | null;
  /** Keys of the achievements a `composite` requires; empty for the other kinds. */
  requires: string[];
}

export interface AchievementsCatalog {
  defaultLanguage: string;
  /** In the players' order: sort_order, then id. */
  achievements: AchievementDef[];
  byId: Map<string, AchievementDef>;
  byKey: Map<string, AchievementDef>;
  /** Active metric achievements by event name: the ones an event of that name can move. */
  activeMetricsByEvent: Map<string, AchievementDef[]>;
  /** Active composites that require an achievement, by the required one's id. */
  compositesRequiring: Map<string, AchievementDef[]>;
  /**
   * Names what a player's object must look at again when it changes: the active achievements and
   * how each is earned. An object whose last sweep saw another signature sweeps every achievement
   * (backdating) at its next event or request.
   */
  signature: string;
  /** Whether any achievement can be earned (an active metric or composite): else no sweep is needed. */
  earnable: boolean;
}

/**
 * A metric achievement that reads the player's running totals of its event name, which their
 * object keeps from before the achievement existed: no filters, the default amount. Others count
 * in a counter of their own, from their creation.
 */
export const readsTotals = (rule: MetricRule) => rule.filters.length === 0 && rule.valueField === null;

/** What a counter of its own counts: when it changes, the counter starts again at 0. */
export const counterSignature = (rule: MetricRule) =>
  JSON.stringify([rule.eventName, rule.filters, rule.valueField, rule.aggregation]);

/** A small, stable hash of a text (FNV-1a, 32 bits, as hex). */
export function hashText(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

export function indexAchievements(defaultLanguage: string, defs: AchievementDef[]): AchievementsCatalog {
  const achievements = [...defs].sort(
    (a, b) => a.sortOrder - b.sortOrder || Number(a.achievementId) - Number(b.achievementId),
  );
  const byId = new Map(achievements.map((a) => [a.achievementId, a]));
  const byKey = new Map(achievements.map((a) => [a.key, a]));
  const activeMetricsByEvent = new Map<string, AchievementDef[]>();
  const compositesRequiring = new Map<string, AchievementDef[]>();
  for (const a of achievements) {
    if (a.status !== "active") continue;
    if (a.metric) {
      const list = activeMetricsByEvent.get(a.metric.eventName);
      if (list) list.push(a);
      else activeMetricsByEvent.set(a.metric.eventName, [a]);
    }
    if (a.kind === "composite")
      for (const key of a.requires) {
        const required = byKey.get(key);
        if (!required) continue;
        const list = compositesRequiring.get(required.achievementId);
        if (list) list.push(a);
        else compositesRequiring.set(required.achievementId, [a]);
      }
  }
  const earning = achievements
    .filter((a) => a.status === "active" && a.kind !== "manual")
    .map((a) => [a.achievementId, a.metric ? [a.metric.threshold, counterSignature(a.metric)] : a.requires]);
  return {
    defaultLanguage,
    achievements,
    byId,
    byKey,
    activeMetricsByEvent,
    compositesRequiring,
    signature: hashText(JSON.stringify(earning)),
    earnable: earning.length > 0,
  };
}
