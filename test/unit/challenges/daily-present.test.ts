import { describe, expect, it } from "vitest";
import { availability } from "../../../src/challenges/core/availability";
import { dailyPick } from "../../../src/challenges/core/daily";
import { indexCatalog } from "../../../src/challenges/core/model";
import { category, challenge } from "./support";
import { presentCategory, presentChallenge, shortChallenge } from "../../../src/challenges/core/present";

describe("daily pick", () => {
  const pool = ["a", "b", "c", "d", "e", "f", "g", "h"];
  it("is deterministic per category slug, challenge keys and date, and picks the requested count", () => {
    const a = dailyPick(pool, 3, "daily", "2024-05-06");
    expect(a.size).toBe(3);
    expect(dailyPick(pool, 3, "daily", "2024-05-06")).toEqual(a);
    for (const key of a) expect(pool).toContain(key);
  });
  it("changes with the date and the category", () => {
    const days = new Set(
      ["2024-05-06", "2024-05-07", "2024-05-08", "2024-05-09"].map((d) =>
        [...dailyPick(pool, 3, "daily", d)].sort().join(),
      ),
    );
    expect(days.size).toBeGreaterThan(1);
    const categories = new Set(
      ["daily", "quests", "bonus", "extra"].map((slug) => [...dailyPick(pool, 3, slug, "2024-05-06")].sort().join()),
    );
    expect(categories.size).toBeGreaterThan(1);
  });
  it("shows the whole pool when it is not larger than the count", () => {
    expect(dailyPick(["a", "b"], 3, "daily", "2024-05-06")).toEqual(new Set(["a", "b"]));
  });
});

describe("availability", () => {
  const now = Date.parse("2024-05-06T12:00:00Z");
  it("waits for the live date", () => {
    const future = challenge("1", { liveDate: "2024-05-06T12:00:01.000Z" });
    const past = challenge("2", { liveDate: "2024-05-06T12:00:00.000Z" });
    const catalog = indexCatalog("en", [category("1", [future, past])]);
    const isAvailable = availability(catalog, now);
    expect(isAvailable(future)).toBe(false);
    expect(isAvailable(past)).toBe(true);
  });
  it("offers only today's pick of a daily category", () => {
    const defs = ["1", "2", "3", "4"].map((id) => challenge(id));
    const catalog = indexCatalog("en", [category("5", defs, { isDaily: true, dailyChallengeCount: 2 })]);
    const picked = dailyPick(["challenge-1", "challenge-2", "challenge-3", "challenge-4"], 2, "slug-5", "2024-05-06");
    const isAvailable = availability(catalog, now);
    expect(defs.filter(isAvailable).map((d) => d.key)).toEqual(
      ["challenge-1", "challenge-2", "challenge-3", "challenge-4"].filter((key) => picked.has(key)),
    );
  });
  it("indexes challenges by event name", () => {
    const catalog = indexCatalog("en", [
      category("1", [challenge("1"), challenge("2", { counter: { ...challenge("2").counter, eventName: "x" } })]),
    ]);
    expect(catalog.byEventName.get("kill-enemy")!.map((d) => d.challengeId)).toEqual(["1"]);
    expect(catalog.byEventName.get("x")!.map((d) => d.challengeId)).toEqual(["2"]);
  });
});

describe("presentation", () => {
  it("localizes and maps the type to user_challenge_status", () => {
    const view = presentChallenge(
      challenge("3"),
      { type: "unclaimed", instance: null },
      { language: "de", defaultLanguage: "en" },
    );
    expect(view).toMatchObject({
      challenge_name: "Herausforderung 3",
      challenge_description: "Text DE",
      user_challenge_status: 3,
      user_challenge_id: "0",
    });
    const statuses = (["unlock", "unlocked", "in-progress", "unclaimed", "finished", "lost", "cancelled"] as const).map(
      (type) =>
        presentChallenge(challenge("3"), { type, instance: null }, { defaultLanguage: "en" }).user_challenge_status,
    );
    expect(statuses).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
  it("unlock and activate answers lack the description and the auto flag", () => {
    const short = shortChallenge(
      presentChallenge(challenge("3"), { type: "unlocked", instance: null }, { defaultLanguage: "en" }),
    );
    expect(short).not.toHaveProperty("challenge_description");
    expect(short).not.toHaveProperty("challenge_auto_activated");
    expect(short).toHaveProperty("can_be_auto_activated");
  });
  it("carries scores and dates of the instance", () => {
    const instance = {
      userChallengeId: "77",
      type: "in-progress" as const,
      score: 4,
      lastSessionId: "s",
      unlockedAt: Date.parse("2024-05-06T10:00:00Z"),
      activatedAt: Date.parse("2024-05-06T11:00:00Z"),
      expiresAt: null,
      isClaimed: false,
      periodStart: null,
    };
    expect(
      presentChallenge(challenge("3"), { type: "in-progress", instance }, { defaultLanguage: "en" }),
    ).toMatchObject({
      user_challenge_id: "77",
      challenge_current_score: 4,
      user_challenge_current_score: 4,
      user_challenge_unlocked_at: "2024-05-06T10:00:00.000Z",
      user_challenge_activated_at: "2024-05-06T11:00:00.000Z",
    });
  });
  it("presents a category with its index in the user's list as category_position, not the stored sort key", () => {
    expect(
      presentCategory(category("4", [], { position: 40, isDaily: true }), 2, [], {
        language: "de",
        defaultLanguage: "en",
      }),
    ).toEqual({
      is_daily_category: true,
      category_position: 2,
      category_slug: "slug-4",
      category_name: "Täglich",
      category_id: "4",
      challenges: [],
    });
  });
});
