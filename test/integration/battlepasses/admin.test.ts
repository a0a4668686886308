import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { createLevel, createPass } from "./support";

let appId: string;
let otherAppId: string;
const base = () => `/api/v1/admin/apps/${appId}/battle-passes`;

const PASS = {
  battle_pass_name: { en: "Season 1", de: "Saison 1" },
  battle_pass_description: { en: "<b>Great</b> rewards" },
  battle_pass_priority: 2,
  package_sku_ios: "com.example.s1",
  start_date: "2030-01-01T00:00:00Z",
  end_date: "2030-03-01T12:30:00+02:00",
  is_unlocked_incrementally: false,
};

const CHALLENGE = {
  challenge_name: "Kill 5",
  challenge_goal: 5,
  event_name: "kill-enemy",
  filters: [{ field: "weapon_used", op: "in", value: ["rifle", "bow"] }],
};

beforeAll(async () => {
  appId = (await createTestApp("Battle pass admin")).appId;
  otherAppId = (await createTestApp("Other")).appId;
});

describe("admin: battle passes", () => {
  it("creates a pass with defaults and normalized dates", async () => {
    const r = await call("POST", base(), { token: ADMIN, body: PASS });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      battle_pass_id: expect.stringMatching(/^\d+$/),
      app_id: appId,
      key: `battle-pass-${r.body.battle_pass_id}`,
      battle_pass_name: { en: "Season 1", de: "Saison 1" },
      battle_pass_description: { en: "<b>Great</b> rewards" },
      battle_pass_short_description: "",
      battle_pass_disclaimer: "",
      battle_pass_priority: 2,
      package_sku_ios: "com.example.s1",
      package_sku_android: "",
      image_xs: "",
      image_s: "",
      image_m: "",
      image_l: "",
      image_xl: "",
      start_date: "2030-01-01T00:00:00.000Z",
      end_date: "2030-03-01T10:30:00.000Z",
      read_more_link: "",
      is_unlocked_incrementally: false,
      is_active: true,
      can_purchase_with_money: false,
      can_purchase_with_coins: false,
      backend_only_unlock: false,
      expired_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const get = await call("GET", `${base()}/${r.body.battle_pass_id}`, { token: ADMIN });
    expect(get).toMatchObject({ status: 200, body: r.body });
  });

  it("refuses an end before the start, a missing name and a bad date, naming the fields", async () => {
    const r = await call("POST", base(), { token: ADMIN, body: { ...PASS, end_date: "2029-12-31T00:00:00Z" } });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([{ field: "end_date", problem: "must be after start_date" }]);
    const missing = await call("POST", base(), {
      token: ADMIN,
      body: { ...PASS, battle_pass_name: undefined, start_date: "soon" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "battle_pass_name",
      "start_date",
    ]);
  });

  it("lists by priority then id, with paging", async () => {
    const app = (await createTestApp("Listing")).appId;
    const b = await createPass(app, { ...PASS, battle_pass_priority: 5 });
    const a = await createPass(app, { ...PASS, battle_pass_priority: 1 });
    const c = await createPass(app, { ...PASS, battle_pass_priority: 5 });
    const page1 = await call("GET", `/api/v1/admin/apps/${app}/battle-passes?pageSize=2`, { token: ADMIN });
    expect(page1.body).toMatchObject({ currentPage: 1, pageSize: 2, total: 3 });
    expect(page1.body.items.map((p: { battle_pass_id: string }) => p.battle_pass_id)).toEqual([
      a.battle_pass_id,
      b.battle_pass_id,
    ]);
    const page2 = await call("GET", `/api/v1/admin/apps/${app}/battle-passes?pageSize=2&currentPage=2`, {
      token: ADMIN,
    });
    expect(page2.body.items.map((p: { battle_pass_id: string }) => p.battle_pass_id)).toEqual([c.battle_pass_id]);
  });

  it("replaces and deletes a pass; another app's path does not find it", async () => {
    const created = await createPass(appId, PASS);
    const path = `${base()}/${created.battle_pass_id}`;
    const put = await call("PUT", path, {
      token: ADMIN,
      body: { ...PASS, battle_pass_name: "Renamed", is_active: false },
    });
    expect(put).toMatchObject({
      status: 200,
      body: { battle_pass_name: "Renamed", is_active: false, battle_pass_priority: 2 },
    });
    const foreign = await call("GET", `/api/v1/admin/apps/${otherAppId}/battle-passes/${created.battle_pass_id}`, {
      token: ADMIN,
    });
    expect(foreign).toEqual({
      status: 404,
      body: { status: 404, message: `Battle pass ${created.battle_pass_id} not found` },
      headers: expect.anything(),
    });
    expect((await call("DELETE", path, { token: ADMIN })).status).toBe(204);
    expect((await call("GET", path, { token: ADMIN })).status).toBe(404);
    expect((await call("GET", `${base()}/abc`, { token: ADMIN })).status).toBe(404);
  });

  it("requires the admin token", async () => {
    expect((await call("GET", base())).status).toBe(401);
  });
});

describe("admin: levels with their challenges inline", () => {
  it("creates levels in position order, with challenges and defaults", async () => {
    const pass = await createPass(appId, PASS);
    const first = await createLevel(appId, pass.battle_pass_id, {
      reward_amount: "100",
      level_reward_type: "coin",
      reward_webhook_url: "https://game.example.com/reward",
      challenges: [
        CHALLENGE,
        {
          challenge_name: { en: "Fast lap" },
          challenge_goal: 50,
          challenge_goal_condition: 1,
          event_name: "finish-laps",
          value_field: "required_time",
        },
      ],
    });
    expect(first).toEqual({
      level_id: expect.stringMatching(/^\d+$/),
      app_id: appId,
      battle_pass_id: pass.battle_pass_id,
      key: `level-${first.level_id}`,
      level_priority: 0,
      reward_amount: "100",
      reward_type_name: "Coins",
      level_reward_type: "coin",
      reward_webhook_url: "https://game.example.com/reward",
      points_rewards: [],
      challenges: [
        {
          challenge_id: expect.stringMatching(/^\d+$/),
          key: `challenge-${first.challenges[0].challenge_id}`,
          challenge_name: "Kill 5",
          challenge_goal: 5,
          challenge_goal_condition: 0,
          challenge_xp: 0,
          challenge_icon: "",
          challenge_icon_hd: "",
          event_name: "kill-enemy",
          value_field: null,
          filters: [{ field: "weapon_used", op: "in", value: ["rifle", "bow"] }],
          counter_scope: "session",
        },
        {
          challenge_id: expect.stringMatching(/^\d+$/),
          key: `challenge-${first.challenges[1].challenge_id}`,
          challenge_name: { en: "Fast lap" },
          challenge_goal: 50,
          challenge_goal_condition: 1,
          challenge_xp: 0,
          challenge_icon: "",
          challenge_icon_hd: "",
          event_name: "finish-laps",
          value_field: "required_time",
          filters: [],
          counter_scope: "session",
        },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await createLevel(appId, pass.battle_pass_id, { challenges: [CHALLENGE] });
    expect(second).toMatchObject({
      level_priority: 1,
      reward_type_name: "",
      level_reward_type: "nothing",
      reward_webhook_url: null,
    });
    const early = await createLevel(appId, pass.battle_pass_id, { level_priority: 0, challenges: [CHALLENGE] });
    const list = await call("GET", `${base()}/${pass.battle_pass_id}/levels`, { token: ADMIN });
    expect(list.body.total).toBe(3);
    expect(list.body.items.map((l: { level_id: string }) => l.level_id)).toEqual([
      first.level_id,
      early.level_id,
      second.level_id,
    ]);
    expect(list.body.items[0].challenges).toHaveLength(2);
  });

  it("keeps challenges named by id on PUT, adds new ones and deletes those left out", async () => {
    const pass = await createPass(appId, PASS);
    const level = await createLevel(appId, pass.battle_pass_id, {
      challenges: [CHALLENGE, { ...CHALLENGE, challenge_name: "Second" }],
    });
    const [kept, dropped] = level.challenges.map((c) => c.challenge_id);
    const path = `${base()}/${pass.battle_pass_id}/levels/${level.level_id}`;
    const put = await call("PUT", path, {
      token: ADMIN,
      body: {
        reward_amount: "5",
        challenges: [
          { ...CHALLENGE, challenge_name: "New" },
          { ...CHALLENGE, challenge_id: kept, challenge_goal: 7 },
        ],
      },
    });
    expect(put.status).toBe(200);
    expect(put.body.level_priority).toBe(level.level_priority);
    expect(put.body.challenges.map((c: any) => [c.challenge_name, c.challenge_goal])).toEqual([
      ["New", 5],
      ["Kill 5", 7],
    ]);
    expect(put.body.challenges[1].challenge_id).toBe(kept);
    expect(put.body.challenges.map((c: any) => c.challenge_id)).not.toContain(dropped);

    const foreign = await call("PUT", path, {
      token: ADMIN,
      body: { challenges: [{ ...CHALLENGE, challenge_id: dropped }] },
    });
    expect(foreign).toMatchObject({
      status: 400,
      body: { errors: [{ field: "challenges.0.challenge_id", problem: "not a challenge of this level" }] },
    });
    expect((await call("DELETE", path, { token: ADMIN })).status).toBe(204);
    expect((await call("GET", path, { token: ADMIN })).status).toBe(404);
  });

  it("validates challenges, filters and the reward URL", async () => {
    const pass = await createPass(appId, PASS);
    const path = `${base()}/${pass.battle_pass_id}/levels`;
    const none = await call("POST", path, { token: ADMIN, body: { challenges: [] } });
    expect(none.status).toBe(400);
    const badFilter = await call("POST", path, {
      token: ADMIN,
      body: { challenges: [{ ...CHALLENGE, filters: [{ field: "x", op: "eq", value: [1] }] }] },
    });
    expect(badFilter.body.errors).toEqual([
      { field: "challenges.0.filters.0.value", problem: "`in` takes a list, every other op one value" },
    ]);
    const badOp = await call("POST", path, {
      token: ADMIN,
      body: { challenges: [{ ...CHALLENGE, filters: [{ field: "x", op: "like", value: 1 }] }] },
    });
    expect(badOp.body.errors[0].field).toBe("challenges.0.filters.0.op");
    const plainHttp = await call("POST", path, {
      token: ADMIN,
      body: { reward_webhook_url: "http://game.example.com/r", challenges: [CHALLENGE] },
    });
    expect(plainHttp).toMatchObject({ status: 400, body: { errors: [{ field: "reward_webhook_url" }] } });
    const withId = await call("POST", path, {
      token: ADMIN,
      body: { challenges: [{ ...CHALLENGE, challenge_id: "5" }] },
    });
    expect(withId.status).toBe(400);
    const unknownPass = await call("POST", `${base()}/999999/levels`, {
      token: ADMIN,
      body: { challenges: [CHALLENGE] },
    });
    expect(unknownPass.status).toBe(404);
  });
});
