import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { userBattlePassState } from "../../../src/battlepasses/admin/user-state";
import { call, createTestApp, DAY, HOUR, iso, sendEvent, serviceNow } from "../helpers";
import {
  addWebhook,
  capturingWebhooks,
  createLevel,
  createPass,
  levelOf,
  threeLevelPass,
  callCapturing,
} from "./support";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let now: number;
let running: { start_date: string; end_date: string };

beforeAll(async () => {
  app = await createTestApp("Battle passes");
  now = await serviceNow();
  running = { start_date: iso(now - HOUR), end_date: iso(now + 30 * DAY) };
});

const levelsOf = async (token: string, passId: string, path = "/v1/battle-pass-levels") =>
  (await call("GET", `${path}/${app.appId}/${passId}`, { token })).body as any[];

/** `type:score` of every challenge, level by level. */
const progressOf = async (token: string, passId: string) =>
  (await levelsOf(token, passId)).map((l) =>
    l.challenges.map((c: any) => `${c.type}:${c.user_challenge_current_score}`),
  );

const unlock = (token: string, passId: string, body: unknown = { purchase_price: 0, purchase_currency: "EUR" }) =>
  call("POST", `/v1/battle-pass/${app.appId}/unlock/${passId}`, { token, body });

const claim = (token: string, levelId: string) =>
  call("POST", `/v1/api/battle-pass-levels/${app.appId}/claim/${levelId}`, { token });

describe("an incrementally unlocked pass", () => {
  it("unlocks the first level, the next one on completion, and claims each reward once and only when completed", async () => {
    const { pass, levels } = await threeLevelPass(app.appId, { ...running, is_unlocked_incrementally: true });
    const token = await app.tokenFor("inc-user");
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["unlock:0", "unlock:0"],
      ["unlock:0"],
      ["unlock:0"],
    ]);

    const unlocked = await unlock(token, pass.battle_pass_id, { purchase_price: 4.99, purchase_currency: "EUR" });
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toMatchObject({
      battle_pass_id: pass.battle_pass_id,
      unlocked_at: expect.any(String),
      user_id: "inc-user",
      purchase_price: 4.99,
      purchase_currency: "EUR",
      purchased_at: unlocked.body.unlocked_at,
      battle_pass_completed: false,
      is_active: true,
    });
    const view = await levelsOf(token, pass.battle_pass_id);
    expect(view.map((l) => [l.activated_at !== null, l.level_completed, l.reward_claimed])).toEqual([
      [true, false, false],
      [false, false, false],
      [false, false, false],
    ]);
    expect(view[0].activated_at).toBe(unlocked.body.unlocked_at);

    await sendEvent(app.apiKey, "inc-user", "kill-enemy", { amount: 1 });
    await sendEvent(app.apiKey, "inc-user", "earn-points", { amount: 50 });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["in-progress:1", "in-progress:0"],
      ["unlock:0"],
      ["unlock:0"],
    ]);

    expect(await claim(token, levels[0].level_id)).toMatchObject({
      status: 409,
      body: { status: 409, message: `Level ${levels[0].level_id} is not completed` },
    });

    await sendEvent(app.apiKey, "inc-user", "kill-enemy", { amount: 1 });
    await sendEvent(app.apiKey, "inc-user", "collect-item", { amount: 3, item_type: "gem" });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["unclaimed:2", "unclaimed:3"],
      ["in-progress:0"],
      ["unlock:0"],
    ]);
    const afterFirst = await levelsOf(token, pass.battle_pass_id);
    expect(afterFirst[0].level_completed).toBe(true);
    expect(afterFirst[1].activated_at).not.toBeNull();

    // The next level cannot be skipped by hand.
    const skip = await call(
      "POST",
      `/v1/api/battle-pass-levels/${pass.battle_pass_id}/activate/${levels[2].level_id}`,
      { token },
    );
    expect(skip.status).toBe(409);

    expect(await claim(token, levels[0].level_id)).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
    expect(await claim(token, levels[0].level_id)).toMatchObject({
      status: 409,
      body: { status: 409, message: `The reward of level ${levels[0].level_id} was already claimed` },
    });
    expect(await claim(token, levels[1].level_id)).toMatchObject({ status: 409 });

    await sendEvent(app.apiKey, "inc-user", "kill-enemy", { amount: 1 });
    await sendEvent(app.apiKey, "inc-user", "earn-points", { amount: 10 });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["finished:2", "finished:3"],
      ["unclaimed:1"],
      ["unclaimed:10"],
    ]);
    const single = await call("GET", `/v1/battle-passes/${app.appId}/${pass.battle_pass_id}`, { token });
    expect(single.body).toMatchObject({ battle_pass_completed: true, purchase_price: 4.99 });
  });

  it("keeps the first unlock: unlocking again is harmless", async () => {
    const { pass } = await threeLevelPass(app.appId, running);
    const token = await app.tokenFor("again-user");
    const first = await unlock(token, pass.battle_pass_id, { purchase_price: 2, purchase_currency: "USD" });
    await sendEvent(app.apiKey, "again-user", "kill-enemy", { amount: 1 });
    const again = await call("POST", `/api/v1/battle-passes/${app.appId}/unlock/${pass.battle_pass_id}`, {
      token,
      body: { purchase_price: 9, purchase_currency: "EUR" },
    });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      unlocked_at: first.body.unlocked_at,
      purchase_price: 2,
      purchase_currency: "USD",
    });
    expect((await progressOf(token, pass.battle_pass_id))[0]).toEqual(["in-progress:1", "in-progress:0"]);
  });
});

