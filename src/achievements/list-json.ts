import type { AppRarity } from "./catalog";
import type { AchievementDef, AchievementsCatalog } from "./core/model";

/**
 * The player's list as JSON text. An achievement's entry depends on the catalog, the language, the
 * app's rarity as last read, whether and since when the player holds it and its progress; most
 * players share most entries (not held, the same progress), so each entry's text is made once per
 * catalog, language and rarity and reused, and a list equal to the last one made is answered with
 * the same text. A list of 1,000 achievements then costs lookups and a join, not 1,000 objects
 * presented, copied out of the player's object and serialized. The text is byte for byte what
 * JSON.stringify of the presented objects gives.
 */

/** Languages kept per catalog: the language is the caller's choice, so the cache must not grow with it. */
const MAX_LANGUAGES = 8;
/** Entries kept per catalog and language before the cache starts again. */
const MAX_ENTRIES = 50_000;

interface LanguageCache {
  rarity: AppRarity | null;
  entries: Map<string, string>;
  last: { parts: string[]; text: string } | null;
}

const caches = new WeakMap<AchievementsCatalog, Map<string, LanguageCache>>();

function cacheFor(catalog: AchievementsCatalog, language: string | undefined, rarity: AppRarity | null): LanguageCache {
  let byLanguage = caches.get(catalog);
  if (!byLanguage) caches.set(catalog, (byLanguage = new Map()));
  const key = language ?? "";
  let cache = byLanguage.get(key);
  if (cache === undefined || cache.rarity !== rarity || cache.entries.size >= MAX_ENTRIES) {
    if (cache === undefined && byLanguage.size >= MAX_LANGUAGES) byLanguage.clear();
    cache = { rarity, entries: new Map(), last: null };
    byLanguage.set(key, cache);
  }
  return cache;
}

export interface ListState {
  /** Service time the player came to hold it, or undefined. */
  achievedAt(def: AchievementDef): number | undefined;
  /** What the entry shows as progress (the cache's key, with the holding). */
  progressKey(def: AchievementDef): number | null;
  /** The entry's JSON when the cache has none. */
  present(def: AchievementDef): unknown;
}

/** `{"achievements": [...]}` of the shown achievements, as JSON text. */
export function listJson(
  catalog: AchievementsCatalog,
  shown: AchievementDef[],
  language: string | undefined,
  rarity: AppRarity | null,
  state: ListState,
): string {
  const cache = cacheFor(catalog, language, rarity);
  const parts = shown.map((def) => {
    const key = `${def.achievementId}:${state.achievedAt(def) ?? ""}:${state.progressKey(def) ?? ""}`;
    let text = cache.entries.get(key);
    if (text === undefined) cache.entries.set(key, (text = JSON.stringify(state.present(def))));
    return text;
  });
  const { last } = cache;
  if (last && last.parts.length === parts.length && last.parts.every((part, i) => part === parts[i])) return last.text;
  cache.last = { parts, text: `{"achievements":[${parts.join(",")}]}` };
  return cache.last.text;
}
