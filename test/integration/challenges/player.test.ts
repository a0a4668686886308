import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp, sendEvent } from "../helpers";
import { createCategory, createChallenge, player } from "./support";

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let users = 0;
/** A fresh user of the app: every test starts from challenges in `unlock`. */
async function newPlayer() {
  const userId = `player-${++users}`;
  return { userId, ...player(app.appId, await app.tokenFor(userId)) };
}

const ALL_FIELDS = [
  "challenge_id",
  "user_challenge_id",
  "challenge_name",
  "challenge_description",
  "challenge_duration_time",
  "live_date",
  "challenge_goal",
  "challenge_goal_condition",
  "challenge_current_score",
  "user_challenge_current_score",
  "challenge_price",
  "challenge_reward",
  "challenge_reward_type",
  "challenge_xp",
  "challenge_icon",
  "challenge_icon_hd",
  "repeatable",
  "type",
  "is_claimed",
  "user_challenge_unlocked_at",
  "user_challenge_activated_at",
  "challenge_auto_activated",
  "can_be_auto_activated",
  "user_challenge_is_claimed",
  "user_challenge_status",
].sort();
const SHORT_FIELDS = ALL_FIELDS.filter((f) => f !== "challenge_description" && f !== "challenge_auto_activated");

let main: { category_id: string };
let second: { category_id: string };
let manual: { challenge_id: string };
let repeatable: { challenge_id: string };
let timed: { challenge_id: string };

beforeAll(async () => {
  app = await createTestApp("Players");
  // Created out of order: lists follow category_position.
  second = await createCategory(app.appId, {
    category_slug: "second",
    category_name: { en: "Second", de: "Zweite" },
    category_position: 1,
  });
  main = await createCategory(app.appId, {
    category_slug: "main",
    category_name: { en: "Main", de: "Haupt" },
    category_position: 0,
  });
  manual = await createChallenge(app.appId, main.category_id, {
    challenge_price: 5,
    challenge_reward: "sword",
    challenge_reward_type: "item",
    challenge_xp: 20,
    challenge_icon: "skull",
    challenge_icon_hd: "skull-hd",
  });
  repeatable = await createChallenge(app.appId, main.category_id, {
    challenge_name: "Again",
    event_name: "collect-item",
    challenge_goal: 1,
    repeatable: true,
  });
  timed = await createChallenge(app.appId, second.category_id, {
    challenge_name: "Timed",
    challenge_duration_time: 600,
    event_name: "earn-points",
  });
});