describe("a pass whose levels may be activated in any order", () => {
  it("activates any level on request (spec and SCILL paths) and counts events for each active level", async () => {
    const { pass, levels } = await threeLevelPass(app.appId, { ...running, is_unlocked_incrementally: false });
    const token = await app.tokenFor("free-user");
    const before = await call(
      "POST",
      `/v1/api/battle-pass-levels/${pass.battle_pass_id}/activate/${levels[2].level_id}`,
      { token },
    );
    expect(before).toMatchObject({
      status: 409,
      body: { message: `Battle pass ${pass.battle_pass_id} is not unlocked` },
    });

    await unlock(token, pass.battle_pass_id);
    const spec = await call(
      "POST",
      `/v1/api/battle-pass-levels/${pass.battle_pass_id}/activate/${levels[2].level_id}`,
      { token },
    );
    expect(spec).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["in-progress:0", "in-progress:0"],
      ["unlock:0"],
      ["in-progress:0"],
    ]);

    const scill = await call("POST", `/api/v1/battle-pass-levels/${app.appId}/activate/${levels[1].level_id}`, {
      token,
    });
    expect(scill.status).toBe(200);
    // Already active: answered OK, nothing changes.
    expect(
      (await call("POST", `/api/v1/battle-pass-levels/${app.appId}/activate/${levels[1].level_id}`, { token })).status,
    ).toBe(200);

    await sendEvent(app.apiKey, "free-user", "kill-enemy", { amount: 1 });
    await sendEvent(app.apiKey, "free-user", "earn-points", { amount: 4 });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["in-progress:1", "in-progress:0"],
      ["unclaimed:1"],
      ["in-progress:4"],
    ]);
    expect(await claim(token, levels[1].level_id)).toMatchObject({ status: 200 });
    expect(await claim(token, levels[0].level_id)).toMatchObject({ status: 409 });
  });

  it("answers 404 for a level of another pass on the spec path", async () => {
    const a = await threeLevelPass(app.appId, { ...running, is_unlocked_incrementally: false });
    const b = await threeLevelPass(app.appId, { ...running, is_unlocked_incrementally: false });
    const token = await app.tokenFor("mixed-user");
    const r = await call(
      "POST",
      `/v1/api/battle-pass-levels/${a.pass.battle_pass_id}/activate/${b.levels[1].level_id}`,
      { token },
    );
    expect(r.status).toBe(404);
  });
});

