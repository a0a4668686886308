import { describe, expect, it } from "vitest";
import { createTestApp } from "../helpers";
import { applied, applyCatalog, configuration, demoCatalog, exportCatalog, planCatalog } from "./support";

/** The demo document with a few edits a studio would make. */
function editedDemo() {
  const doc = demoCatalog();
  const [daily, weekly] = doc.categories;
  weekly.challenges[0].challenge_goal = 250; // weekly-raider
  weekly.challenges[0].challenge_name.en = "Defeat 250 enemies";
  daily.category_name = { en: "Every day" };
  // daily-coins moves to the weekly category.
  weekly.challenges.push(daily.challenges.pop());
  const silver = doc.battle_passes[0].levels[1];
  silver.challenges.reverse(); // collector first, hunter second
  doc.battle_passes[0].levels[2].challenges.push({
    key: "sharp",
    challenge_name: "Laser kills",
    challenge_goal: 10,
    event_name: "kill-enemy",
  });
  doc.leaderboards = doc.leaderboards.filter((b: any) => b.key !== "weekly-kills");
  doc.leaderboards.push({ key: "coins", name: "Coins", event_name: "collect-item", aggregation: "sum" });
  return doc;
}

describe("plan", () => {
  it("lists each object to create, update (with the fields that change) or leave out, and changes nothing", async () => {
    const { appId } = await createTestApp("Plan");
    await applied(appId, demoCatalog());
    const before = await configuration(appId);

    const r = await planCatalog(appId, editedDemo());
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      app_id: appId,
      prune: false,
      applied: false,
      summary: { create: 2, update: 5, delete: 0, unmanaged: 1, blocked: 0 },
      changes: [
        {
          action: "update",
          object: "category",
          ref: "categories/daily",
          fields: [{ field: "category_name", before: { en: "Daily", de: "Täglich" }, after: { en: "Every day" } }],
        },
        {
          action: "update",
          object: "challenge",
          ref: "challenges/weekly-raider",
          fields: [
            {
              field: "challenge_name",
              before: { en: "Defeat 200 enemies", de: "Besiege 200 Gegner" },
              after: { en: "Defeat 250 enemies", de: "Besiege 200 Gegner" },
            },
            { field: "challenge_goal", before: 200, after: 250 },
          ],
        },
        {
          action: "update",
          object: "challenge",
          ref: "challenges/daily-coins",
          fields: [{ field: "category", before: "daily", after: "weekly" }],
        },
        {
          action: "update",
          object: "level_challenge",
          ref: "battle_passes/founders-season/levels/silver/challenges/collector",
          fields: [{ field: "position", before: 1, after: 0 }],
        },
        {
          action: "update",
          object: "level_challenge",
          ref: "battle_passes/founders-season/levels/silver/challenges/hunter",
          fields: [{ field: "position", before: 0, after: 1 }],
        },
        {
          action: "create",
          object: "level_challenge",
          ref: "battle_passes/founders-season/levels/gold/challenges/sharp",
          fields: [],
        },
        { action: "create", object: "leaderboard", ref: "leaderboards/coins", fields: [] },
      ],
      unmanaged: [{ object: "leaderboard", ref: "leaderboards/weekly-kills" }],
      blocked: [],
    });
    expect(await configuration(appId)).toEqual(before);
  });

  it("is what the apply then does: after it, the app exports the document and a new plan is empty", async () => {
    const { appId } = await createTestApp("Plan then apply");
    await applied(appId, demoCatalog());
    const doc = editedDemo();
    const plan = (await planCatalog(appId, doc)).body;
    const answer = await applied(appId, doc);
    expect({ ...answer, applied: false }).toEqual(plan);
    const exported = await exportCatalog(appId);
    // Players see a category's challenges in creation order (by id), so a moved challenge keeps its place.
    expect(exported.categories.map((c: any) => [c.category_slug, c.challenges.map((ch: any) => ch.key)])).toEqual([
      ["daily", ["daily-matches"]],
      ["weekly", ["daily-coins", "weekly-raider", "weekly-sharpshooter"]],
    ]);
    expect(exported.battle_passes[0].levels[1].challenges.map((c: any) => c.key)).toEqual(["collector", "hunter"]);
    expect(exported.leaderboards.map((b: any) => b.key)).toEqual(["high-scores", "weekly-kills", "coins"]);
    expect((await planCatalog(appId, doc)).body.summary).toEqual({
      create: 0,
      update: 0,
      delete: 0,
      unmanaged: 1,
      blocked: 0,
    });
  });
});