describe("lists", () => {
  it("answer categories by position, each challenge with every field of the spec", async () => {
    const p = await newPlayer();
    const r = await p.all();
    expect(r.status).toBe(200);
    expect(
      r.body.map((c: any) => [
        c.category_id,
        c.category_slug,
        c.category_name,
        c.category_position,
        c.is_daily_category,
      ]),
    ).toEqual([
      [main.category_id, "main", "Main", 0, false],
      [second.category_id, "second", "Second", 1, false],
    ]);
    const [first] = r.body[0].challenges;
    expect(Object.keys(first).sort()).toEqual(ALL_FIELDS);
    expect(first).toEqual({
      challenge_id: manual.challenge_id,
      user_challenge_id: "0",
      challenge_name: "Kill 3 enemies",
      challenge_description: "Any weapon",
      challenge_duration_time: -1,
      live_date: null,
      challenge_goal: 3,
      challenge_goal_condition: 0,
      challenge_current_score: 0,
      user_challenge_current_score: 0,
      challenge_price: 5,
      challenge_reward: "sword",
      challenge_reward_type: "item",
      challenge_xp: 20,
      challenge_icon: "skull",
      challenge_icon_hd: "skull-hd",
      repeatable: false,
      type: "unlock",
      is_claimed: false,
      user_challenge_unlocked_at: null,
      user_challenge_activated_at: null,
      challenge_auto_activated: false,
      can_be_auto_activated: false,
      user_challenge_is_claimed: false,
      user_challenge_status: 0,
    });
    expect(r.body[0].challenges.map((c: any) => c.challenge_id)).toEqual([
      manual.challenge_id,
      repeatable.challenge_id,
    ]);
  });

  it("localize by `language`, falling back to the app's default language", async () => {
    const p = await newPlayer();
    const de = await p.all("?language=de");
    expect(de.body.map((c: any) => c.category_name)).toEqual(["Haupt", "Zweite"]);
    expect(de.body[0].challenges[0]).toMatchObject({
      challenge_name: "Besiege 3 Gegner",
      challenge_description: "Jede Waffe",
    });
    // A plain-string name is the same in every language.
    expect(de.body[1].challenges[0].challenge_name).toBe("Timed");
    const fr = await p.all("?language=fr");
    expect(fr.body[0]).toMatchObject({ category_name: "Main", challenges: [{ challenge_name: "Kill 3 enemies" }, {}] });
    expect((await p.unlock(`${manual.challenge_id}?language=de`)).body.challenge.challenge_name).toBe(
      "Besiege 3 Gegner",
    );
  });

  it("include and exclude categories by slug or id (comma-separated, as SCILL sends them)", async () => {
    const p = await newPlayer();
    const slugs = async (query: string) => (await p.all(query)).body.map((c: any) => c.category_slug);
    expect(await slugs("?include_categories=second")).toEqual(["second"]);
    expect(await slugs(`?include_categories=second,${main.category_id}`)).toEqual(["main", "second"]);
    expect(await slugs("?exclude_categories=main")).toEqual(["second"]);
    expect(await slugs(`?exclude_categories=${second.category_id},main`)).toEqual([]);
    expect((await p.unresolved("?include_categories=main")).body.map((c: any) => c.category_slug)).toEqual(["main"]);
  });

  it("all includes finished, unresolved and get do not, in-progress has only in-progress", async () => {
    const p = await newPlayer();
    await p.unlock(manual.challenge_id);
    await p.activate(manual.challenge_id);
    await sendEvent(app.apiKey, p.userId, "kill-enemy", { amount: 3 });
    await p.claim(manual.challenge_id);
    await p.unlock(timed.challenge_id);
    await p.activate(timed.challenge_id);
    const ids = (r: any) => r.body.map((c: any) => c.challenges.map((ch: any) => `${ch.challenge_id}:${ch.type}`));
    expect(ids(await p.all())).toEqual([
      [`${manual.challenge_id}:finished`, `${repeatable.challenge_id}:unlock`],
      [`${timed.challenge_id}:in-progress`],
    ]);
    expect(ids(await p.unresolved())).toEqual([
      [`${repeatable.challenge_id}:unlock`],
      [`${timed.challenge_id}:in-progress`],
    ]);
    expect(ids(await p.get())).toEqual(ids(await p.unresolved()));
    expect(ids(await p.inProgress())).toEqual([[], [`${timed.challenge_id}:in-progress`]]);
  });

  it("get one challenge by id; unknown ids are 404", async () => {
    const p = await newPlayer();
    const one = await p.one(manual.challenge_id, "?language=de");
    expect(one.status).toBe(200);
    expect(Object.keys(one.body).sort()).toEqual(ALL_FIELDS);
    expect(one.body).toMatchObject({
      challenge_id: manual.challenge_id,
      challenge_name: "Besiege 3 Gegner",
      type: "unlock",
    });
    expect(await p.one("999999")).toMatchObject({
      status: 404,
      body: { status: 404, message: "Challenge 999999 not found" },
    });
    expect((await p.one("abc")).status).toBe(404);
  });
});