describe("which events count", () => {
  it("ignores events of a user who did not unlock the pass; progress starts at the unlock", async () => {
    const { pass } = await threeLevelPass(app.appId, running);
    const token = await app.tokenFor("late-user");
    await sendEvent(app.apiKey, "late-user", "kill-enemy", { amount: 1 });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["unlock:0", "unlock:0"],
      ["unlock:0"],
      ["unlock:0"],
    ]);
    await unlock(token, pass.battle_pass_id);
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["in-progress:0", "in-progress:0"],
      ["unlock:0"],
      ["unlock:0"],
    ]);
    await sendEvent(app.apiKey, "late-user", "kill-enemy", { amount: 1 });
    expect((await progressOf(token, pass.battle_pass_id))[0]).toEqual(["in-progress:1", "in-progress:0"]);
  });

  it("ignores events before start_date: a pass can be unlocked early but does not track yet", async () => {
    const { pass } = await threeLevelPass(app.appId, {
      start_date: iso(now + 10 * DAY),
      end_date: iso(now + 20 * DAY),
    });
    const token = await app.tokenFor("early-user");
    const r = await unlock(token, pass.battle_pass_id);
    expect(r.body).toMatchObject({ is_active: false, unlocked_at: expect.any(String) });
    await sendEvent(app.apiKey, "early-user", "kill-enemy", { amount: 1 });
    expect(await progressOf(token, pass.battle_pass_id)).toEqual([
      ["unlock:0", "unlock:0"],
      ["unlock:0"],
      ["unlock:0"],
    ]);
  });

  it("applies the challenge filters and value field of the shared counter rules", async () => {
    const created = await createPass(app.appId, { battle_pass_name: "Filters", ...running });
    await createLevel(app.appId, created.battle_pass_id, {
      challenges: [
        {
          challenge_name: "Rifle kills",
          challenge_goal: 3,
          event_name: "kill-enemy",
          filters: [{ field: "weapon_used", op: "eq", value: "rifle" }],
        },
        { challenge_name: "Damage", challenge_goal: 100, event_name: "deal-damage", value_field: "damage_amount" },
      ],
    });
    const token = await app.tokenFor("filter-user");
    await unlock(token, created.battle_pass_id);
    await sendEvent(app.apiKey, "filter-user", "kill-enemy", { amount: 2, weapon_used: "bow" });
    await sendEvent(app.apiKey, "filter-user", "kill-enemy", { amount: 2, weapon_used: "rifle" });
    await sendEvent(app.apiKey, "filter-user", "deal-damage", { damage_amount: 60 });
    expect(await progressOf(token, created.battle_pass_id)).toEqual([["in-progress:2", "in-progress:60"]]);
  });
});