describe("apply", () => {
  it("is idempotent: the same document a second time writes nothing, not even the catalog version", async () => {
    const { appId } = await createTestApp("Idempotent");
    const first = await applied(appId, demoCatalog());
    expect(first.summary).toEqual({ create: 16, update: 0, delete: 0, unmanaged: 0, blocked: 0 });
    const before = await configuration(appId);
    const second = await applied(appId, demoCatalog());
    expect(second).toEqual({
      ...first,
      summary: { create: 0, update: 0, delete: 0, unmanaged: 0, blocked: 0 },
      changes: [],
    });
    expect(await configuration(appId)).toEqual(before);
  });

  it("deletes what the document leaves out only with prune=true, children before their parents", async () => {
    const { appId } = await createTestApp("Prune");
    await applied(appId, {
      ...demoCatalog(),
      webhooks: [{ key: "hook", webhook_type: "challenge-changed", url: "https://game.example.com/hook" }],
    });
    const smaller = demoCatalog();
    smaller.categories = smaller.categories.filter((c: any) => c.category_slug === "weekly");
    smaller.battle_passes[0].levels = smaller.battle_passes[0].levels.filter((l: any) => l.key !== "silver");
    smaller.leaderboards = [];

    const kept = await applied(appId, smaller);
    expect(kept.summary).toEqual({ create: 0, update: 0, delete: 0, unmanaged: 7, blocked: 0 });
    expect(kept.unmanaged).toEqual([
      { object: "challenge", ref: "challenges/daily-matches" },
      { object: "challenge", ref: "challenges/daily-coins" },
      { object: "category", ref: "categories/daily" },
      { object: "level", ref: "battle_passes/founders-season/levels/silver" },
      { object: "leaderboard", ref: "leaderboards/high-scores" },
      { object: "leaderboard", ref: "leaderboards/weekly-kills" },
      { object: "webhook", ref: "webhooks/hook" },
    ]);
    expect((await exportCatalog(appId)).categories).toHaveLength(2);

    const pruned = await applyCatalog(appId, smaller, { prune: true });
    expect(pruned.status).toBe(200);
    expect(pruned.body.changes.map((c: any) => `${c.action} ${c.ref}`)).toEqual([
      "delete challenges/daily-matches",
      "delete challenges/daily-coins",
      "delete categories/daily",
      "delete battle_passes/founders-season/levels/silver/challenges/hunter",
      "delete battle_passes/founders-season/levels/silver/challenges/collector",
      "delete battle_passes/founders-season/levels/silver",
      "delete leaderboards/high-scores",
      "delete leaderboards/weekly-kills",
      "delete webhooks/hook",
    ]);
    const exported = await exportCatalog(appId);
    expect(exported.categories.map((c: any) => c.category_slug)).toEqual(["weekly"]);
    expect(exported.battle_passes[0].levels.map((l: any) => l.key)).toEqual(["bronze", "gold"]);
    expect(exported.leaderboards).toEqual([]);
    expect(exported.webhooks).toEqual([]);
    expect((await planCatalog(appId, smaller, { prune: true })).body.summary).toEqual({
      create: 0,
      update: 0,
      delete: 0,
      unmanaged: 0,
      blocked: 0,
    });
  });
});
