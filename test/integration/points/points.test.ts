import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, call, captureSends, createTestApp, sendEvent } from "../helpers";
import { userPoints } from "../../../src/points/user-points";
import { applied, exportCatalog, planCatalog } from "../catalog/support";
import { backend, createSystem, XP_LEVELS } from "./support";

const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });
const webhooksSent = () =>
  captureSends(env.WEBHOOKS, (m: { webhookType: string; body: string }) => ({
    type: m.webhookType,
    payload: JSON.parse(m.body),
  }));

describe("points systems: configuration", () => {
  it("creates, lists, replaces and deletes a system, each write audited", async () => {
    const app = await createTestApp("Points config");
    const created = await createSystem(app.appId, {
      key: "xp",
      name: { en: "Experience", de: "Erfahrung" },
      credits_challenge_xp: true,
      levels: XP_LEVELS,
      triggers: [{ event_name: "kill-enemy", every: 10, points: 5 }],
    });
    expect(created).toMatchObject({
      app_id: app.appId,
      key: "xp",
      name: { en: "Experience", de: "Erfahrung" },
      description: null,
      icon: null,
      spendable: false,
      max_balance: null,
      credits_challenge_xp: true,
      levels: XP_LEVELS,
      triggers: [{ event_name: "kill-enemy", filters: [], value_field: null, every: 10, points: 5 }],
    });
    const list = await admin("GET", `/apps/${app.appId}/points-systems`);
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ total: 1, items: [{ system_id: created.system_id, key: "xp" }] });

    const replaced = await admin("PUT", `/apps/${app.appId}/points-systems/${created.system_id}`, {
      key: "xp",
      name: "XP",
      spendable: true,
      max_balance: 1000,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ name: "XP", spendable: true, max_balance: 1000, levels: [], triggers: [] });
    expect((await admin("GET", `/apps/${app.appId}/points-systems/${created.system_id}`)).body.name).toBe("XP");

    expect((await admin("DELETE", `/apps/${app.appId}/points-systems/${created.system_id}`)).status).toBe(204);
    expect((await admin("GET", `/apps/${app.appId}/points-systems/${created.system_id}`)).status).toBe(404);

    const audit = await admin("GET", `/apps/${app.appId}/audit-log?resource=points-system`);
    expect((audit.body.items as any[]).map((e) => e.action).sort()).toEqual(["create", "delete", "update"]);
  });

  it("refuses what is wrong with 400 naming the field, and clashes with 409", async () => {
    const app = await createTestApp("Points validation");
    const bad = async (body: Record<string, unknown>) => {
      const r = await admin("POST", `/apps/${app.appId}/points-systems`, { name: "P", ...body });
      expect(r.status).toBe(400);
      return (r.body.errors as { field: string }[]).map((e) => e.field);
    };
    expect(await bad({ key: "Not A Key" })).toEqual(["key"]);
    expect(
      await bad({
        key: "p",
        levels: [
          { level: 1, name: "a", points: 10 },
          { level: 2, name: "b", points: 10 },
        ],
      }),
    ).toEqual(["levels.1.points"]);
    expect(await bad({ key: "p", levels: [{ level: 2, name: "a", points: 0 }] })).toEqual(["levels.0.level"]);
    expect(await bad({ key: "p", triggers: [{ event_name: "x", every: 0, points: 1 }] })).toEqual(["triggers.0.every"]);
    expect(await bad({ key: "p", name: {} })).toEqual(["name"]);

    await createSystem(app.appId, { key: "xp", credits_challenge_xp: true });
    const sameKey = await admin("POST", `/apps/${app.appId}/points-systems`, { key: "xp", name: "again" });
    expect(sameKey).toMatchObject({ status: 409, body: { errors: [{ field: "key" }] } });
    const secondXp = await admin("POST", `/apps/${app.appId}/points-systems`, {
      key: "karma",
      name: "Karma",
      credits_challenge_xp: true,
    });
    expect(secondXp).toMatchObject({ status: 409, body: { errors: [{ field: "credits_challenge_xp" }] } });
  });
});