describe("reads", () => {
  it("documents every battle-pass path of the spec and of SCILL with its method", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const routes = Object.entries(doc.paths as Record<string, object>)
      .filter(
        ([path]) => /battle-pass/.test(path) && !path.startsWith("/api/v1/admin") && !path.startsWith("/api/v1/auth"),
      )
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    expect(routes).toEqual(
      [
        "GET /v1/api/battle-passes/{appId}",
        "GET /v1/api/battle-passes/{appId}/unlocked",
        "GET /v1/battle-passes/{appId}/{battlePassId}",
        "GET /v1/battle-pass-levels/{appId}/{battlePassId}",
        "POST /v1/battle-pass/{appId}/unlock/{battlePassId}",
        "POST /v1/api/battle-pass-levels/{appId}/claim/{levelId}",
        "POST /v1/api/battle-pass-levels/{battlePassId}/activate/{levelId}",
        "GET /api/v1/battle-passes/{appId}",
        "GET /api/v1/battle-passes/{appId}/active",
        "GET /api/v1/battle-passes/{appId}/unlocked",
        "GET /api/v1/battle-passes/{appId}/single/{battlePassId}",
        "POST /api/v1/battle-passes/{appId}/unlock/{battlePassId}",
        "GET /api/v1/battle-pass-levels/{appId}/{battlePassId}",
        "GET /api/v1/battle-pass-levels/{appId}",
        "POST /api/v1/battle-pass-levels/{appId}/activate/{levelId}",
        "POST /api/v1/battle-pass-levels/{appId}/claim/{levelId}",
      ].sort(),
    );
  });

  it("localizes by language and serves the SCILL aliases with the same answers", async () => {
    const { pass } = await threeLevelPass(app.appId, running);
    const token = await app.tokenFor("reader");
    const de = await call("GET", `/v1/battle-passes/${app.appId}/${pass.battle_pass_id}?language=de`, { token });
    expect(de.body).toMatchObject({
      battle_pass_name: "Saison",
      unlocked_at: null,
      purchase_price: null,
      battle_pass_completed: false,
    });
    const scill = await call("GET", `/api/v1/battle-passes/${app.appId}/single/${pass.battle_pass_id}?language=de`, {
      token,
    });
    expect(scill.body).toEqual(de.body);
    const fallback = await call("GET", `/v1/battle-passes/${app.appId}/${pass.battle_pass_id}?language=fr`, { token });
    expect(fallback.body.battle_pass_name).toBe("Season");

    const levels = await levelsOf(token, pass.battle_pass_id);
    expect(levels[0]).toEqual({
      level_id: expect.any(String),
      app_id: app.appId,
      battle_pass_id: pass.battle_pass_id,
      reward_amount: "100",
      reward_type_name: "Coins",
      level_reward_type: "coin",
      level_completed: false,
      level_priority: 0,
      reward_claimed: false,
      activated_at: null,
      challenges: [
        {
          challenge_id: expect.any(String),
          challenge_name: "Do kill-enemy",
          challenge_goal: 2,
          challenge_goal_condition: 0,
          user_challenge_current_score: 0,
          challenge_xp: 0,
          challenge_icon: "",
          challenge_icon_hd: "",
          type: "unlock",
        },
        expect.objectContaining({ challenge_name: "Do collect-item" }),
      ],
    });
    const deLevels = await call("GET", `/api/v1/battle-pass-levels/${app.appId}/${pass.battle_pass_id}?language=de`, {
      token,
    });
    expect(deLevels.body[0].challenges[0].challenge_name).toBe("Mach kill-enemy");
  });

  it("lists available, active and unlocked passes, and every level of the app", async () => {
    const fresh = await createTestApp("Lists");
    const token = await fresh.tokenFor("lister");
    const running1 = await createPass(fresh.appId, {
      battle_pass_name: "Running",
      battle_pass_priority: 2,
      ...running,
    });
    const upcoming = await createPass(fresh.appId, {
      battle_pass_name: "Upcoming",
      battle_pass_priority: 1,
      start_date: iso(now + DAY),
      end_date: iso(now + 2 * DAY),
    });
    await createPass(fresh.appId, { battle_pass_name: "Off", is_active: false, ...running });
    await createPass(fresh.appId, {
      battle_pass_name: "Over",
      start_date: iso(now - 2 * DAY),
      end_date: iso(now - DAY),
    });
    await createLevel(fresh.appId, running1.battle_pass_id, levelOf(["kill-enemy", 1]));
    await createLevel(fresh.appId, upcoming.battle_pass_id, levelOf(["kill-enemy", 1]));
    const names = (r: { body: { battle_pass_name: string }[] }) => r.body.map((p) => p.battle_pass_name);

    const available = await call("GET", `/v1/api/battle-passes/${fresh.appId}`, { token });
    expect(names(available)).toEqual(["Upcoming", "Running"]);
    expect(available.body.map((p: any) => p.is_active)).toEqual([false, true]);
    expect(names(await call("GET", `/api/v1/battle-passes/${fresh.appId}`, { token }))).toEqual([
      "Upcoming",
      "Running",
    ]);
    expect(names(await call("GET", `/api/v1/battle-passes/${fresh.appId}/active`, { token }))).toEqual(["Running"]);
    expect(names(await call("GET", `/v1/api/battle-passes/${fresh.appId}/unlocked`, { token }))).toEqual([]);

    await call("POST", `/v1/battle-pass/${fresh.appId}/unlock/${running1.battle_pass_id}`, {
      token,
      body: { purchase_price: 0, purchase_currency: "EUR" },
    });
    expect(names(await call("GET", `/api/v1/battle-passes/${fresh.appId}/unlocked`, { token }))).toEqual(["Running"]);

    const all = await call("GET", `/api/v1/battle-pass-levels/${fresh.appId}`, { token });
    expect(all.body.map((l: any) => [l.battle_pass_id, l.activated_at !== null])).toEqual([
      [upcoming.battle_pass_id, false],
      [running1.battle_pass_id, true],
    ]);
  });

  it("answers 404 for another app, an unknown pass or level, and 401 without an access token", async () => {
    const { pass } = await threeLevelPass(app.appId, running);
    const other = await createTestApp("Foreign");
    const token = await app.tokenFor("reader");
    expect((await call("GET", `/v1/api/battle-passes/${other.appId}`, { token })).status).toBe(404);
    expect((await call("GET", `/v1/battle-passes/${app.appId}/999999`, { token })).status).toBe(404);
    expect((await call("GET", `/v1/battle-pass-levels/${app.appId}/nope`, { token })).status).toBe(404);
    expect((await claim(token, "999999")).status).toBe(404);
    expect(
      (await call("GET", `/v1/battle-passes/${app.appId}/${pass.battle_pass_id}`, { token: app.apiKey })).status,
    ).toBe(401);
    expect((await call("GET", `/v1/api/battle-passes/${app.appId}`)).status).toBe(401);
  });
});

