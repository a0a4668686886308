/** A localized field: a plain string (the app's default language) or `{ "en": "...", "de": "..." }`. */
export type Localized = string | Record<string, string>;

/** Picks one language, falling back to the app's default language, then to any language present. */
export function localize(
  value: Localized | null | undefined,
  language: string | undefined,
  defaultLanguage: string,
): string {
  if (value == null) return "";
  if (typeof value === "string") return value;
  if (language && value[language] != null) return value[language];
  if (value[defaultLanguage] != null) return value[defaultLanguage];
  const first = Object.values(value)[0];
  return first ?? "";
}