describe("unlock, activate, claim, cancel (spec methods and SCILL methods)", () => {
  it.each([
    ["spec", "GET", "GET", "GET"],
    ["SCILL", "POST", "PUT", "PUT"],
  ])(
    "%s methods: unlock -> unlocked -> in-progress -> unclaimed -> finished",
    async (_name, unlockMethod, activateMethod, claimMethod) => {
      const p = await newPlayer();
      const unlocked = await p.unlock(manual.challenge_id, unlockMethod);
      expect(unlocked.status).toBe(200);
      expect(unlocked.body).toMatchObject({ status: 200, message: "OK" });
      expect(Object.keys(unlocked.body).sort()).toEqual(["challenge", "message", "status"]);
      expect(Object.keys(unlocked.body.challenge).sort()).toEqual(SHORT_FIELDS);
      expect(unlocked.body.challenge).toMatchObject({
        type: "unlocked",
        user_challenge_status: 1,
        user_challenge_activated_at: null,
      });
      expect(unlocked.body.challenge.user_challenge_id).toMatch(/^\d+$/);
      expect(unlocked.body.challenge.user_challenge_unlocked_at).toEqual(expect.any(String));

      const activated = await p.activate(manual.challenge_id, activateMethod);
      expect(Object.keys(activated.body.challenge).sort()).toEqual(SHORT_FIELDS);
      expect(activated.body).toMatchObject({
        status: 200,
        message: "OK",
        challenge: {
          type: "in-progress",
          user_challenge_status: 2,
          user_challenge_id: unlocked.body.challenge.user_challenge_id,
          user_challenge_unlocked_at: unlocked.body.challenge.user_challenge_unlocked_at,
        },
      });
      expect(activated.body.challenge.user_challenge_activated_at).toEqual(expect.any(String));

      await sendEvent(app.apiKey, p.userId, "kill-enemy", { amount: 3 });
      expect(await p.find(manual.challenge_id)).toMatchObject({
        type: "unclaimed",
        user_challenge_current_score: 3,
        user_challenge_status: 3,
      });

      const claimed = await p.claim(manual.challenge_id, claimMethod);
      expect(Object.keys(claimed.body.challenge).sort()).toEqual(ALL_FIELDS);
      expect(claimed.body).toMatchObject({
        status: 200,
        message: "OK",
        challenge: {
          type: "finished",
          is_claimed: true,
          user_challenge_is_claimed: true,
          user_challenge_status: 4,
          challenge_current_score: 3,
        },
      });
      expect(await p.find(manual.challenge_id)).toMatchObject({ type: "finished", is_claimed: true });
    },
  );

  it("activate accepts the user_challenge_id as cid", async () => {
    const p = await newPlayer();
    const unlocked = await p.unlock(manual.challenge_id);
    const activated = await p.activate(unlocked.body.challenge.user_challenge_id, "PUT");
    expect(activated.body.challenge).toMatchObject({ challenge_id: manual.challenge_id, type: "in-progress" });
  });

  it.each([
    ["spec", "DELETE"],
    ["SCILL", "PUT"],
  ])("cancel (%s method): a non-repeatable challenge is gone for that user", async (_name, method) => {
    const p = await newPlayer();
    await p.unlock(manual.challenge_id);
    await p.activate(manual.challenge_id);
    const cancelled = await p.cancel(manual.challenge_id, method);
    expect(cancelled.body).toMatchObject({
      status: 200,
      message: "OK",
      challenge: { type: "cancelled", user_challenge_status: 6 },
    });
    expect(Object.keys(cancelled.body.challenge).sort()).toEqual(ALL_FIELDS);
    expect(await p.find(manual.challenge_id)).toBeUndefined();
    expect(await p.unlock(manual.challenge_id)).toMatchObject({
      status: 404,
      body: { status: 404, message: `Challenge ${manual.challenge_id} is not available for this user` },
    });
    expect((await p.one(manual.challenge_id)).status).toBe(404);
  });

  it("cancel: a repeatable challenge appears as unlock again", async () => {
    const p = await newPlayer();
    await p.unlock(repeatable.challenge_id);
    await p.activate(repeatable.challenge_id);
    expect((await p.cancel(repeatable.challenge_id)).body.challenge.type).toBe("cancelled");
    expect(await p.find(repeatable.challenge_id)).toMatchObject({
      type: "unlock",
      user_challenge_id: "0",
      user_challenge_current_score: 0,
    });
  });

  it("claim: a repeatable challenge is offered again as unlock afterwards", async () => {
    const p = await newPlayer();
    await p.unlock(repeatable.challenge_id);
    const first = (await p.activate(repeatable.challenge_id)).body.challenge.user_challenge_id;
    await sendEvent(app.apiKey, p.userId, "collect-item", { amount: 1, item_type: "gem" });
    expect((await p.claim(repeatable.challenge_id)).body.challenge).toMatchObject({
      type: "finished",
      is_claimed: true,
    });
    expect(await p.find(repeatable.challenge_id)).toMatchObject({ type: "unlock", is_claimed: false });
    const again = await p.unlock(repeatable.challenge_id);
    expect(again.body.challenge.type).toBe("unlocked");
    expect(again.body.challenge.user_challenge_id).not.toBe(first);
  });
});