describe("points systems: catalog as code", () => {
  it("export, apply to an empty app, export again: the same systems; applying it again changes nothing", async () => {
    const source = await createTestApp("Points source");
    await createSystem(source.appId, {
      key: "xp",
      name: { en: "Experience", de: "Erfahrung" },
      description: "Grows as you play",
      icon: "xp.png",
      credits_challenge_xp: true,
      levels: XP_LEVELS,
      triggers: [
        {
          event_name: "run",
          value_field: "distance",
          every: 100,
          points: 5,
          filters: [{ field: "realm", op: "eq", value: "moon" }],
        },
      ],
    });
    await createSystem(source.appId, { key: "coins", spendable: true, max_balance: 5000 });
    const exported = await exportCatalog(source.appId);
    expect(exported.points_systems).toEqual([
      {
        key: "xp",
        name: { en: "Experience", de: "Erfahrung" },
        description: "Grows as you play",
        icon: "xp.png",
        spendable: false,
        max_balance: null,
        credits_challenge_xp: true,
        levels: XP_LEVELS,
        triggers: [
          {
            event_name: "run",
            filters: [{ field: "realm", op: "eq", value: "moon" }],
            value_field: "distance",
            every: 100,
            points: 5,
          },
        ],
      },
      {
        key: "coins",
        name: { en: "Points" },
        description: null,
        icon: null,
        spendable: true,
        max_balance: 5000,
        credits_challenge_xp: false,
        levels: [],
        triggers: [],
      },
    ]);
    const copy = await createTestApp("Points copy");
    const answer = await applied(copy.appId, exported);
    expect(answer.summary).toMatchObject({ create: 2, delete: 0, blocked: 0 });
    expect(await exportCatalog(copy.appId)).toEqual(exported);
    expect((await applied(copy.appId, exported)).summary).toMatchObject({ create: 0, update: 0, delete: 0 });
    // The copy's systems work: its triggers give points.
    await sendEvent(copy.apiKey, "ann", "run", { distance: 250, realm: "moon" });
    expect(await backend(copy.appId, copy.apiKey).balanceOf("ann", "xp")).toMatchObject({ balance: 10, earned: 10 });
  });
});

describe("points rewards in catalog documents", () => {
  it("refuses a reward naming a system the app will not have (400 naming the field), and takes one the document creates", async () => {
    const app = await createTestApp("Points rewards in documents");
    const doc = (systems: unknown[]) => ({
      version: 1,
      points_systems: systems,
      categories: [
        {
          category_slug: "weekly",
          category_name: "Weekly",
          challenges: [
            {
              key: "slayer",
              challenge_name: "Slay",
              challenge_goal: 1,
              event_name: "slay",
              points_rewards: [{ system: "gems", amount: 3 }],
            },
          ],
        },
      ],
    });
    const refused = await planCatalog(app.appId, doc([]));
    expect(refused).toMatchObject({
      status: 400,
      body: {
        errors: [
          {
            field: "categories.0.challenges.0.points_rewards.0.system",
            problem: "no points system 'gems' in this app",
          },
        ],
      },
    });
    const answer = await applied(app.appId, doc([{ key: "gems", name: "Gems", spendable: true }]));
    expect(answer.summary).toMatchObject({ create: 3, blocked: 0 });
    const exported = await exportCatalog(app.appId);
    expect(exported.categories[0].challenges[0].points_rewards).toEqual([{ system: "gems", amount: 3 }]);
  });
});

