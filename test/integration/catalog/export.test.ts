import { describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { createCategory, createChallenge } from "../challenges/support";
import { applied, catalogVersion, demoCatalog, exportCatalog } from "./support";

const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin/apps${path}`, { token: ADMIN, body });

describe("export", () => {
  it("answers the configuration made through the admin API as a document, keyed by id where no key was chosen, without secrets", async () => {
    const { appId } = await createTestApp("Exported");
    const weekly = await createCategory(appId, {
      category_slug: "weekly",
      category_name: { en: "Weekly" },
      category_position: 2,
    });
    const first = await createChallenge(appId, weekly.category_id, {
      challenge_name: "Kill 3",
      challenge_description: null,
    });
    await createChallenge(appId, weekly.category_id, {
      key: "laser-kills",
      challenge_name: { en: "Laser kills", de: "Laser-Treffer" },
      live_date: "2026-02-01T10:00:00+01:00",
      filters: [{ field: "weapon_used", op: "eq", value: "laser" }],
    });
    const pass = (
      await admin("POST", `/${appId}/battle-passes`, {
        battle_pass_name: "Season",
        start_date: "2026-01-01T00:00:00Z",
        end_date: "2027-01-01T00:00:00Z",
      })
    ).body;
    const level = (
      await admin("POST", `/${appId}/battle-passes/${pass.battle_pass_id}/levels`, {
        key: "bronze",
        reward_amount: "5",
        level_reward_type: "item",
        challenges: [{ challenge_name: "Finish a match", challenge_goal: 1, event_name: "match-finish" }],
      })
    ).body;
    const board = (
      await admin("POST", `/${appId}/leaderboards`, {
        name: "Scores",
        event_name: "achieve-score",
        value_field: "score",
        aggregation: "max",
      })
    ).body;
    const hook = (
      await admin("POST", `/${appId}/webhooks`, {
        key: "game-server",
        webhook_type: "leaderboard-updated",
        url: "https://game.example.com/hooks",
        secret_key: "s3cret-value-123",
      })
    ).body;

    const r = await call("GET", `/api/v1/admin/apps/${appId}/catalog`, { token: ADMIN });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      version: 1,
      settings: { backend_only_events: [], rate_limits: {} },
      categories: [
        {
          category_slug: "weekly",
          category_name: { en: "Weekly" },
          category_position: 2,
          is_daily_category: false,
          daily_challenge_count: 3,
          challenges: [
            {
              key: `challenge-${first.challenge_id}`,
              challenge_name: "Kill 3",
              challenge_description: null,
              challenge_goal: 3,
              challenge_goal_condition: 0,
              challenge_duration_time: -1,
              live_date: null,
              challenge_price: 0,
              challenge_reward: "",
              challenge_reward_type: "",
              challenge_xp: 0,
              points_rewards: [],
              challenge_icon: "",
              challenge_icon_hd: "",
              repeatable: false,
              is_auto_activated: false,
              period_range: "never",
              period_range_reset_at_time: "00:00:00",
              period_range_time_zone: "UTC",
              event_name: "kill-enemy",
              value_field: null,
              filters: [],
              counter_scope: "session",
            },
            expect.objectContaining({
              key: "laser-kills",
              challenge_name: { en: "Laser kills", de: "Laser-Treffer" },
              challenge_description: { en: "Any weapon", de: "Jede Waffe" },
              live_date: "2026-02-01T09:00:00.000Z",
              filters: [{ field: "weapon_used", op: "eq", value: "laser" }],
            }),
          ],
        },
      ],
      battle_passes: [
        {
          key: `battle-pass-${pass.battle_pass_id}`,
          battle_pass_name: "Season",
          backend_only_unlock: false,
          battle_pass_description: "",
          battle_pass_short_description: "",
          battle_pass_disclaimer: "",
          battle_pass_priority: 0,
          package_sku_ios: "",
          package_sku_android: "",
          image_xs: "",
          image_s: "",
          image_m: "",
          image_l: "",
          image_xl: "",
          start_date: "2026-01-01T00:00:00.000Z",
          end_date: "2027-01-01T00:00:00.000Z",
          read_more_link: "",
          is_unlocked_incrementally: true,
          is_active: true,
          can_purchase_with_money: false,
          can_purchase_with_coins: false,
          levels: [
            {
              key: "bronze",
              level_priority: 0,
              // reward_type_name is left out: it is the default of an item reward.
              reward_amount: "5",
              level_reward_type: "item",
              reward_webhook_url: null,
              points_rewards: [],
              challenges: [
                {
                  key: `challenge-${level.challenges[0].challenge_id}`,
                  challenge_name: "Finish a match",
                  challenge_goal: 1,
                  challenge_goal_condition: 0,
                  challenge_xp: 0,
                  challenge_icon: "",
                  challenge_icon_hd: "",
                  event_name: "match-finish",
                  value_field: null,
                  filters: [],
                  counter_scope: "session",
                },
              ],
            },
          ],
        },
      ],
      leaderboards: [
        {
          key: `leaderboard-${board.leaderboard_id}`,
          name: "Scores",
          event_name: "achieve-score",
          value_field: "score",
          filters: [],
          aggregation: "max",
          sort_order_ascending: false,
          period_range: null,
          authoritative: false,
          min_value: null,
          max_value: null,
          max_events_per_minute: null,
        },
      ],
      points_systems: [],
      streaks: [],
      achievements: [],
      leagues: [],
      webhooks: [
        {
          key: "game-server",
          webhook_type: "leaderoard-updated",
          url: "https://game.example.com/hooks",
          secret_key: { env: "WEBHOOK_SECRET_GAME_SERVER" },
        },
      ],
    });
    expect(JSON.stringify(r.body)).not.toContain(hook.secret_key);
  });

  it("has a JSON Schema, served without a credential, that is the OpenAPI document's CatalogDocument", async () => {
    const schema = await call("GET", "/api/v1/public/catalog-schema.json");
    expect(schema.status).toBe(200);
    expect(schema.body).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $ref: "#/$defs/CatalogDocument",
    });
    const openapi = (await call("GET", "/openapi.json")).body;
    const components = JSON.parse(
      JSON.stringify(openapi.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'),
    );
    for (const name of Object.keys(schema.body.$defs)) expect(schema.body.$defs[name]).toEqual(components[name]);
    expect(Object.keys(schema.body.$defs)).toEqual(
      expect.arrayContaining([
        "CatalogDocument",
        "CatalogSettings",
        "CatalogRateLimits",
        "CatalogChallenge",
        "CatalogLevel",
        "CatalogWebhook",
        "CatalogSecretRef",
      ]),
    );
    expect(
      openapi.paths["/api/v1/admin/apps/{appId}/catalog"].put.requestBody.content["application/json"].schema,
    ).toEqual({ $ref: "#/components/schemas/CatalogDocument" });
  });

  it("answers 404 for an unknown app and 401 without the admin token", async () => {
    expect((await call("GET", "/api/v1/admin/apps/999999/catalog", { token: ADMIN })).status).toBe(404);
    expect((await call("GET", "/api/v1/admin/apps/1/catalog")).status).toBe(401);
  });
});

describe("round trip", () => {
  it("export, apply to an empty app, export again: the same document, settings included", async () => {
    const source = await createTestApp("Source");
    await applied(source.appId, {
      ...demoCatalog(),
      settings: {
        backend_only_events: ["grant-coins", "purchase-completed"],
        rate_limits: { per_user_per_minute: 600 },
      },
    });
    const exported = await exportCatalog(source.appId);
    expect(exported.settings).toEqual({
      backend_only_events: ["grant-coins", "purchase-completed"],
      rate_limits: { per_user_per_minute: 600 },
    });
    const copy = await createTestApp("Copy");
    const answer = await applied(copy.appId, exported);
    // The copy's settings exist already: they are updated.
    expect(answer.summary).toEqual({ create: 16, update: 1, delete: 0, unmanaged: 0, blocked: 0 });
    expect(await exportCatalog(copy.appId)).toEqual(exported);
  });

  it("keeps an app configured through the admin API the same when its export is applied to it", async () => {
    const { appId } = await createTestApp("Self");
    await admin("PUT", `/${appId}`, {
      name: "Self",
      backend_only_events: ["grant-coins"],
      rate_limits: { per_app_per_minute: 50_000 },
    });
    const cat = await createCategory(appId);
    await createChallenge(appId, cat.category_id, { live_date: "2026-03-01T12:00:00+02:00", period_range: "never" });
    await admin("POST", `/${appId}/leaderboards`, {
      name: "Weekly",
      event_name: "kill-enemy",
      period_range: "w",
      period_range_time_zone: "Europe/Berlin",
    });
    const version = await catalogVersion(appId);
    const answer = await applied(appId, await exportCatalog(appId));
    expect(answer.summary).toEqual({ create: 0, update: 0, delete: 0, unmanaged: 0, blocked: 0 });
    expect(await catalogVersion(appId)).toBe(version);
  });
});

describe("keys in the admin API", () => {
  it("are taken on create, kept by a PUT without one, changed by a PUT with one, and unique in the app (409)", async () => {
    const { appId } = await createTestApp("Keys");
    const cat = await createCategory(appId);
    const a = await createChallenge(appId, cat.category_id, { key: "alpha" });
    expect(a.key).toBe("alpha");
    const kept = await admin("PUT", `/${appId}/challenges/${a.challenge_id}`, {
      category_id: cat.category_id,
      challenge_name: "A",
      challenge_goal: 2,
      event_name: "kill-enemy",
    });
    expect(kept.body).toMatchObject({ key: "alpha", challenge_goal: 2 });
    const renamed = await admin("PUT", `/${appId}/challenges/${a.challenge_id}`, {
      key: "alpha-2",
      category_id: cat.category_id,
      challenge_name: "A",
      challenge_goal: 2,
      event_name: "kill-enemy",
    });
    expect(renamed.body.key).toBe("alpha-2");
    const clash = await admin("POST", `/${appId}/challenges`, {
      key: "alpha-2",
      category_id: cat.category_id,
      challenge_name: "B",
      challenge_goal: 1,
      event_name: "kill-enemy",
    });
    expect(clash).toMatchObject({
      status: 409,
      body: { status: 409, message: "Challenge key 'alpha-2' is already used in this app" },
    });
    // The field is named, so that a form shows the clash next to it.
    expect(clash.body.errors).toEqual([
      { field: "key", problem: "Challenge key 'alpha-2' is already used in this app" },
    ]);
    const badKey = await admin("POST", `/${appId}/leaderboards`, {
      key: "Not A Key",
      name: "B",
      event_name: "kill-enemy",
    });
    expect(badKey.status).toBe(400);
    expect(badKey.body.errors).toEqual([{ field: "key", problem: expect.stringContaining("lower-case letters") }]);
    for (const [path, body] of [
      [`/${appId}/leaderboards`, { key: "board", name: "B", event_name: "kill-enemy" }],
      [`/${appId}/webhooks`, { key: "hook", webhook_type: "challenge-changed", url: "https://game.example.com/h" }],
      [
        `/${appId}/battle-passes`,
        { key: "pass", battle_pass_name: "P", start_date: "2026-01-01T00:00:00Z", end_date: "2027-01-01T00:00:00Z" },
      ],
    ] as const) {
      expect((await admin("POST", path, body)).status).toBe(201);
      const again = await admin("POST", path, body);
      expect(again).toMatchObject({
        status: 409,
        body: {
          errors: [
            { field: "key", problem: expect.stringMatching(/^\w[\w ]+ key '\w+' is already used in this app$/) },
          ],
        },
      });
    }
  });

  it("answers 409, not 500, when the key a new object would derive from its id was chosen by another", async () => {
    const { appId } = await createTestApp("Derived keys");
    const cat = await createCategory(appId);
    const first = await createChallenge(appId, cat.category_id, { key: "first" });
    const next = `challenge-${Number(first.challenge_id) + 1}`;
    await admin("PUT", `/${appId}/challenges/${first.challenge_id}`, {
      key: next,
      category_id: cat.category_id,
      challenge_name: "A",
      challenge_goal: 1,
      event_name: "kill-enemy",
    });
    const keyless = await admin("POST", `/${appId}/challenges`, {
      category_id: cat.category_id,
      challenge_name: "B",
      challenge_goal: 1,
      event_name: "kill-enemy",
    });
    expect(keyless).toMatchObject({
      status: 409,
      body: {
        errors: [
          {
            field: "key",
            problem: "Another challenge in this app already has the key this one would get from its id: choose a key",
          },
        ],
      },
    });
  });

  it("names the level's key or its challenges' keys in a level's clash", async () => {
    const { appId } = await createTestApp("Level keys");
    const pass = await admin("POST", `/${appId}/battle-passes`, {
      battle_pass_name: "P",
      start_date: "2026-01-01T00:00:00Z",
      end_date: "2027-01-01T00:00:00Z",
    });
    const levels = `/${appId}/battle-passes/${pass.body.battle_pass_id}/levels`;
    const challenge = (key: string) => ({ key, challenge_name: key, challenge_goal: 1, event_name: "kill-enemy" });
    const gold = await admin("POST", levels, { key: "gold", challenges: [challenge("a"), challenge("b")] });
    expect(gold.status).toBe(201);
    expect(await admin("POST", levels, { key: "gold", challenges: [challenge("a")] })).toMatchObject({
      status: 409,
      body: { errors: [{ field: "key", problem: "Level key 'gold' is already used in this battle pass" }] },
    });
    const twice = await admin("POST", levels, { challenges: [challenge("a"), challenge("b"), challenge("a")] });
    expect(twice).toMatchObject({
      status: 400,
      body: { errors: [{ field: "challenges.2.key", problem: "'a' is the key of another challenge of this level" }] },
    });
    // Trading keys in one write passes through a moment where both have one: named on the challenges.
    const [a, b] = gold.body.challenges;
    const traded = await admin("PUT", `${levels}/${gold.body.level_id}`, {
      key: "gold",
      challenges: [
        { ...challenge("b"), challenge_id: a.challenge_id },
        { ...challenge("a"), challenge_id: b.challenge_id },
      ],
    });
    expect(traded).toMatchObject({
      status: 409,
      body: { errors: [{ field: "challenges", problem: expect.stringContaining("same key") }] },
    });
  });
});