describe("wrong-state actions answer 409", () => {
  const conflict = (action: string, cid: string, state: string, required: string) => ({
    status: 409,
    body: {
      status: 409,
      message: `Challenge ${cid} is in state ${state}; only a challenge in state ${required} can be ${action}`,
    },
  });

  it("unlock when not unlock", async () => {
    const p = await newPlayer();
    const cid = manual.challenge_id;
    await p.unlock(cid);
    expect(await p.unlock(cid)).toMatchObject(conflict("unlocked", cid, "unlocked", "unlock"));
    expect(await p.unlock(cid, "POST")).toMatchObject(conflict("unlocked", cid, "unlocked", "unlock"));
    await p.activate(cid);
    expect(await p.unlock(cid)).toMatchObject(conflict("unlocked", cid, "in-progress", "unlock"));
    await sendEvent(app.apiKey, p.userId, "kill-enemy", { amount: 3 });
    expect(await p.unlock(cid)).toMatchObject(conflict("unlocked", cid, "unclaimed", "unlock"));
    await p.claim(cid);
    expect(await p.unlock(cid, "POST")).toMatchObject(conflict("unlocked", cid, "finished", "unlock"));
  });

  it("activate when not unlocked", async () => {
    const p = await newPlayer();
    const cid = manual.challenge_id;
    expect(await p.activate(cid)).toMatchObject(conflict("activated", cid, "unlock", "unlocked"));
    await p.unlock(cid);
    await p.activate(cid);
    expect(await p.activate(cid, "PUT")).toMatchObject(conflict("activated", cid, "in-progress", "unlocked"));
    await sendEvent(app.apiKey, p.userId, "kill-enemy", { amount: 3 });
    expect(await p.activate(cid)).toMatchObject(conflict("activated", cid, "unclaimed", "unlocked"));
    await p.claim(cid);
    expect(await p.activate(cid)).toMatchObject(conflict("activated", cid, "finished", "unlocked"));
  });

  it("cancel when not in-progress", async () => {
    const p = await newPlayer();
    const cid = manual.challenge_id;
    expect(await p.cancel(cid)).toMatchObject(conflict("cancelled", cid, "unlock", "in-progress"));
    await p.unlock(cid);
    expect(await p.cancel(cid, "PUT")).toMatchObject(conflict("cancelled", cid, "unlocked", "in-progress"));
    await p.activate(cid);
    await sendEvent(app.apiKey, p.userId, "kill-enemy", { amount: 3 });
    expect(await p.cancel(cid)).toMatchObject(conflict("cancelled", cid, "unclaimed", "in-progress"));
    await p.claim(cid);
    expect(await p.cancel(cid, "PUT")).toMatchObject(conflict("cancelled", cid, "finished", "in-progress"));
  });

  it("claim when not unclaimed", async () => {
    const p = await newPlayer();
    const cid = manual.challenge_id;
    expect(await p.claim(cid)).toMatchObject(conflict("claimed", cid, "unlock", "unclaimed"));
    await p.unlock(cid);
    expect(await p.claim(cid, "PUT")).toMatchObject(conflict("claimed", cid, "unlocked", "unclaimed"));
    await p.activate(cid);
    expect(await p.claim(cid)).toMatchObject(conflict("claimed", cid, "in-progress", "unclaimed"));
    await sendEvent(app.apiKey, p.userId, "kill-enemy", { amount: 3 });
    await p.claim(cid);
    expect(await p.claim(cid, "PUT")).toMatchObject(conflict("claimed", cid, "finished", "unclaimed"));
  });

  it("unknown challenges are 404, not 409", async () => {
    const p = await newPlayer();
    for (const action of [p.unlock, p.activate, p.cancel, p.claim]) {
      expect(await action("424242")).toMatchObject({
        status: 404,
        body: { status: 404, message: "Challenge 424242 not found" },
      });
    }
  });
});