describe("the admin's view of a user", () => {
  it("lists the passes the user unlocked with their levels, in the app's default language", async () => {
    const { pass, levels } = await threeLevelPass(app.appId, running);
    await threeLevelPass(app.appId, running);
    const token = await app.tokenFor("supported-user");
    await unlock(token, pass.battle_pass_id, { purchase_price: 3, purchase_currency: "EUR" });
    await sendEvent(app.apiKey, "supported-user", "kill-enemy", { amount: 1 });
    const state = await userBattlePassState(env, app.appId, "supported-user", await serviceNow());
    expect(state).toHaveLength(1);
    expect(state[0]).toMatchObject({
      battle_pass_id: pass.battle_pass_id,
      battle_pass_name: "Season",
      user_id: "supported-user",
      purchase_price: 3,
    });
    expect(
      state[0].levels.map((l) => [l.level_id, l.challenges.map((c) => `${c.type}:${c.user_challenge_current_score}`)]),
    ).toEqual([
      [levels[0].level_id, ["in-progress:1", "in-progress:0"]],
      [levels[1].level_id, ["unlock:0"]],
      [levels[2].level_id, ["unlock:0"]],
    ]);
    expect(await userBattlePassState(env, app.appId, "nobody", await serviceNow())).toEqual([]);
  });
});

describe("unlocking with an API key", () => {
  it("takes the user from the body, requires it, and refuses it next to an access token", async () => {
    const { pass } = await threeLevelPass(app.appId, running);
    const path = `/v1/battle-pass/${app.appId}/unlock/${pass.battle_pass_id}`;
    const missing = await call("POST", path, {
      token: app.apiKey,
      body: { purchase_price: 1, purchase_currency: "EUR" },
    });
    expect(missing).toMatchObject({
      status: 400,
      body: { errors: [{ field: "user_id", problem: "required with an API key" }] },
    });

    const byKey = await call("POST", path, {
      token: app.apiKey,
      body: { user_id: "server-user", purchase_price: 1, purchase_currency: "EUR" },
    });
    expect(byKey).toMatchObject({ status: 200, body: { user_id: "server-user", purchase_price: 1 } });
    const token = await app.tokenFor("server-user");
    expect(
      (await call("GET", `/v1/battle-passes/${app.appId}/${pass.battle_pass_id}`, { token })).body.unlocked_at,
    ).toBe(byKey.body.unlocked_at);

    const both = await call("POST", path, { token, body: { user_id: "someone-else" } });
    expect(both).toMatchObject({
      status: 400,
      body: { errors: [{ field: "user_id", problem: "not allowed with an access token" }] },
    });
    const noBody = await call("POST", path, { token });
    expect(noBody.status).toBe(200);
    const badPrice = await call("POST", path, { token, body: { purchase_price: "free" } });
    expect(badPrice.status).toBe(400);
  });

  it("refuses a pass that is switched off or over", async () => {
    const off = await createPass(app.appId, { battle_pass_name: "Off", is_active: false, ...running });
    const over = await createPass(app.appId, {
      battle_pass_name: "Over",
      start_date: iso(now - 2 * DAY),
      end_date: iso(now - DAY),
    });
    const token = await app.tokenFor("refused");
    expect(await unlock(token, off.battle_pass_id)).toMatchObject({
      status: 409,
      body: { message: `Battle pass ${off.battle_pass_id} is not active` },
    });
    expect(await unlock(token, over.battle_pass_id)).toMatchObject({
      status: 409,
      body: { message: `Battle pass ${over.battle_pass_id} has ended` },
    });
  });
});

