import { dailyPick } from "./daily";
import type { ChallengeCatalog, ChallengeDef } from "./model";
import { utcDateKey } from "../../rules/schedule";

/**
 * Whether a challenge is offered at `now`: its live date has passed and, in a daily category, it
 * is among the challenges picked for the current UTC date.
 */
export function availability(catalog: ChallengeCatalog, now: number): (def: ChallengeDef) => boolean {
  const dateKey = utcDateKey(now);
  const picks = new Map<string, Set<string>>();
  return (def) => {
    if (def.liveDate !== null && Date.parse(def.liveDate) > now) return false;
    const category = catalog.byId.get(def.challengeId)?.category;
    if (!category) return false;
    if (!category.isDaily) return true;
    let pick = picks.get(category.categoryId);
    if (!pick) {
      const pool = category.challenges.map((c) => c.key);
      pick = dailyPick(pool, category.dailyChallengeCount, category.slug, dateKey);
      picks.set(category.categoryId, pick);
    }
    return pick.has(def.key);
  };
}
