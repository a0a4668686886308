import { describe, expect, it } from "vitest";
import { indexCatalog } from "../../../src/challenges/core/model";
import { presentCategory, presentChallenge } from "../../../src/challenges/core/present";
import { snapshotOf, type Instance } from "../../../src/challenges/core/lifecycle";
import { categoryJson, challengeJson, listJson } from "../../../src/challenges/list-json";
import { category, challenge } from "./support";

const started: Instance = {
  userChallengeId: "1700000000000000",
  type: "in-progress",
  score: 3,
  lastSessionId: "s1",
  unlockedAt: 1_700_000_000_000,
  activatedAt: 1_700_000_000_000,
  expiresAt: null,
  isClaimed: false,
  periodStart: null,
};

describe("the list as JSON text", () => {
  const defs = [challenge("1"), challenge("2", { autoActivated: true })];
  const catalog = indexCatalog("en", [category("7", defs)]);

  it("is what JSON.stringify of the presented challenges and category gives, in every language", () => {
    for (const language of [undefined, "de", "fr"]) {
      const lang = { language, defaultLanguage: "en" };
      const snapshots = [snapshotOf(null), snapshotOf(started)];
      const texts = defs.map((def, i) => challengeJson(catalog, def, snapshots[i], lang));
      const views = defs.map((def, i) => presentChallenge(def, snapshots[i], lang));
      expect(texts).toEqual(views.map((v) => JSON.stringify(v)));
      expect(categoryJson(catalog.categories[0], 0, texts, lang)).toBe(
        JSON.stringify(presentCategory(catalog.categories[0], 0, views, lang)),
      );
    }
  });

  it("keeps a challenge without an instance per catalog and language, and writes one with an instance each time", () => {
    const lang = { language: "de", defaultLanguage: "en" };
    const text = challengeJson(catalog, defs[0], snapshotOf(null), lang);
    expect(challengeJson(catalog, defs[0], snapshotOf(null), lang)).toBe(text);
    expect(JSON.parse(text).challenge_name).toBe("Herausforderung 1");
    const other = indexCatalog("en", [category("7", [challenge("1", { name: { en: "Renamed" } })])]);
    expect(
      JSON.parse(challengeJson(other, other.categories[0].challenges[0], snapshotOf(null), lang)).challenge_name,
    ).toBe("Renamed");
    expect(
      JSON.parse(challengeJson(catalog, defs[0], snapshotOf({ ...started, score: 4 }), lang))
        .user_challenge_current_score,
    ).toBe(4);
  });

  it("answers an empty category as an empty list", () => {
    const lang = { defaultLanguage: "en" };
    const empty = category("8", []);
    expect(categoryJson(empty, 1, [], lang)).toBe(JSON.stringify(presentCategory(empty, 1, [], lang)));
  });

  it("joins a category or a list again only when one of its texts differs, in each language", () => {
    const [unit] = catalog.categories;
    const expected = (
      snapshots: ReturnType<typeof snapshotOf>[],
      lang: { language?: string; defaultLanguage: string },
    ) => {
      const views = defs.map((def, i) => presentChallenge(def, snapshots[i], lang));
      return JSON.stringify([presentCategory(unit, 0, views, lang)]);
    };
    const listed = (
      snapshots: ReturnType<typeof snapshotOf>[],
      lang: { language?: string; defaultLanguage: string },
    ) => {
      const texts = defs.map((def, i) => challengeJson(catalog, def, snapshots[i], lang));
      return listJson(catalog, [categoryJson(unit, 0, texts, lang)], lang);
    };
    const en = { defaultLanguage: "en" };
    const de = { language: "de", defaultLanguage: "en" };
    const fresh = [snapshotOf(null), snapshotOf(null)];
    // A user who never started anything, one with progress, then each again and in another language.
    for (const [snapshots, lang] of [
      [fresh, en],
      [fresh, en],
      [[snapshotOf(null), snapshotOf(started)], en],
      [[snapshotOf(null), snapshotOf({ ...started, score: 4 })], en],
      [fresh, de],
      [fresh, en],
      [[snapshotOf(null), snapshotOf(started)], de],
    ] as const) {
      expect(listed([...snapshots], lang)).toBe(expected([...snapshots], lang));
    }
  });
});
