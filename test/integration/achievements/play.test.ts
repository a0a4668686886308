import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { userObject } from "../../../src/user/names";
import { call, captureSends, createTestApp, sendEvent } from "../helpers";
import { connectClient, json, subscribe, topicLink } from "../realtime/support";
import { backend, createSystem } from "../points/support";
import { admin, createAchievement, grant, listOf, replaceAchievement, revoke, viewOf } from "./support";

const webhooksSent = () =>
  captureSends(env.WEBHOOKS, (m: { webhookType: string; body: string }) => ({
    type: m.webhookType,
    payload: JSON.parse(m.body),
  }));

const subscribeWebhook = (appId: string, type: string) =>
  admin("POST", `/apps/${appId}/webhooks`, {
    webhook_type: type,
    url: `https://hooks.example.com/${type}`,
    secret_key: "s3cret-s3cret-s3cret",
  });

const watchersOf = (appId: string, userId: string) =>
  runInDurableObject(userObject(env, appId, userId), (_instance, state) =>
    state.storage.sql.exec("SELECT topic FROM rt_watchers ORDER BY topic").toArray(),
  );

const holdersOf = async (achievementId: string) =>
  (
    await env.DB.prepare("SELECT holders FROM achievement_holders WHERE achievement_id = ?")
      .bind(Number(achievementId))
      .first<{ holders: number }>()
  )?.holders ?? 0;

