import { toIso } from "../../shared/clock";
import { localize } from "../../shared/localize";
import { metricProgress, type ProgressSource } from "./earn";
import { HIDDEN_NAME, type AchievementDef, type AchievementsCatalog } from "./model";

/** How a player's list shows achievements: hidden ones give nothing away until held. */

/** "Hidden achievement" in the languages the service knows; others read the English. */
const HIDDEN_NAMES: Record<string, string> = {
  en: HIDDEN_NAME,
  de: "Verborgener Erfolg",
  fr: "Succès caché",
  es: "Logro oculto",
  it: "Obiettivo nascosto",
  pt: "Conquista oculta",
};

export const hiddenName = (language: string | undefined, defaultLanguage: string) =>
  HIDDEN_NAMES[(language ?? defaultLanguage).slice(0, 2)] ?? HIDDEN_NAME;

export interface AchievementView {
  achievement_id: string;
  key: string;
  name: string;
  description: string;
  icon: string | null;
  hidden: boolean;
  achieved: boolean;
  achieved_at: string | null;
  progress: number | null;
  threshold: number | null;
  rarity: number;
}

/**
 * One achievement of the list. Metric: `progress` of `threshold` (shown at most the threshold);
 * composite: the required achievements held of those required; manual: neither. A hidden one the
 * player does not hold shows its hidden description, a name that says only that it is hidden, no
 * icon and no progress.
 */
export function presentAchievement(
  catalog: AchievementsCatalog,
  def: AchievementDef,
  source: ProgressSource,
  held: ReadonlyMap<string, number>,
  rarity: number,
  language: string | undefined,
): AchievementView {
  const lang = catalog.defaultLanguage;
  const achievedAt = held.get(def.achievementId);
  const achieved = achievedAt !== undefined;
  const base = {
    achievement_id: def.achievementId,
    key: def.key,
    hidden: def.hidden,
    achieved,
    achieved_at: achieved ? toIso(achievedAt) : null,
    rarity,
  };
  if (def.hidden && !achieved)
    return {
      ...base,
      name: hiddenName(language, lang),
      description:
        def.hiddenDescription === null ? hiddenName(language, lang) : localize(def.hiddenDescription, language, lang),
      icon: null,
      progress: null,
      threshold: null,
    };
  let progress: number | null = null;
  let threshold: number | null = null;
  if (def.metric) {
    threshold = def.metric.threshold;
    progress = Math.min(metricProgress(def, source), threshold);
  } else if (def.kind === "composite") {
    threshold = def.requires.length;
    progress = def.requires.filter((key) => {
      const required = catalog.byKey.get(key);
      return required !== undefined && held.has(required.achievementId);
    }).length;
  }
  return {
    ...base,
    name: localize(def.name, language, lang),
    description: localize(def.description, language, lang),
    icon: def.icon,
    progress,
    threshold,
  };
}
