import { z } from "@hono/zod-openapi";

/** Field schemas that every admin area shares: language codes, localized texts, ids, plain texts. */

const LANGUAGE_CODE = /^[a-z]{2}(-[A-Z]{2})?$/;

export const LanguageCode = z.string().regex(LANGUAGE_CODE, "must be a language code such as en or de-AT");
const LanguageKey = z.string().regex(LANGUAGE_CODE, "keys must be language codes such as en or de-AT");

/** A name: a plain string (the app's default language) or one name per language. */
export const LocalizedName = z
  .union([z.string().trim().min(1).max(200), z.record(LanguageKey, z.string().trim().min(1).max(200))])
  .refine((v) => typeof v === "string" || Object.keys(v).length > 0, "needs at least one language");

/** A longer text (descriptions, may hold HTML): a plain string or one text per language. */
export const LocalizedText = z.union([z.string().max(10_000), z.record(LanguageKey, z.string().max(10_000))]);

/** A localized field as stored and shown to the admin. */
export const Localized = z.union([z.string(), z.record(z.string(), z.string())]);

/** Ids in payloads are strings of digits. */
export const DigitsId = z.string().regex(/^\d{1,15}$/, "must be a string of digits");

/** An optional plain text of at most `max` characters, empty by default. */
export const Text = (max = 500) => z.string().max(max).default("");

/**
 * A key chosen by the studio for a configuration object (challenge, battle pass, level, level
 * challenge, leaderboard, webhook): stable across deployments, where ids are not. Catalog
 * documents refer to objects by it. Objects created without one get `<kind>-<id>`.
 */
export const ConfigKey = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9_-]{0,99}$/,
    "must be lower-case letters, digits, - and _ (at most 100), starting with a letter or digit",
  )
  .openapi({ example: "daily-kills" });
