import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { challengeBody, createCategory, createChallenge, player } from "./support";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let other: TestApp;
beforeAll(async () => {
  app = await createTestApp("Challenge admin");
  other = await createTestApp("Other app");
});

const categories = (appId = app.appId) => `/api/v1/admin/apps/${appId}/challenge-categories`;
const challenges = (appId = app.appId) => `/api/v1/admin/apps/${appId}/challenges`;
const admin = (method: string, path: string, body?: unknown) => call(method, path, { token: ADMIN, body });

describe("challenge categories", () => {
  it("creates, reads, lists by position, replaces and deletes", async () => {
    const created = await admin("POST", categories(), {
      category_slug: "daily",
      category_name: { en: "Daily", de: "Täglich" },
      category_position: 2,
      is_daily_category: true,
      daily_challenge_count: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      category_id: expect.stringMatching(/^\d+$/),
      app_id: app.appId,
      category_slug: "daily",
      category_name: { en: "Daily", de: "Täglich" },
      category_position: 2,
      is_daily_category: true,
      daily_challenge_count: 2,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const first = await admin("POST", categories(), {
      category_slug: "first",
      category_name: "First",
      category_position: 0,
    });
    expect(first.body).toMatchObject({ category_name: "First", is_daily_category: false, daily_challenge_count: 3 });

    const list = await admin("GET", `${categories()}?pageSize=1&currentPage=2`);
    expect(list.body).toMatchObject({ currentPage: 2, pageSize: 1, total: 2, items: [{ category_slug: "daily" }] });
    expect((await admin("GET", categories())).body.items.map((c: any) => c.category_slug)).toEqual(["first", "daily"]);

    const id = created.body.category_id;
    expect((await admin("GET", `${categories()}/${id}`)).body).toEqual(created.body);
    const replaced = await admin("PUT", `${categories()}/${id}`, {
      category_slug: "daily-2",
      category_name: "Daily",
      category_position: 5,
    });
    expect(replaced).toMatchObject({
      status: 200,
      body: { category_id: id, category_slug: "daily-2", category_position: 5, is_daily_category: false },
    });

    expect((await admin("DELETE", `${categories()}/${id}`)).status).toBe(204);
    expect(await admin("GET", `${categories()}/${id}`)).toMatchObject({
      status: 404,
      body: { status: 404, message: `Challenge category ${id} not found` },
    });
  });

  it("refuses a slug used twice in the app with 409, but not across apps", async () => {
    await admin("POST", categories(), { category_slug: "twice", category_name: "A" });
    expect(await admin("POST", categories(), { category_slug: "twice", category_name: "B" })).toEqual(
      expect.objectContaining({
        status: 409,
        body: {
          status: 409,
          message: "Category slug 'twice' is already used in this app",
          errors: [{ field: "category_slug", problem: "Category slug 'twice' is already used in this app" }],
        },
      }),
    );
    const b = await admin("POST", categories(), { category_slug: "other-slug", category_name: "B" });
    expect(
      (await admin("PUT", `${categories()}/${b.body.category_id}`, { category_slug: "twice", category_name: "B" }))
        .status,
    ).toBe(409);
    expect((await admin("POST", categories(other.appId), { category_slug: "twice", category_name: "B" })).status).toBe(
      201,
    );
  });

  it("refuses to delete a category that holds challenges (409)", async () => {
    const cat = await createCategory(app.appId);
    const ch = await createChallenge(app.appId, cat.category_id);
    expect(await admin("DELETE", `${categories()}/${cat.category_id}`)).toEqual(
      expect.objectContaining({
        status: 409,
        body: {
          status: 409,
          message: `Challenge category ${cat.category_id} still holds 1 challenges; delete or move them first`,
        },
      }),
    );
    await admin("DELETE", `${challenges()}/${ch.challenge_id}`);
    expect((await admin("DELETE", `${categories()}/${cat.category_id}`)).status).toBe(204);
  });

  it("validates input", async () => {
    const bad = async (body: unknown, field: string) => {
      const r = await admin("POST", categories(), body);
      expect(r.status).toBe(400);
      expect(r.body.errors.map((e: any) => e.field)).toContain(field);
    };
    await bad({ category_slug: "Has Spaces", category_name: "x" }, "category_slug");
    await bad({ category_slug: "ok", category_name: "" }, "category_name");
    await bad({ category_slug: "ok", category_name: {} }, "category_name");
    await bad({ category_slug: "ok", category_name: "x", category_position: -1 }, "category_position");
    await bad({ category_slug: "ok", category_name: "x", daily_challenge_count: 0 }, "daily_challenge_count");
  });

  it("answers 404 for unknown ids, another app's category and unknown apps; 401 without the admin token", async () => {
    const cat = await createCategory(other.appId);
    expect((await admin("GET", `${categories()}/${cat.category_id}`)).status).toBe(404);
    expect((await admin("GET", `${categories()}/abc`)).status).toBe(404);
    expect((await admin("PUT", `${categories()}/999999`, { category_slug: "x", category_name: "x" })).status).toBe(404);
    expect((await admin("DELETE", `${categories()}/999999`)).status).toBe(404);
    expect(await admin("GET", categories("999999"))).toMatchObject({
      status: 404,
      body: { message: "App 999999 not found" },
    });
    expect((await call("GET", categories(), { token: app.apiKey })).status).toBe(401);
  });
});

describe("challenges", () => {
  it("creates with defaults and answers every field", async () => {
    const cat = await createCategory(app.appId);
    const r = await admin("POST", challenges(), {
      category_id: cat.category_id,
      challenge_name: "Win",
      challenge_goal: 1,
      event_name: "match-finish",
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      challenge_id: expect.stringMatching(/^\d+$/),
      app_id: app.appId,
      key: `challenge-${r.body.challenge_id}`,
      category_id: cat.category_id,
      challenge_name: "Win",
      challenge_description: null,
      challenge_goal: 1,
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
      event_name: "match-finish",
      value_field: null,
      filters: [],
      counter_scope: "session",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it("keeps every configured field, reads, lists, replaces and deletes", async () => {
    const cat = await createCategory(app.appId);
    const cat2 = await createCategory(app.appId);
    const full = {
      category_id: cat.category_id,
      challenge_name: { en: "Run 5 km", de: "Laufe 5 km" },
      challenge_description: { en: "In one go", de: "Am Stück" },
      challenge_goal: 5000,
      challenge_goal_condition: 0,
      challenge_duration_time: 3600,
      live_date: "2024-01-01T01:00:00+01:00",
      challenge_price: 10,
      challenge_reward: "shoes",
      challenge_reward_type: "item",
      challenge_xp: 50,
      challenge_icon: "run",
      challenge_icon_hd: "run-hd",
      repeatable: true,
      is_auto_activated: true,
      period_range: "w",
      period_range_reset_at_time: "06:30:00",
      period_range_time_zone: "Europe/Berlin",
      event_name: "character-run",
      value_field: "distance",
      filters: [
        { field: "realm", op: "in", value: ["north", "south"] },
        { field: "distance", op: "gte", value: 100 },
      ],
      counter_scope: "total",
    };
    const created = await admin("POST", challenges(), full);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...full, live_date: "2024-01-01T00:00:00.000Z" });
    const id = created.body.challenge_id;
    expect((await admin("GET", `${challenges()}/${id}`)).body).toEqual(created.body);

    const moved = await admin("PUT", `${challenges()}/${id}`, {
      ...full,
      category_id: cat2.category_id,
      challenge_goal: 10,
    });
    expect(moved).toMatchObject({
      status: 200,
      body: { challenge_id: id, category_id: cat2.category_id, challenge_goal: 10 },
    });
    const listed = await admin("GET", `${challenges()}?category_id=${cat2.category_id}`);
    expect(listed.body).toMatchObject({ total: 1, items: [{ challenge_id: id }] });
    expect((await admin("GET", `${challenges()}?category_id=${cat.category_id}`)).body.total).toBe(0);
    expect((await admin("GET", `${challenges()}?category_id=nope`)).body.total).toBe(0);

    expect((await admin("DELETE", `${challenges()}/${id}`)).status).toBe(204);
    expect(await admin("GET", `${challenges()}/${id}`)).toMatchObject({
      status: 404,
      body: { message: `Challenge ${id} not found` },
    });
    expect((await admin("DELETE", `${challenges()}/${id}`)).status).toBe(404);
  });

  it("validates time zone, time of day, goal, duration, filters, periods and the category", async () => {
    const cat = await createCategory(app.appId);
    const foreign = await createCategory(other.appId);
    const bad = async (fields: Record<string, unknown>, field: string, problem: string) => {
      const r = await admin("POST", challenges(), challengeBody(cat.category_id, fields));
      expect(r.status).toBe(400);
      expect(r.body.errors).toContainEqual({ field, problem });
    };
    await bad(
      { period_range_time_zone: "Mars/Olympus" },
      "period_range_time_zone",
      "must be an IANA time zone such as Europe/Berlin",
    );
    await bad(
      { period_range_reset_at_time: "24:00:00" },
      "period_range_reset_at_time",
      "must be a time HH:MM:SS (24 h)",
    );
    await bad({ period_range_reset_at_time: "6:00" }, "period_range_reset_at_time", "must be a time HH:MM:SS (24 h)");
    await bad({ challenge_goal: -1 }, "challenge_goal", "must not be negative");
    await bad(
      { challenge_duration_time: 0 },
      "challenge_duration_time",
      "must be -1 (no time-out) or a positive number of seconds",
    );
    await bad(
      { challenge_duration_time: -2 },
      "challenge_duration_time",
      "must be -1 (no time-out) or a positive number of seconds",
    );
    await bad(
      { filters: [{ field: "w", op: "in", value: "bow" }] },
      "filters.0.value",
      "`in` takes a list, every other op one value",
    );
    await bad(
      { filters: [{ field: "w", op: "eq", value: ["bow"] }] },
      "filters.0.value",
      "`in` takes a list, every other op one value",
    );
    await bad(
      { period_range: "d" },
      "period_range",
      "periodic resets apply to automatic, repeatable challenges: set is_auto_activated and repeatable, or period_range never",
    );
    await bad(
      { category_id: foreign.category_id },
      "category_id",
      `category ${foreign.category_id} does not exist in this app`,
    );
    expect((await admin("POST", challenges(), challengeBody(cat.category_id, { challenge_goal: 1.5 }))).status).toBe(
      400,
    );
    expect((await admin("POST", challenges(), challengeBody(cat.category_id, { live_date: "tomorrow" }))).status).toBe(
      400,
    );
    expect(
      (await admin("POST", challenges(), challengeBody(cat.category_id, { challenge_goal_condition: 2 }))).status,
    ).toBe(400);
    const zero = await admin(
      "POST",
      challenges(),
      challengeBody(cat.category_id, { challenge_goal: 0, challenge_duration_time: -1 }),
    );
    expect(zero.status).toBe(201);
  });

  it("holds at most 1000 challenges per category: the next one is refused with 409, also when moved in", async () => {
    const full = await createCategory(app.appId);
    const now = new Date().toISOString();
    const insert = env.DB.prepare(
      "INSERT INTO challenges (app_id, category_id, challenge_name, challenge_goal, event_name, created_at, updated_at) VALUES (?, ?, '\"x\"', 1, 'kill-enemy', ?, ?)",
    );
    await env.DB.batch(
      Array.from({ length: 999 }, () => insert.bind(Number(app.appId), Number(full.category_id), now, now)),
    );
    expect((await admin("POST", challenges(), challengeBody(full.category_id))).status).toBe(201);
    const refused = await admin("POST", challenges(), challengeBody(full.category_id));
    expect(refused).toEqual(
      expect.objectContaining({
        status: 409,
        body: {
          status: 409,
          message: `Challenge category ${full.category_id} already holds 1000 challenges, the most a category may hold`,
        },
      }),
    );
    const elsewhere = await createCategory(app.appId);
    const ch = await createChallenge(app.appId, elsewhere.category_id);
    expect((await admin("PUT", `${challenges()}/${ch.challenge_id}`, challengeBody(full.category_id))).status).toBe(
      409,
    );
    // A challenge already in the full category can still be replaced.
    const inside = (await admin("GET", `${challenges()}?category_id=${full.category_id}&pageSize=1`)).body.items[0];
    expect(
      (
        await admin(
          "PUT",
          `${challenges()}/${inside.challenge_id}`,
          challengeBody(full.category_id, { challenge_goal: 9 }),
        )
      ).status,
    ).toBe(200);
  });

  it("answers 404 for another app's challenge", async () => {
    const cat = await createCategory(other.appId);
    const ch = await createChallenge(other.appId, cat.category_id);
    expect((await admin("GET", `${challenges()}/${ch.challenge_id}`)).status).toBe(404);
    expect((await admin("PUT", `${challenges()}/${ch.challenge_id}`, challengeBody(cat.category_id))).status).toBe(404);
  });

  it("players see an admin change at once (the catalog cache is invalidated)", async () => {
    const fresh = await createTestApp("Cache");
    const cat = await createCategory(fresh.appId);
    const ch = await createChallenge(fresh.appId, cat.category_id);
    const p = player(fresh.appId, await fresh.tokenFor("u"));
    expect((await p.find(ch.challenge_id))!.challenge_name).toBe("Kill 3 enemies");
    await admin(
      "PUT",
      `${challenges(fresh.appId)}/${ch.challenge_id}`,
      challengeBody(cat.category_id, { challenge_name: "Renamed" }),
    );
    expect((await p.find(ch.challenge_id))!.challenge_name).toBe("Renamed");
  });
});

describe("admin view of one user", () => {
  it("shows the stored state without changing it", async () => {
    const fresh = await createTestApp("Support");
    const cat = await createCategory(fresh.appId);
    const manual = await createChallenge(fresh.appId, cat.category_id, { challenge_duration_time: 600 });
    const p = player(fresh.appId, await fresh.tokenFor("u1"));
    const view = () => admin("GET", `/api/v1/admin/apps/${fresh.appId}/users/u1`);
    expect((await view()).body).toEqual({
      app_id: fresh.appId,
      user_id: "u1",
      challenges: [],
      battle_passes: [],
      points: { balances: {}, ledger: [] },
      streaks: { streaks: [], time_zone: null },
      achievements: { held: [], revoked: [], totals: [] },
      leagues: { claims: [], memberships: [] },
    });
    await p.unlock(manual.challenge_id);
    const activated = (await p.activate(manual.challenge_id)).body.challenge;
    const auto = await createChallenge(fresh.appId, cat.category_id, { is_auto_activated: true });
    const r = await view();
    expect(r.status).toBe(200);
    // The automatic challenge is not started by the admin looking.
    expect(r.body.challenges).toEqual([
      {
        challenge_id: manual.challenge_id,
        user_challenge_id: activated.user_challenge_id,
        type: "in-progress",
        score: 0,
        last_session_id: null,
        unlocked_at: activated.user_challenge_unlocked_at,
        activated_at: activated.user_challenge_activated_at,
        expires_at: new Date(Date.parse(activated.user_challenge_activated_at) + 600_000).toISOString(),
        is_claimed: false,
        period_start: null,
      },
    ]);
    expect(r.body.challenges.map((c: any) => c.challenge_id)).not.toContain(auto.challenge_id);
    expect((await admin("GET", `/api/v1/admin/apps/999999/users/u1`)).status).toBe(404);
    expect((await call("GET", `/api/v1/admin/apps/${fresh.appId}/users/u1`, { token: fresh.apiKey })).status).toBe(401);
  });
});
