import type { ChallengeCatalog, CategoryDef, ChallengeDef } from "./core/model";
import { presentCategory, presentChallenge, type Language } from "./core/present";
import { snapshotOf, type Snapshot } from "./core/lifecycle";

/**
 * The list answer as JSON text. A challenge the user never unlocked (no instance, shown as
 * `unlock`) reads the same for every user of the app in a language: its text is made once per
 * catalog version and language and reused, so a category of 1,000 challenges costs a join, not
 * 1,000 objects presented, copied out of the user's object and serialized. Challenges with an
 * instance are presented as before. The text is byte for byte what JSON.stringify of the presented
 * objects gives.
 */

/** Languages kept per owner: the language is the caller's choice, so the caches must not grow with it. */
const MAX_LANGUAGES = 8;
const NOT_STARTED = snapshotOf(null);

/** What a cache keeps for `owner` (a catalog, a category) in the caller's language, made by `make` when it has none. */
function perLanguage<K extends object, V>(
  cache: WeakMap<K, Map<string, V>>,
  owner: K,
  lang: Language,
  make: () => V,
): V {
  let byLanguage = cache.get(owner);
  if (!byLanguage) cache.set(owner, (byLanguage = new Map()));
  const key = lang.language ?? "";
  let value = byLanguage.get(key);
  if (value === undefined) {
    if (byLanguage.size >= MAX_LANGUAGES) byLanguage.clear();
    byLanguage.set(key, (value = make()));
  }
  return value;
}

/** catalog → language → challenge id → the JSON of the challenge without an instance. */
const notStarted = new WeakMap<ChallengeCatalog, Map<string, Map<string, string>>>();

/** One challenge of the list, as JSON. */
export function challengeJson(
  catalog: ChallengeCatalog,
  def: ChallengeDef,
  snapshot: Snapshot,
  lang: Language,
): string {
  if (snapshot.instance !== null) return JSON.stringify(presentChallenge(def, snapshot, lang));
  const texts = perLanguage(notStarted, catalog, lang, () => new Map<string, string>());
  let text = texts.get(def.challengeId);
  if (text === undefined) texts.set(def.challengeId, (text = JSON.stringify(presentChallenge(def, NOT_STARTED, lang))));
  return text;
}

/** The last text joined from some parts, kept with the parts; null before the first. */
interface LastJoined {
  last: { parts: string[]; text: string } | null;
}

/**
 * Per owner (a category, a catalog) and language, the last text joined and the parts it joined.
 * Most users list a category as every user who never started one of its challenges does, from the
 * same texts (challengeJson): comparing them by reference costs far less than joining the whole
 * list's text again, and the same text object leaves the user's object without being flattened anew.
 */
function joinedOnce<K extends object>(
  cache: WeakMap<K, Map<string, LastJoined>>,
  owner: K,
  lang: Language,
  parts: string[],
  join: () => string,
): string {
  const slot = perLanguage(cache, owner, lang, (): LastJoined => ({ last: null }));
  const { last } = slot;
  if (last && last.parts.length === parts.length && last.parts.every((part, i) => part === parts[i])) return last.text;
  slot.last = { parts, text: join() };
  return slot.last.text;
}

const joinedCategories = new WeakMap<CategoryDef, Map<string, LastJoined>>();
const joinedLists = new WeakMap<ChallengeCatalog, Map<string, LastJoined>>();

/** One category of the list, its challenges given as JSON texts. */
export function categoryJson(category: CategoryDef, index: number, challenges: string[], lang: Language): string {
  return joinedOnce(joinedCategories, category, lang, challenges, () => {
    // `challenges` is the presented category's last field: its empty array closes the text.
    const empty = JSON.stringify(presentCategory(category, index, [], lang));
    return `${empty.slice(0, -"[]}".length)}[${challenges.join(",")}]}`;
  });
}

/** The list of the catalog's categories, given as JSON texts (categoryJson). */
export function listJson(catalog: ChallengeCatalog, categories: string[], lang: Language): string {
  return joinedOnce(joinedLists, catalog, lang, categories, () => `[${categories.join(",")}]`);
}
