import { describe, expect, it } from "vitest";
import { createTestApp } from "../helpers";
import { exportCatalog, planCatalog, applied } from "../catalog/support";
import { createSystem } from "../points/support";
import { admin, createAchievement, replaceAchievement } from "./support";

const METRIC = { kind: "metric", event_name: "kill-enemy", aggregation: "count" };

describe("achievements: configuration", () => {
  it("creates, lists, gets, replaces and deletes an achievement, each write audited", async () => {
    const app = await createTestApp("Achievements config");
    const created = await createAchievement(app.appId, { key: "kills-10", ...METRIC, threshold: 10 });
    expect(created).toEqual({
      achievement_id: created.achievement_id,
      app_id: app.appId,
      key: "kills-10",
      name: { en: "Achievement" },
      description: null,
      hidden: false,
      hidden_description: null,
      icon: null,
      kind: "metric",
      status: "active",
      sort_order: 0,
      points_rewards: [],
      event_name: "kill-enemy",
      filters: [],
      value_field: null,
      aggregation: "count",
      threshold: 10,
      requires: [],
      backdated: true,
      created_at: created.created_at,
      updated_at: created.updated_at,
    });
    const summed = await createAchievement(app.appId, {
      key: "gold",
      kind: "metric",
      event_name: "collect-item",
      filters: [{ field: "item_type", op: "eq", value: "gold" }],
      threshold: 5,
      sort_order: -1,
    });
    expect(summed).toMatchObject({ aggregation: "sum", backdated: false, sort_order: -1 });
    const manual = await createAchievement(app.appId, { key: "secret", kind: "manual", hidden: true });
    expect(manual).toMatchObject({ kind: "manual", event_name: null, aggregation: null, threshold: null });

    const list = await admin("GET", `/apps/${app.appId}/achievements?pageSize=2`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 3, currentPage: 1, pageSize: 2 });
    expect(list.body.items.map((a: any) => a.key)).toEqual(["gold", "kills-10"]);
    expect((await admin("GET", `/apps/${app.appId}/achievements/${created.achievement_id}`)).body.key).toBe("kills-10");

    const replaced = await replaceAchievement(app.appId, created, { threshold: 20, status: "locked" });
    expect(replaced).toMatchObject({ threshold: 20, status: "locked", key: "kills-10" });
    expect((await admin("DELETE", `/apps/${app.appId}/achievements/${manual.achievement_id}`)).status).toBe(204);
    expect((await admin("GET", `/apps/${app.appId}/achievements/${manual.achievement_id}`)).status).toBe(404);
    expect((await admin("GET", `/apps/${app.appId}/achievements/abc`)).status).toBe(404);

    const audit = await admin("GET", `/apps/${app.appId}/audit-log?resource=achievement`);
    expect(audit.body.items.map((e: any) => e.action).sort()).toEqual([
      "create",
      "create",
      "create",
      "delete",
      "update",
    ]);
  });

  it("refuses what is wrong with a clear 4xx naming the field", async () => {
    const app = await createTestApp("Achievements validation");
    await createSystem(app.appId, { key: "xp" });
    const post = (body: Record<string, unknown>) =>
      admin("POST", `/apps/${app.appId}/achievements`, { name: "A", ...body });
    const fields = async (body: Record<string, unknown>) => {
      const r = await post(body);
      expect(r.status).toBe(400);
      return r.body.errors.map((e: any) => e.field);
    };
    expect(await fields({ key: "m", kind: "metric", event_name: "kill-enemy" })).toEqual(["threshold"]);
    expect(await fields({ key: "m", kind: "metric", threshold: 3 })).toEqual(["event_name"]);
    expect(await fields({ key: "m", kind: "metric", event_name: "kill-enemy", threshold: 0 })).toEqual(["threshold"]);
    expect(await fields({ key: "m", kind: "manual", event_name: "kill-enemy" })).toEqual(["event_name"]);
    expect(await fields({ key: "Bad Key", kind: "manual" })).toEqual(["key"]);
    expect(await fields({ key: "m", kind: "trophy" })).toEqual(["kind"]);
    expect(await fields({ key: "m", kind: "manual", status: "paused" })).toEqual(["status"]);
    expect(await fields({ key: "c", kind: "composite", requires: ["a"] })).toEqual(["requires"]);
    expect(await fields({ key: "m", kind: "manual", points_rewards: [{ system: "gold", amount: 5 }] })).toEqual([
      "points_rewards.0.system",
    ]);
    await createAchievement(app.appId, { key: "a", kind: "manual", points_rewards: [{ system: "xp", amount: 5 }] });
    const b = await createAchievement(app.appId, { key: "b", kind: "manual" });
    expect(await fields({ key: "c", kind: "composite", requires: ["a", "zzz"] })).toEqual(["requires.1"]);
    expect(await fields({ key: "c", kind: "composite", requires: ["a", "c"] })).toEqual(["requires"]);
    expect((await post({ key: "a", kind: "manual" })).status).toBe(409);

    // No cycles: c requires a and b, d requires c and a; c may not come to require d.
    const c = await createAchievement(app.appId, { key: "c", kind: "composite", requires: ["a", "b"] });
    await createAchievement(app.appId, { key: "d", kind: "composite", requires: ["c", "a"] });
    const cycle = await admin("PUT", `/apps/${app.appId}/achievements/${c.achievement_id}`, {
      key: "c",
      name: "C",
      kind: "composite",
      requires: ["d", "b"],
    });
    expect(cycle.status).toBe(400);
    expect(cycle.body.errors).toEqual([{ field: "requires", problem: "requirements would go round: c → d → c" }]);

    // What composites require stays: no deletion, no new key.
    const deleted = await admin("DELETE", `/apps/${app.appId}/achievements/${b.achievement_id}`);
    expect(deleted.status).toBe(409);
    expect(deleted.body.message).toBe("composite 'c' requires 'b': change it first");
    const renamed = await admin("PUT", `/apps/${app.appId}/achievements/${b.achievement_id}`, {
      key: "b2",
      name: "B",
      kind: "manual",
    });
    expect(renamed.status).toBe(409);
    expect(renamed.body.errors).toEqual([{ field: "key", problem: "composite 'c' requires 'b': change it first" }]);
    expect((await admin("POST", `/apps/999999/achievements`, { key: "x", name: "X", kind: "manual" })).status).toBe(
      404,
    );
  });

  it("is a section of the catalog document: exported, planned (requirements and rewards checked) and applied", async () => {
    const app = await createTestApp("Achievements catalog");
    await createSystem(app.appId, { key: "xp" });
    await createAchievement(app.appId, {
      key: "k1",
      ...METRIC,
      threshold: 1,
      points_rewards: [{ system: "xp", amount: 3 }],
    });
    await createAchievement(app.appId, { key: "m", kind: "manual" });
    await createAchievement(app.appId, { key: "both", kind: "composite", requires: ["k1", "m"] });
    const doc = await exportCatalog(app.appId);
    expect(doc.achievements).toEqual([
      {
        key: "k1",
        name: { en: "Achievement" },
        description: null,
        hidden: false,
        hidden_description: null,
        icon: null,
        kind: "metric",
        status: "active",
        sort_order: 0,
        points_rewards: [{ system: "xp", amount: 3 }],
        event_name: "kill-enemy",
        filters: [],
        value_field: null,
        aggregation: "count",
        threshold: 1,
        requires: [],
      },
      expect.objectContaining({ key: "m", kind: "manual", requires: [] }),
      expect.objectContaining({ key: "both", kind: "composite", requires: ["k1", "m"] }),
    ]);
    // The export applies to itself as no change.
    const same = await planCatalog(app.appId, doc);
    expect(same.status).toBe(200);
    expect(same.body.changes.filter((s: any) => s.object === "achievement")).toEqual([]);

    const broken = structuredClone(doc);
    broken.achievements[2].requires = ["k1", "gone"];
    broken.achievements[0].points_rewards = [{ system: "coins", amount: 1 }];
    const plan = await planCatalog(app.appId, broken);
    expect(plan.status).toBe(400);
    expect(plan.body.errors).toEqual([
      { field: "achievements.0.points_rewards.0.system", problem: "no points system 'coins' in this app" },
      { field: "achievements.2.requires.1", problem: "no achievement 'gone' in this app" },
    ]);
    const next = structuredClone(doc);
    next.achievements[0].threshold = 5;
    next.achievements.push({ key: "k2", name: "Two", kind: "metric", event_name: "kill-enemy", threshold: 10 });
    await applied(app.appId, next);
    const after = await exportCatalog(app.appId);
    expect(after.achievements.map((a: any) => [a.key, a.threshold, a.aggregation])).toEqual([
      ["k1", 5, "count"],
      ["m", null, null],
      ["both", null, null],
      ["k2", 10, "sum"],
    ]);
  });
});