describe("points of a player", () => {
  it("a trigger gives points every N units, carried across events, one ledger entry per event", async () => {
    const app = await createTestApp("Points triggers");
    await createSystem(app.appId, {
      key: "xp",
      levels: XP_LEVELS,
      triggers: [
        { event_name: "run", value_field: "distance", every: 100, points: 60 },
        { event_name: "run", points: 1 },
      ],
    });
    const api = backend(app.appId, app.apiKey);
    await sendEvent(app.apiKey, "ann", "run", { distance: 70 });
    expect(await api.balanceOf("ann", "xp")).toEqual({
      key: "xp",
      name: "Points",
      balance: 1,
      earned: 1,
      level: { level: 1, name: "Rookie", points: 0 },
      next_level: { level: 2, name: "Apprentice", points: 100 },
    });
    await sendEvent(app.apiKey, "ann", "run", { distance: 150 });
    // 220 units: two full hundreds (120) and one event (1), 20 units carried.
    expect(await api.balanceOf("ann", "xp")).toMatchObject({ balance: 122, earned: 122, level: { level: 2 } });
    const ledger = await api.ledger("ann", "xp");
    expect(ledger.map((e) => [e.amount, e.balance_after, e.source])).toEqual([
      [121, 122, { kind: "trigger", id: "run" }],
      [1, 1, { kind: "trigger", id: "run" }],
    ]);
    // An event sent again with the same event_id counts once.
    const again = { event_id: "run-3" };
    await sendEvent(app.apiKey, "ann", "run", { distance: 80 }, again);
    await sendEvent(app.apiKey, "ann", "run", { distance: 80 }, again);
    expect(await api.balanceOf("ann", "xp")).toMatchObject({ balance: 183, earned: 183 });
  });

  it("grants and spends: capped, 409 when short, idempotent, level follows earned", async () => {
    const app = await createTestApp("Points writes");
    await createSystem(app.appId, { key: "coins", spendable: true, max_balance: 1000, levels: XP_LEVELS });
    await createSystem(app.appId, { key: "xp" });
    const api = backend(app.appId, app.apiKey);
    const granted = await api.grant("coins", "bob", 600, "g1", "welcome bonus");
    expect(granted).toMatchObject({
      status: 200,
      body: { balance: 600, earned: 600, level: { level: 3, name: "Veteran", points: 500 } },
    });
    expect(granted.body.entry_id).toMatch(/^\d+$/);
    // The same key answers the first result and changes nothing.
    expect((await api.grant("coins", "bob", 600, "g1")).body).toEqual(granted.body);
    // Capped at max_balance: 400 of 600 land.
    expect((await api.grant("coins", "bob", 600, "g2")).body).toMatchObject({ balance: 1000, earned: 1000 });
    const spent = await api.spend("coins", "bob", 900, "s1", "bought a sword");
    expect(spent).toMatchObject({ status: 200, body: { balance: 100, earned: 1000, level: { level: 3 } } });
    const short = await api.spend("coins", "bob", 101, "s2");
    expect(short).toEqual({
      status: 409,
      headers: short.headers,
      body: { status: 409, message: "Balance too low: 100 coins, 101 asked", balance: 100 },
    });
    expect((await api.spend("xp", "bob", 1, "s3")).status).toBe(409);
    const exported = await admin("GET", `/apps/${app.appId}/users/bob/export`);
    expect(exported.body.points).toMatchObject({
      balances: { coins: { balance: 100, earned: 1000 } },
      ledger: [
        { system: "coins", amount: 600, balance_after: 600, source: { kind: "grant", id: "g1" } },
        { system: "coins", amount: 400, balance_after: 1000, source: { kind: "grant", id: "g2" } },
        { system: "coins", amount: -900, balance_after: 100, source: { kind: "spend", id: "s1" } },
      ],
    });
    expect((await api.grant("nope", "bob", 1, "g3")).status).toBe(404);
    expect(await api.balanceOf("bob", "coins")).toMatchObject({ balance: 100, earned: 1000 });
    const ledger = await api.ledger("bob", "coins");
    expect(ledger.map((e) => [e.amount, e.balance_after, e.source.kind, e.reason])).toEqual([
      [-900, 100, "spend", "bought a sword"],
      [400, 1000, "grant", "test"],
      [600, 600, "grant", "welcome bonus"],
    ]);
  });

  it("grants and spends take the API key only, and refuse a banned player", async () => {
    const app = await createTestApp("Points credentials");
    await createSystem(app.appId, { key: "coins", spendable: true });
    const token = await app.tokenFor("cat");
    const byToken = await call("POST", `/api/v1/points/${app.appId}/coins/grant`, {
      token,
      body: { user_id: "cat", amount: 5, reason: "x", idempotency_key: "k" },
    });
    expect(byToken.status).toBe(403);
    // The player reads their own points with the token.
    const own = await call("GET", `/api/v1/points/${app.appId}`, { token });
    expect(own).toMatchObject({
      status: 200,
      body: { systems: [{ key: "coins", balance: 0, earned: 0, level: null }] },
    });
    expect((await admin("POST", `/apps/${app.appId}/users/dan/ban`, { reason: "cheating" })).status).toBe(200);
    const api = backend(app.appId, app.apiKey);
    expect((await api.grant("coins", "dan", 5, "k")).status).toBe(403);
    expect((await api.spend("coins", "dan", 5, "k")).status).toBe(403);
  });

  it("an operator's adjustment needs a reason, never goes below zero, is audited and notified", async () => {
    const app = await createTestApp("Points adjust");
    await createSystem(app.appId, { key: "xp", levels: XP_LEVELS });
    await admin("POST", `/apps/${app.appId}/webhooks`, {
      webhook_type: "points-changed",
      url: "https://hooks.example.com/points",
      secret_key: "s3cret-s3cret-s3cret",
    });
    const sent = webhooksSent();
    const path = `/apps/${app.appId}/users/eve/points/xp/adjust`;
    expect((await admin("POST", path, { amount: 150 })).status).toBe(400);
    expect((await admin("POST", path, { amount: 0, reason: "x" })).status).toBe(400);
    const r = await admin("POST", path, { amount: 150, reason: "lost after a crash" });
    expect(r).toMatchObject({
      status: 200,
      body: {
        before: { system: "xp", balance: 0, earned: 0 },
        after: { system: "xp", balance: 150, earned: 150 },
        reason: "lost after a crash",
      },
    });
    expect((await admin("POST", path, { amount: -151, reason: "too much" })).status).toBe(409);
    expect(
      (await admin("POST", `/apps/${app.appId}/users/eve/points/nope/adjust`, { amount: 1, reason: "x" })).status,
    ).toBe(404);
    expect(sent).toEqual([
      {
        type: "points-changed",
        payload: {
          webhook_type: "points-changed",
          app_id: app.appId,
          user_id: "eve",
          system: "xp",
          amount: 150,
          balance: 150,
          earned: 150,
          level: { level: 2, name: "Apprentice", points: 100 },
          previous_level: { level: 1, name: "Rookie", points: 0 },
          source: { kind: "adjustment", id: null },
        },
      },
    ]);
    const audit = await admin("GET", `/apps/${app.appId}/audit-log?resource=player&resource_id=eve`);
    expect(audit.body.items).toMatchObject([
      {
        action: "correct-points-adjust",
        before: { system: "xp", balance: 0, earned: 0 },
        after: { system: "xp", balance: 150, earned: 150, reason: "lost after a crash" },
      },
    ]);
  });

  it("stays exact under 1,000 concurrent grants and spends for one player", { timeout: 180_000 }, async () => {
    const app = await createTestApp("Points concurrency");
    await createSystem(app.appId, { key: "coins", spendable: true });
    const api = backend(app.appId, app.apiKey);
    // Straight to the player's object, as the routes call it: 1,000 requests through the Worker take minutes here.
    const player = userPoints(env, app.appId, "fay");
    const now = Date.now();
    const writes = Array.from({ length: 1000 }, (_, i) => {
      const grant = i % 5 < 3;
      return player.write(
        app.appId,
        {
          op: grant ? "grant" : "spend",
          systemKey: "coins",
          userId: "fay",
          amount: grant ? 2 : 1,
          reason: "load",
          idempotencyKey: `k${i}`,
        },
        now,
      );
    });
    const answers = await Promise.all(writes);
    const grants = answers.filter((a, i) => i % 5 < 3 && a.ok).length;
    const spends = answers.filter((a, i) => i % 5 >= 3 && a.ok).length;
    const short = answers.filter((a) => !a.ok && a.kind === "conflict").length;
    expect(grants).toBe(600);
    expect(spends + short).toBe(400);
    const balance = await api.balanceOf("fay", "coins");
    expect(balance).toMatchObject({ balance: 1200 - spends, earned: 1200 });
    const ledger = await api.ledger("fay", "coins");
    expect(ledger).toHaveLength(600 + spends);
    expect(ledger.reduce((sum, e) => sum + e.amount, 0)).toBe(1200 - spends);
    expect(ledger[0].balance_after).toBe(1200 - spends);
  });
});