describe("notifications", () => {
  it("sends battlepass-challenge-changed on unlock and, on claim, the level's reward to its own URL", async () => {
    // Its own app: only here do changes have receivers.
    const hooked = await createTestApp("Notifications");
    await addWebhook(hooked.appId, "battlepass-challenge-changed");
    await addWebhook(hooked.appId, "battlepass-level-reward-claimed");
    const created = await createPass(hooked.appId, { battle_pass_name: "Hooks", ...running });
    const level = await createLevel(hooked.appId, created.battle_pass_id, {
      ...levelOf(["kill-enemy", 1]),
      reward_webhook_url: "https://rewards.example.com/level",
    });
    const token = await hooked.tokenFor("hook-user");
    const unlockHooks = capturingWebhooks();
    await callCapturing(unlockHooks.queue, "POST", `/v1/battle-pass/${hooked.appId}/unlock/${created.battle_pass_id}`, {
      token,
      body: {},
    });
    const state = (type: string, score: number) => ({
      app_id: hooked.appId,
      battle_pass_id: created.battle_pass_id,
      level_id: level.level_id,
      user_id: "hook-user",
      level_position_index: 0,
      challenge_id: level.challenges[0].challenge_id,
      challenge_position_index: 0,
      challenge_goal: 1,
      user_challenge_current_score: score,
      type,
    });
    expect(unlockHooks.sent).toEqual([
      {
        webhookType: "battlepass-challenge-changed",
        overrideUrl: null,
        payload: {
          webhook_type: "battlepass-challenge-changed",
          old_battle_pass_challenge: state("unlock", 0),
          new_battle_pass_challenge: state("in-progress", 0),
        },
      },
    ]);

    await sendEvent(hooked.apiKey, "hook-user", "kill-enemy", { amount: 1 });
    const claimHooks = capturingWebhooks();
    const r = await callCapturing(
      claimHooks.queue,
      "POST",
      `/api/v1/battle-pass-levels/${hooked.appId}/claim/${level.level_id}`,
      { token },
    );
    expect(r.status).toBe(200);
    expect(claimHooks.sent).toEqual([
      {
        webhookType: "battlepass-challenge-changed",
        overrideUrl: null,
        payload: {
          webhook_type: "battlepass-challenge-changed",
          old_battle_pass_challenge: state("unclaimed", 1),
          new_battle_pass_challenge: state("finished", 1),
        },
      },
      {
        webhookType: "battlepass-level-reward-claimed",
        overrideUrl: "https://rewards.example.com/level",
        payload: {
          webhook_type: "battlepass-level-reward-claimed",
          battle_pass_level_reward_claimed: {
            app_id: hooked.appId,
            battle_pass_id: created.battle_pass_id,
            level_id: level.level_id,
            user_id: "hook-user",
            level_position_index: 0,
            reward_amount: "100",
            reward_type_name: "Coins",
          },
        },
      },
    ]);
  });
});