describe("automatic challenges", () => {
  it("are unlocked and activated when the user's challenges are requested; the service claims them", async () => {
    const auto = await createTestApp("Auto");
    const cat = await createCategory(auto.appId);
    const ch = await createChallenge(auto.appId, cat.category_id, { is_auto_activated: true, challenge_goal: 2 });
    const p = player(auto.appId, await auto.tokenFor("a1"));
    const listed = await p.find(ch.challenge_id);
    expect(listed).toMatchObject({
      type: "in-progress",
      challenge_auto_activated: true,
      can_be_auto_activated: true,
      user_challenge_status: 2,
    });
    expect(listed.user_challenge_unlocked_at).toBe(listed.user_challenge_activated_at);
    expect(listed.user_challenge_id).not.toBe("0");
    expect((await p.unlock(ch.challenge_id)).status).toBe(409);
    expect((await p.activate(ch.challenge_id)).status).toBe(409);
    await sendEvent(auto.apiKey, "a1", "kill-enemy", { amount: 2 });
    expect(await p.find(ch.challenge_id)).toMatchObject({
      type: "finished",
      is_claimed: true,
      user_challenge_current_score: 2,
    });
    expect((await p.claim(ch.challenge_id)).status).toBe(409);
  });

  it("are started by the first event too, which counts", async () => {
    const auto = await createTestApp("Auto by event");
    const cat = await createCategory(auto.appId);
    const ch = await createChallenge(auto.appId, cat.category_id, { is_auto_activated: true, challenge_goal: 5 });
    await sendEvent(auto.apiKey, "a2", "kill-enemy", { amount: 2 });
    const p = player(auto.appId, await auto.tokenFor("a2"));
    expect(await p.find(ch.challenge_id)).toMatchObject({ type: "in-progress", user_challenge_current_score: 2 });
  });

  it("a repeatable one starts again after completion", async () => {
    const auto = await createTestApp("Auto repeat");
    const cat = await createCategory(auto.appId);
    const ch = await createChallenge(auto.appId, cat.category_id, {
      is_auto_activated: true,
      repeatable: true,
      challenge_goal: 1,
    });
    const p = player(auto.appId, await auto.tokenFor("a3"));
    const first = await p.find(ch.challenge_id);
    await sendEvent(auto.apiKey, "a3", "kill-enemy", { amount: 1 });
    const second = await p.find(ch.challenge_id);
    expect(second).toMatchObject({ type: "in-progress", user_challenge_current_score: 0 });
    expect(second.user_challenge_id).not.toBe(first.user_challenge_id);
  });
});

describe("credentials and apps", () => {
  it("player endpoints need an access token of the path's app", async () => {
    const p = await newPlayer();
    const path = `/api/v1/challenges/personal/all/${app.appId}`;
    expect(await call("GET", path)).toMatchObject({
      status: 401,
      body: { status: 401, message: "Missing Authorization header" },
    });
    expect((await call("GET", path, { token: app.apiKey })).status).toBe(401);
    const foreign = await createTestApp("Foreign");
    const foreignToken = await foreign.tokenFor("x");
    expect(await call("GET", path, { token: foreignToken })).toMatchObject({
      status: 404,
      body: { message: `App ${app.appId} not found` },
    });
    expect(
      (
        await call("POST", `/api/v1/challenges/personal/unlock/${app.appId}/${manual.challenge_id}`, {
          token: foreignToken,
        })
      ).status,
    ).toBe(404);
    expect((await p.all()).status).toBe(200);
  });

  it("reset needs an API key of the path's app", async () => {
    const foreign = await createTestApp("Foreign reset");
    const path = `/api/v1/reset-challenges/${app.appId}/someone`;
    expect((await call("DELETE", path, { token: await app.tokenFor("someone") })).status).toBe(401);
    expect((await call("DELETE", path, { token: foreign.apiKey })).status).toBe(404);
    expect((await call("POST", path, { token: ADMIN })).status).toBe(401);
  });
});

