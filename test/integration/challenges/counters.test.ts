import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestApp, sendEvent } from "../helpers";
import { createCategory, createChallenge, player } from "./support";

/** The spec's "Rules for events", end to end: events through the intake, counters read through the lists. */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let categoryId: string;
let users = 0;

beforeAll(async () => {
  app = await createTestApp("Counters");
  categoryId = (await createCategory(app.appId)).category_id;
});

/** A new challenge (goal 1000 unless given) and a new user who has it in progress. */
async function running(fields: Record<string, unknown>) {
  const challenge = await createChallenge(app.appId, categoryId, { challenge_goal: 1000, ...fields });
  const userId = `u${++users}`;
  const p = player(app.appId, await app.tokenFor(userId));
  await p.unlock(challenge.challenge_id);
  await p.activate(challenge.challenge_id);
  const send = (eventName: string, meta: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    sendEvent(app.apiKey, userId, eventName, meta, extra);
  const state = async () => {
    const c = await p.find(challenge.challenge_id);
    return c && { type: c.type, score: c.user_challenge_current_score };
  };
  return { challenge, userId, p, send, state };
}

describe("rule 1: single adds the amount", () => {
  it("adds amounts, 1 per event without one", async () => {
    const t = await running({ event_name: "match-finish" });
    await t.send("match-finish", {});
    await t.send("match-finish", {}, { event_type: "single" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 2 });
    const k = await running({ event_name: "kill-enemy" });
    await k.send("kill-enemy", { amount: 4 });
    await k.send("kill-enemy", { amount: 3 });
    expect(await k.state()).toEqual({ type: "in-progress", score: 7 });
  });
});

describe("rule 2: group replaces", () => {
  it("replaces, 0 resets, and mixes with single (group 3 then single 1 is 4)", async () => {
    const t = await running({ event_name: "kill-enemy" });
    await t.send("kill-enemy", { amount: 5 });
    await t.send("kill-enemy", { amount: 3 }, { event_type: "group" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 3 });
    await t.send("kill-enemy", { amount: 1 });
    expect(await t.state()).toEqual({ type: "in-progress", score: 4 });
    await t.send("kill-enemy", { amount: 0 }, { event_type: "group" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 0 });
  });
});

describe("rule 3: a new session resets the counter at its first event", () => {
  it("resets a session-scoped counter", async () => {
    const t = await running({ event_name: "kill-enemy" });
    await t.send("kill-enemy", { amount: 2 }, { session_id: "match-1" });
    await t.send("kill-enemy", { amount: 2 }, { session_id: "match-1" });
    await t.send("kill-enemy", { amount: 1 }, { session_id: "match-2" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 1 });
    await t.send("kill-enemy", { amount: 1 }, { session_id: "match-2" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 2 });
  });

  it("events without a session are in the session `persistent`", async () => {
    const t = await running({ event_name: "kill-enemy" });
    await t.send("kill-enemy", { amount: 2 });
    await t.send("kill-enemy", { amount: 2 }, { session_id: "persistent" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 4 });
  });

  it("counter_scope total keeps counting across sessions (lifts known limitation 8)", async () => {
    const perMatch = await createChallenge(app.appId, categoryId, { challenge_goal: 1000, event_name: "instant-kill" });
    const total = await createChallenge(app.appId, categoryId, {
      challenge_goal: 1000,
      event_name: "instant-kill",
      counter_scope: "total",
    });
    const userId = `u${++users}`;
    const p = player(app.appId, await app.tokenFor(userId));
    for (const c of [perMatch, total]) {
      await p.unlock(c.challenge_id);
      await p.activate(c.challenge_id);
    }
    await sendEvent(app.apiKey, userId, "instant-kill", { amount: 3 }, { session_id: "m1" });
    await sendEvent(app.apiKey, userId, "instant-kill", { amount: 2 }, { session_id: "m2" });
    expect((await p.find(perMatch.challenge_id)).user_challenge_current_score).toBe(2);
    expect((await p.find(total.challenge_id)).user_challenge_current_score).toBe(5);
  });
});

describe("rule 4: only in-progress challenges count", () => {
  it("ignores events before activation and after completion", async () => {
    const challenge = await createChallenge(app.appId, categoryId, { challenge_goal: 2, event_name: "heal-unit" });
    const userId = `u${++users}`;
    const p = player(app.appId, await app.tokenFor(userId));
    const heal = (amount: number) => sendEvent(app.apiKey, userId, "heal-unit", { amount, unit_type: "tank" });
    await heal(5);
    expect(await p.find(challenge.challenge_id)).toMatchObject({ type: "unlock", user_challenge_current_score: 0 });
    await p.unlock(challenge.challenge_id);
    await heal(5);
    expect(await p.find(challenge.challenge_id)).toMatchObject({ type: "unlocked", user_challenge_current_score: 0 });
    await p.activate(challenge.challenge_id);
    await heal(1);
    await heal(1);
    expect(await p.find(challenge.challenge_id)).toMatchObject({ type: "unclaimed", user_challenge_current_score: 2 });
    await heal(7);
    expect(await p.find(challenge.challenge_id)).toMatchObject({ type: "unclaimed", user_challenge_current_score: 2 });
  });

  it("events of other names do not count", async () => {
    const t = await running({ event_name: "kill-enemy" });
    await t.send("match-start", {});
    expect(await t.state()).toEqual({ type: "in-progress", score: 0 });
  });
});

describe("rules 5 and 7: filters on meta data; undefined properties are ignored", () => {
  it("counts only events whose meta data pass every filter", async () => {
    const t = await running({
      event_name: "kill-enemy",
      filters: [
        { field: "weapon_used", op: "eq", value: "bow" },
        { field: "enemy_type", op: "in", value: ["orc", "troll"] },
      ],
    });
    await t.send("kill-enemy", { amount: 1, weapon_used: "bow", enemy_type: "orc" });
    await t.send("kill-enemy", { amount: 1, weapon_used: "axe", enemy_type: "orc" });
    await t.send("kill-enemy", { amount: 1, weapon_used: "bow", enemy_type: "elf" });
    await t.send("kill-enemy", { amount: 2, weapon_used: "bow", enemy_type: "troll" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 3 });
  });

  it("numeric comparisons (an armor value)", async () => {
    const t = await running({ event_name: "obtain-item", filters: [{ field: "armor", op: "gte", value: 50 }] });
    await t.send("obtain-item", { item_id: "a", armor: 49 });
    await t.send("obtain-item", { item_id: "b", armor: 50 });
    await t.send("obtain-item", { item_id: "c", armor: 80 });
    expect(await t.state()).toEqual({ type: "in-progress", score: 2 });
  });

  it("a property not defined for a predefined event never reaches a filter", async () => {
    const t = await running({ event_name: "kill-enemy", filters: [{ field: "color", op: "eq", value: "red" }] });
    await t.send("kill-enemy", { amount: 1, color: "red" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 0 });
  });

  it("custom event names are counted with any meta data", async () => {
    const t = await running({ event_name: "open-chest", filters: [{ field: "rarity", op: "ne", value: "common" }] });
    await t.send("open-chest", { rarity: "epic" });
    await t.send("open-chest", { rarity: "common" });
    await t.send("open-chest", {});
    expect(await t.state()).toEqual({ type: "in-progress", score: 2 });
  });
});

describe("value_field", () => {
  it("counts the named field", async () => {
    const t = await running({ event_name: "character-run", value_field: "distance", challenge_goal: 5000 });
    await t.send("character-run", { distance: 1200, player_character: "hero" });
    await t.send("character-run", { distance: 800, player_character: "hero" });
    expect(await t.state()).toEqual({ type: "in-progress", score: 2000 });
  });
});

describe("goal conditions", () => {
  it("0: complete when the counter reaches the goal", async () => {
    const t = await running({ event_name: "kill-enemy", challenge_goal: 3 });
    await t.send("kill-enemy", { amount: 2 });
    expect(await t.state()).toEqual({ type: "in-progress", score: 2 });
    await t.send("kill-enemy", { amount: 5 });
    expect(await t.state()).toEqual({ type: "unclaimed", score: 7 });
  });

  it("1: complete when an event leaves the counter at or below the goal (a lap under 60 s)", async () => {
    const t = await running({
      event_name: "finish-laps",
      value_field: "required_time",
      challenge_goal: 6000,
      challenge_goal_condition: 1,
    });
    const lap = (required_time: number) =>
      t.send("finish-laps", { lap_position: 1, required_time }, { event_type: "group" });
    await lap(6500);
    expect(await t.state()).toEqual({ type: "in-progress", score: 6500 });
    await lap(5990);
    expect(await t.state()).toEqual({ type: "unclaimed", score: 5990 });
  });
});

describe("events sent with the user's access token", () => {
  it("count like those of the backend", async () => {
    const t = await running({ event_name: "kill-enemy" });
    const token = await app.tokenFor(t.userId);
    const r = await call("POST", "/api/v1/events?auth=access_token", {
      token,
      body: { event_name: "kill-enemy", meta_data: { amount: 4 } },
    });
    expect(r.status).toBe(200);
    expect(await t.state()).toEqual({ type: "in-progress", score: 4 });
  });
});
