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

/** Languages kept per catalog: the language is the caller's choice, so the cache must not grow with it. */
const MAX_LANGUAGES = 8;
const NOT_STARTED = snapshotOf(null);

/** catalog → language → challenge id → the JSON of the challenge without an instance. */
const notStarted = new WeakMap<ChallengeCatalog, Map<string, Map<string, string>>>();

function notStartedTexts(catalog: ChallengeCatalog, lang: Language): Map<string, string> {
  let byLanguage = notStarted.get(catalog);
  if (!byLanguage) notStarted.set(catalog, (byLanguage = new Map()));
  const key = lang.language ?? "";
  let texts = byLanguage.get(key);
  if (!texts) {
    if (byLanguage.size >= MAX_LANGUAGES) byLanguage.clear();
    byLanguage.set(key, (texts = new Map()));
  }
  return texts;
}

/** One challenge of the list, as JSON. */
export function challengeJson(catalog: ChallengeCatalog, def: ChallengeDef, snapshot: Snapshot, lang: Language): string {
  if (snapshot.instance !== null) return JSON.stringify(presentChallenge(def, snapshot, lang));
  const texts = notStartedTexts(catalog, lang);
  let text = texts.get(def.challengeId);
  if (text === undefined) texts.set(def.challengeId, (text = JSON.stringify(presentChallenge(def, NOT_STARTED, lang))));
  return text;
}

/** One category of the list, its challenges given as JSON texts. */
export function categoryJson(category: CategoryDef, index: number, challenges: string[], lang: Language): string {
  // `challenges` is the presented category's last field: its empty array closes the text.
  const empty = JSON.stringify(presentCategory(category, index, [], lang));
  return `${empty.slice(0, -"[]}".length)}[${challenges.join(",")}]}`;
}
