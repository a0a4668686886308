import type { Localized } from "../../shared/localize";
import type { CounterDef } from "../../rules/counter";
import type { PeriodSchedule } from "../../rules/schedule";

/** A challenge of the catalog, as the lifecycle and the presentation read it. */
export interface ChallengeDef {
  challengeId: string;
  /** The studio's key: stable across apps and deployments, where the id is not. */
  key: string;
  categoryId: string;
  name: Localized;
  description: Localized | null;
  goal: number;
  goalCondition: 0 | 1;
  /** Seconds after activation; -1: never times out. */
  durationSeconds: number;
  /** ISO instant from which the challenge is offered; null: always. */
  liveDate: string | null;
  price: number;
  reward: string;
  rewardType: string;
  xp: number;
  /** Points credited to the app's points systems when claimed, beside `xp`. */
  pointsRewards: { system: string; amount: number }[];
  icon: string;
  iconHd: string;
  repeatable: boolean;
  autoActivated: boolean;
  period: PeriodSchedule;
  counter: CounterDef;
}

export interface CategoryDef {
  categoryId: string;
  slug: string;
  name: Localized;
  position: number;
  isDaily: boolean;
  dailyChallengeCount: number;
  /** Ordered by challenge id. */
  challenges: ChallengeDef[];
}

/** An app's challenge configuration, loaded once per catalog version. */
/** Where a challenge sits: `categoryIndex` is its category's index in `categories`. */
export interface CatalogEntry {
  challenge: ChallengeDef;
  category: CategoryDef;
  categoryIndex: number;
}

export interface ChallengeCatalog {
  defaultLanguage: string;
  /**
   * Ordered by category_position, then id: the categories array every user gets, so an index in
   * it is what answers and payloads call `category_position` (the stored value is the sort key).
   */
  categories: CategoryDef[];
  byId: Map<string, CatalogEntry>;
  /** The challenges that listen to each event name. */
  byEventName: Map<string, ChallengeDef[]>;
}

export function indexCatalog(defaultLanguage: string, categories: CategoryDef[]): ChallengeCatalog {
  const byId = new Map<string, CatalogEntry>();
  const byEventName = new Map<string, ChallengeDef[]>();
  for (const [categoryIndex, category] of categories.entries()) {
    for (const challenge of category.challenges) {
      byId.set(challenge.challengeId, { challenge, category, categoryIndex });
      const listeners = byEventName.get(challenge.counter.eventName) ?? [];
      listeners.push(challenge);
      byEventName.set(challenge.counter.eventName, listeners);
    }
  }
  return { defaultLanguage, categories, byId, byEventName };
}