describe("achievements: earning", () => {
  it("a ladder: each rung earned at its threshold exactly once, one webhook and one MQTT message each, rewards credited", async () => {
    const app = await createTestApp("Achievements ladder");
    await createSystem(app.appId, { key: "xp" });
    const rungs = [];
    for (const [i, threshold] of [2, 4, 6].entries())
      rungs.push(
        await createAchievement(app.appId, {
          key: `kills-${threshold}`,
          kind: "metric",
          event_name: "slay",
          aggregation: "count",
          threshold,
          sort_order: i,
          points_rewards: [{ system: "xp", amount: 10 * (i + 1) }],
        }),
      );
    expect((await subscribeWebhook(app.appId, "achievement-unlocked")).status).toBe(201);
    const token = await app.tokenFor("ann");
    const notifications = await topicLink(token, "user-notifications-topic-link");
    const client = await connectClient(4);
    expect(await subscribe(client, [notifications])).toEqual([1]);
    await vi.waitFor(async () => expect(await watchersOf(app.appId, "ann")).toHaveLength(1), {
      timeout: 15_000,
      interval: 50,
    });
    const sent = webhooksSent();
    const progress = async () => (await listOf(app.appId, app.apiKey, "ann")).map((a) => [a.progress, a.achieved]);

    expect(await progress()).toEqual([
      [0, false],
      [0, false],
      [0, false],
    ]);
    await sendEvent(app.apiKey, "ann", "slay");
    expect(await progress()).toEqual([
      [1, false],
      [1, false],
      [1, false],
    ]);
    await sendEvent(app.apiKey, "ann", "slay");
    expect(await progress()).toEqual([
      [2, true],
      [2, false],
      [2, false],
    ]);
    for (let i = 0; i < 5; i++) await sendEvent(app.apiKey, "ann", "slay");
    expect(await progress()).toEqual([
      [2, true],
      [4, true],
      [6, true],
    ]);
    const unlocked = sent.filter((s) => s.type === "achievement-unlocked").map((s) => s.payload);
    expect(unlocked.map((p) => p.key)).toEqual(["kills-2", "kills-4", "kills-6"]);
    expect(unlocked[0]).toEqual({
      webhook_type: "achievement-unlocked",
      app_id: app.appId,
      user_id: "ann",
      achievement_id: rungs[0].achievement_id,
      key: "kills-2",
      achieved_at: unlocked[0].achieved_at,
      rarity: 0,
    });
    // The notifications topic carries each unlock, then the points its reward credited.
    const messages = [];
    for (let i = 0; i < 6; i++) {
      const p = await client.next();
      expect(p).toMatchObject({ type: "publish", topic: notifications });
      messages.push(json((p as { payload: Uint8Array }).payload));
    }
    expect(messages.filter((m) => m.webhook_type === "achievement-unlocked")).toEqual(unlocked);
    expect(messages.map((m) => [m.webhook_type, m.key ?? m.amount])).toEqual([
      ["achievement-unlocked", "kills-2"],
      ["points-changed", 10],
      ["achievement-unlocked", "kills-4"],
      ["points-changed", 20],
      ["achievement-unlocked", "kills-6"],
      ["points-changed", 30],
    ]);
    await client.sync();
    expect(client.unread).toEqual([]);
    client.close();
    // 10 + 20 + 30 credited with the rungs.
    expect((await backend(app.appId, app.apiKey).balanceOf("ann", "xp")).balance).toBe(60);
    const ledger = await backend(app.appId, app.apiKey).ledger("ann", "xp");
    expect(ledger.map((e: any) => [e.amount, e.source.kind, e.source.id])).toEqual([
      [30, "achievement", rungs[2].achievement_id],
      [20, "achievement", rungs[1].achievement_id],
      [10, "achievement", rungs[0].achievement_id],
    ]);
  });

  it("sums the default amount, counts filtered events from creation, keeps the maximum", async () => {
    const app = await createTestApp("Achievements aggregations");
    await createAchievement(app.appId, { key: "sum-10", kind: "metric", event_name: "loot", threshold: 10 });
    await createAchievement(app.appId, {
      key: "max-7",
      kind: "metric",
      event_name: "loot",
      aggregation: "max",
      threshold: 7,
    });
    await createAchievement(app.appId, {
      key: "gold-3",
      kind: "metric",
      event_name: "loot",
      filters: [{ field: "item_type", op: "eq", value: "gold" }],
      aggregation: "count",
      threshold: 3,
    });
    await sendEvent(app.apiKey, "bo", "loot", { amount: 4, item_type: "gold" });
    await sendEvent(app.apiKey, "bo", "loot", { amount: 3, item_type: "wood" });
    await sendEvent(app.apiKey, "bo", "loot", { item_type: "gold" });
    const view = Object.fromEntries(
      (await listOf(app.appId, app.apiKey, "bo")).map((a) => [a.key, [a.progress, a.achieved]]),
    );
    expect(view).toEqual({ "sum-10": [8, false], "max-7": [4, false], "gold-3": [2, false] });
    await sendEvent(app.apiKey, "bo", "loot", { amount: 9, item_type: "gold" });
    const after = Object.fromEntries(
      (await listOf(app.appId, app.apiKey, "bo")).map((a) => [a.key, [a.progress, a.achieved]]),
    );
    expect(after).toEqual({ "sum-10": [10, true], "max-7": [7, true], "gold-3": [3, true] });
  });

  it("hidden: before it is held the list shows neither its name nor its progress; after, both", async () => {
    const app = await createTestApp("Achievements hidden");
    const secret = await createAchievement(app.appId, {
      key: "dragon",
      name: { en: "Dragon slayer", de: "Drachentöter" },
      description: "Slew the dragon",
      hidden: true,
      hidden_description: { en: "Something big lives in the mountains", de: "Etwas Großes lebt in den Bergen" },
      icon: "dragon.png",
      kind: "metric",
      event_name: "slay",
      filters: [{ field: "enemy_type", op: "eq", value: "dragon" }],
      aggregation: "count",
      threshold: 2,
    });
    const plain = await createAchievement(app.appId, { key: "shy", hidden: true, kind: "manual" });
    await sendEvent(app.apiKey, "cy", "slay", { enemy_type: "dragon" });
    const before = await listOf(app.appId, app.apiKey, "cy");
    expect(before).toEqual([
      {
        achievement_id: secret.achievement_id,
        key: "dragon",
        name: "Hidden achievement",
        description: "Something big lives in the mountains",
        icon: null,
        hidden: true,
        achieved: false,
        achieved_at: null,
        progress: null,
        threshold: null,
        rarity: 0,
      },
      {
        achievement_id: plain.achievement_id,
        key: "shy",
        name: "Hidden achievement",
        description: "Hidden achievement",
        icon: null,
        hidden: true,
        achieved: false,
        achieved_at: null,
        progress: null,
        threshold: null,
        rarity: 0,
      },
    ]);
    expect((await listOf(app.appId, app.apiKey, "cy", "de"))[0]).toMatchObject({
      name: "Verborgener Erfolg",
      description: "Etwas Großes lebt in den Bergen",
    });
    await sendEvent(app.apiKey, "cy", "slay", { enemy_type: "dragon" });
    const after = (await listOf(app.appId, app.apiKey, "cy"))[0];
    expect(after).toEqual({
      achievement_id: secret.achievement_id,
      key: "dragon",
      name: "Dragon slayer",
      description: "Slew the dragon",
      icon: "dragon.png",
      hidden: true,
      achieved: true,
      achieved_at: after.achieved_at,
      progress: 2,
      threshold: 2,
      rarity: 0,
    });
    expect(Date.parse(after.achieved_at)).toBeGreaterThan(0);
  });

  it("composite: earned in the same request as its last requirement, with its own webhook", async () => {
    const app = await createTestApp("Achievements composite");
    const kills = await createAchievement(app.appId, {
      key: "kills-1",
      kind: "metric",
      event_name: "slay",
      threshold: 1,
    });
    const manual = await createAchievement(app.appId, { key: "vip", kind: "manual" });
    const both = await createAchievement(app.appId, { key: "both", kind: "composite", requires: ["kills-1", "vip"] });
    const top = await createAchievement(app.appId, { key: "top", kind: "composite", requires: ["both", "vip"] });
    await subscribeWebhook(app.appId, "achievement-unlocked");
    const sent = webhooksSent();
    await sendEvent(app.apiKey, "dee", "slay");
    expect(await viewOf(app.appId, app.apiKey, "dee", "both")).toMatchObject({
      achieved: false,
      progress: 1,
      threshold: 2,
    });
    const granted = await grant(app.appId, app.apiKey, manual.achievement_id, "dee");
    expect(granted.status).toBe(200);
    expect(granted.body).toEqual({
      achievement_id: manual.achievement_id,
      key: "vip",
      user_id: "dee",
      achieved_at: granted.body.achieved_at,
      granted: true,
      also_earned: [both.achievement_id, top.achievement_id],
    });
    const list = await listOf(app.appId, app.apiKey, "dee");
    expect(
      list.map((a) => [a.key, a.achieved, a.achieved_at === null ? null : a.achieved_at === granted.body.achieved_at]),
    ).toEqual([
      ["kills-1", true, false],
      ["vip", true, true],
      ["both", true, true],
      ["top", true, true],
    ]);
    expect(sent.map((s) => s.payload.key)).toEqual(["kills-1", "vip", "both", "top"]);
    void kills;
  });

  it("backdating: an achievement created after a player's events is held at the player's next call; a filtered one counts from its creation", async () => {
    const app = await createTestApp("Achievements backdating");
    for (let i = 0; i < 3; i++) await sendEvent(app.apiKey, "eli", "win-match", { amount: 5 });
    await sendEvent(app.apiKey, "eli", "win-match", { amount: 5, map_name: "dust" });
    await createAchievement(app.appId, { key: "wins-20", kind: "metric", event_name: "win-match", threshold: 20 });
    await createAchievement(app.appId, {
      key: "wins-4",
      kind: "metric",
      event_name: "win-match",
      aggregation: "count",
      threshold: 4,
    });
    await createAchievement(app.appId, {
      key: "best-5",
      kind: "metric",
      event_name: "win-match",
      aggregation: "max",
      threshold: 5,
    });
    await createAchievement(app.appId, {
      key: "dust-1",
      kind: "metric",
      event_name: "win-match",
      filters: [{ field: "map_name", op: "eq", value: "dust" }],
      aggregation: "count",
      threshold: 1,
    });
    await createAchievement(app.appId, { key: "wins-21", kind: "metric", event_name: "win-match", threshold: 21 });
    const view = async () =>
      Object.fromEntries((await listOf(app.appId, app.apiKey, "eli")).map((a) => [a.key, [a.progress, a.achieved]]));
    expect(await view()).toEqual({
      "wins-20": [20, true],
      "wins-4": [4, true],
      "best-5": [5, true],
      "dust-1": [0, false],
      "wins-21": [20, false],
    });
    // Activated later: earned by who qualifies at their next call (here an event of another name).
    const later = await createAchievement(app.appId, {
      key: "wins-2",
      kind: "metric",
      event_name: "win-match",
      aggregation: "count",
      threshold: 2,
      status: "inactive",
    });
    expect((await listOf(app.appId, app.apiKey, "eli")).map((a) => a.key)).not.toContain("wins-2");
    await replaceAchievement(app.appId, later, { status: "active" });
    await subscribeWebhook(app.appId, "achievement-unlocked");
    const sent = webhooksSent();
    await sendEvent(app.apiKey, "eli", "chest");
    expect(sent.map((s) => s.payload.key)).toEqual(["wins-2"]);
    expect((await viewOf(app.appId, app.apiKey, "eli", "wins-2")).achieved).toBe(true);
  });

  it("locked: an existing holder keeps it, a new qualifying player does not get it; inactive is hidden and counts nothing", async () => {
    const app = await createTestApp("Achievements locked");
    const first = await createAchievement(app.appId, {
      key: "first",
      kind: "metric",
      event_name: "slay",
      threshold: 1,
    });
    const manual = await createAchievement(app.appId, { key: "m", kind: "manual" });
    await sendEvent(app.apiKey, "fay", "slay");
    await replaceAchievement(app.appId, first, { status: "locked" });
    await replaceAchievement(app.appId, manual, { status: "locked" });
    await sendEvent(app.apiKey, "gus", "slay");
    expect(await viewOf(app.appId, app.apiKey, "fay", "first")).toMatchObject({ achieved: true, progress: 1 });
    expect(await viewOf(app.appId, app.apiKey, "gus", "first")).toMatchObject({ achieved: false, progress: 1 });
    const refused = await grant(app.appId, app.apiKey, manual.achievement_id, "gus");
    expect(refused).toMatchObject({
      status: 409,
      body: { message: "Achievement m is locked: it takes no new holders" },
    });
    await replaceAchievement(app.appId, first, { status: "inactive" });
    expect((await listOf(app.appId, app.apiKey, "fay")).map((a) => a.key)).toEqual(["m"]);
    await sendEvent(app.apiKey, "hal", "slay");
    await replaceAchievement(app.appId, first, { status: "active" });
    // Back to active: the totals kept all along award it to both who qualify.
    expect(await viewOf(app.appId, app.apiKey, "gus", "first")).toMatchObject({ achieved: true });
    expect(await viewOf(app.appId, app.apiKey, "hal", "first")).toMatchObject({ achieved: true });
  });

  it("rarity: with 10 players of whom 3 hold it, rarity is 30.0 within a minute", async () => {
    const app = await createTestApp("Achievements rarity");
    const rare = await createAchievement(app.appId, { key: "rare", kind: "metric", event_name: "chest", threshold: 1 });
    for (let i = 0; i < 10; i++) await sendEvent(app.apiKey, `p${i}`, i < 3 ? "chest" : "slay");
    await vi.waitFor(async () => expect((await viewOf(app.appId, app.apiKey, "p9", "rare")).rarity).toBe(30), {
      timeout: 60_000,
      interval: 500,
    });
    expect(await holdersOf(rare.achievement_id)).toBe(3);
  }, 90_000);

  it("manual grant with an access token is 403; with the API key it is held; revocation takes composites too and is audited", async () => {
    const app = await createTestApp("Achievements grants");
    await createSystem(app.appId, { key: "xp" });
    const manual = await createAchievement(app.appId, {
      key: "helper",
      kind: "manual",
      points_rewards: [{ system: "xp", amount: 25 }],
    });
    const other = await createAchievement(app.appId, { key: "other", kind: "manual" });
    const both = await createAchievement(app.appId, { key: "both", kind: "composite", requires: ["helper", "other"] });
    const token = await app.tokenFor("ivy");
    expect((await grant(app.appId, token, manual.achievement_id, "ivy")).status).toBe(403);
    expect((await viewOf(app.appId, app.apiKey, "ivy", "helper")).achieved).toBe(false);
    const granted = await grant(app.appId, app.apiKey, manual.achievement_id, "ivy");
    expect(granted).toMatchObject({ status: 200, body: { granted: true, also_earned: [] } });
    const again = await grant(app.appId, app.apiKey, manual.achievement_id, "ivy");
    expect(again).toMatchObject({ status: 200, body: { granted: false, achieved_at: granted.body.achieved_at } });
    expect((await backend(app.appId, app.apiKey).balanceOf("ivy", "xp")).balance).toBe(25);
    const viaToken = await call("GET", `/api/v1/achievements/${app.appId}`, { token });
    expect(viaToken.status).toBe(200);
    expect(viaToken.body.achievements[0]).toMatchObject({
      key: "helper",
      achieved: true,
      progress: null,
      threshold: null,
    });
    expect((await grant(app.appId, app.apiKey, "999999", "ivy")).status).toBe(404);
    expect(
      (
        await call("POST", `/api/v1/achievements/${app.appId}/${manual.achievement_id}/grant`, {
          token: app.apiKey,
          body: {},
        })
      ).status,
    ).toBe(400);

    expect((await grant(app.appId, app.apiKey, other.achievement_id, "ivy")).body.also_earned).toEqual([
      both.achievement_id,
    ]);
    expect((await revoke(app.appId, token, manual.achievement_id, "ivy")).status).toBe(403);
    const revoked = await revoke(app.appId, app.apiKey, manual.achievement_id, "ivy", "granted by mistake");
    expect(revoked).toMatchObject({
      status: 200,
      body: {
        achievement_id: manual.achievement_id,
        user_id: "ivy",
        revoked: [manual.achievement_id, both.achievement_id],
      },
    });
    expect((await listOf(app.appId, app.apiKey, "ivy")).map((a) => [a.key, a.achieved])).toEqual([
      ["helper", false],
      ["other", true],
      ["both", false],
    ]);
    // Rewards already credited stay.
    expect((await backend(app.appId, app.apiKey).balanceOf("ivy", "xp")).balance).toBe(25);
    expect((await revoke(app.appId, app.apiKey, manual.achievement_id, "ivy")).body.revoked).toEqual([]);
    const audit = await admin("GET", `/apps/${app.appId}/audit-log?resource=player&resource_id=ivy`);
    expect(audit.body.items).toMatchObject([
      {
        action: "revoke-achievement",
        actor: { kind: "api-key" },
        after: { user_id: "ivy", revoked: [manual.achievement_id, both.achievement_id], reason: "granted by mistake" },
      },
    ]);
    await vi.waitFor(
      async () => {
        expect(await holdersOf(manual.achievement_id)).toBe(0);
        expect(await holdersOf(other.achievement_id)).toBe(1);
        expect(await holdersOf(both.achievement_id)).toBe(0);
      },
      { timeout: 30_000, interval: 200 },
    );
  });

  it("a revoked achievement is not earned again by events; a grant gives it back", async () => {
    const app = await createTestApp("Achievements revoked");
    const first = await createAchievement(app.appId, {
      key: "first",
      kind: "metric",
      event_name: "slay",
      threshold: 1,
    });
    const other = await createAchievement(app.appId, { key: "other", kind: "manual" });
    const both = await createAchievement(app.appId, { key: "both", kind: "composite", requires: ["first", "other"] });
    await sendEvent(app.apiKey, "kai", "slay");
    expect((await grant(app.appId, app.apiKey, other.achievement_id, "kai")).body.also_earned).toEqual([
      both.achievement_id,
    ]);
    expect((await revoke(app.appId, app.apiKey, first.achievement_id, "kai")).body.revoked).toEqual([
      first.achievement_id,
      both.achievement_id,
    ]);
    await sendEvent(app.apiKey, "kai", "slay");
    expect((await listOf(app.appId, app.apiKey, "kai")).map((a) => [a.key, a.achieved, a.progress])).toEqual([
      ["first", false, 1],
      ["other", true, null],
      ["both", false, 1],
    ]);
    const exported = await admin("GET", `/apps/${app.appId}/users/kai/export`);
    expect(exported.body.achievements.revoked).toEqual([first.achievement_id]);
    const back = await grant(app.appId, app.apiKey, first.achievement_id, "kai");
    expect(back.body).toMatchObject({ granted: true, also_earned: [both.achievement_id] });
    expect((await listOf(app.appId, app.apiKey, "kai")).every((a) => a.achieved)).toBe(true);
  });

  it("a banned player earns nothing while banned", async () => {
    const app = await createTestApp("Achievements bans");
    const one = await createAchievement(app.appId, { key: "one", kind: "metric", event_name: "slay", threshold: 1 });
    const manual = await createAchievement(app.appId, { key: "m", kind: "manual" });
    expect((await admin("POST", `/apps/${app.appId}/users/jay/ban`, { reason: "cheating" })).status).toBe(200);
    await sendEvent(app.apiKey, "jay", "slay").catch(() => undefined);
    expect((await grant(app.appId, app.apiKey, manual.achievement_id, "jay")).status).toBe(403);
    expect(await viewOf(app.appId, app.apiKey, "jay", "one")).toMatchObject({ achieved: false, progress: 0 });
    expect((await admin("DELETE", `/apps/${app.appId}/users/jay/ban`)).status).toBe(204);
    await sendEvent(app.apiKey, "jay", "slay");
    expect(await viewOf(app.appId, app.apiKey, "jay", "one")).toMatchObject({ achieved: true, progress: 1 });
    void one;
  });
});