describe("reset of a user's challenges with the API key", () => {
  it.each(["DELETE", "POST"])(
    "%s: every challenge of that user is back to its first state, other users untouched",
    async (method) => {
      const p = await newPlayer();
      const bystander = await newPlayer();
      for (const who of [p, bystander]) {
        await who.unlock(manual.challenge_id);
        await who.activate(manual.challenge_id);
      }
      await p.unlock(repeatable.challenge_id);
      await p.unlock(timed.challenge_id);
      await p.activate(timed.challenge_id);
      await p.cancel(timed.challenge_id);
      expect(await p.find(timed.challenge_id)).toBeUndefined();

      const r = await call(method, `/api/v1/reset-challenges/${app.appId}/${p.userId}`, { token: app.apiKey });
      expect(r).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
      const types = (await p.all()).body.map((c: any) =>
        c.challenges.map((ch: any) => [ch.type, ch.user_challenge_current_score]),
      );
      expect(types).toEqual([
        [
          ["unlock", 0],
          ["unlock", 0],
        ],
        [["unlock", 0]],
      ]);
      expect(await bystander.find(manual.challenge_id)).toMatchObject({ type: "in-progress" });
      const view = await call("GET", `/api/v1/admin/apps/${app.appId}/users/${p.userId}`, { token: ADMIN });
      expect(view.body.challenges).toEqual([]);
      // A user that never played can be reset too.
      expect((await call(method, `/api/v1/reset-challenges/${app.appId}/nobody`, { token: app.apiKey })).status).toBe(
        200,
      );
    },
  );
});

describe("OpenAPI document", () => {
  it("lists every challenge path with the spec's and SCILL's methods", async () => {
    const doc = await call("GET", "/openapi.json");
    const methods = (path: string) => Object.keys(doc.body.paths[path] ?? {}).sort();
    const p = "/api/v1/challenges/personal";
    expect(methods(`${p}/all/{appId}`)).toEqual(["get"]);
    expect(methods(`${p}/unresolved/{appId}`)).toEqual(["get"]);
    expect(methods(`${p}/get/{appId}`)).toEqual(["get"]);
    expect(methods(`${p}/get/{appId}/{challengeId}`)).toEqual(["get"]);
    expect(methods(`${p}/get-in-progress-challenges/{appId}`)).toEqual(["get"]);
    expect(methods(`${p}/unlock/{appId}/{challengeId}`)).toEqual(["get", "post"]);
    expect(methods(`${p}/activate/{appId}/{challengeId}`)).toEqual(["get", "put"]);
    expect(methods(`${p}/cancel/{appId}/{challengeId}`)).toEqual(["delete", "put"]);
    expect(methods(`${p}/claim/{appId}/{challengeId}`)).toEqual(["get", "put"]);
    expect(methods("/api/v1/reset-challenges/{appId}/{userId}")).toEqual(["delete", "post"]);
    expect(methods("/api/v1/admin/apps/{appId}/challenge-categories")).toEqual(["get", "post"]);
    expect(methods("/api/v1/admin/apps/{appId}/challenges/{challengeId}")).toEqual(["delete", "get", "put"]);
    // GET reads the user's state, DELETE erases the player.
    expect(methods("/api/v1/admin/apps/{appId}/users/{userId}")).toEqual(["delete", "get"]);
  });
});
