import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { UserEvent } from "../../../src/user/event";
import { userObject } from "../../../src/user/names";
import { ADMIN, call, createTestApp, DAY, HOUR, iso, sendEvent, serviceNow } from "../helpers";
import { createCategory, createChallenge, player } from "../challenges/support";
import { createLevel, createPass, levelOf } from "../battlepasses/support";
import { backend, createSystem, XP_LEVELS } from "./support";

/** An app with `xp` (takes challenge_xp) and spendable `coins`. */
async function rewardingApp(name: string) {
  const app = await createTestApp(name);
  await createSystem(app.appId, { key: "xp", credits_challenge_xp: true, levels: XP_LEVELS });
  await createSystem(app.appId, { key: "coins", spendable: true });
  return { app, api: backend(app.appId, app.apiKey) };
}

describe("rewards of challenges and battle-pass levels land in points systems", () => {
  it("a claimed challenge credits challenge_xp and points_rewards, one entry per system; SCILL's answer is unchanged", async () => {
    const { app, api } = await rewardingApp("Challenge rewards");
    const category = await createCategory(app.appId);
    const challenge = await createChallenge(app.appId, category.category_id, {
      challenge_goal: 1,
      challenge_xp: 120,
      points_rewards: [{ system: "coins", amount: 5 }],
    });
    expect(challenge.points_rewards).toEqual([{ system: "coins", amount: 5 }]);
    const token = await app.tokenFor("ann");
    const ann = player(app.appId, token);
    await ann.unlock(challenge.challenge_id);
    await ann.activate(challenge.challenge_id);
    await sendEvent(app.apiKey, "ann", "kill-enemy", { amount: 1 });
    // Completed, not claimed: nothing credited yet.
    expect(await api.balanceOf("ann", "xp")).toMatchObject({ balance: 0, earned: 0 });
    const claimed = await ann.claim(challenge.challenge_id);
    expect(claimed.status).toBe(200);
    expect(Object.keys(claimed.body)).not.toContain("points_rewards");
    expect(JSON.stringify(claimed.body)).not.toContain("points");
    expect(await api.balanceOf("ann", "xp")).toMatchObject({ balance: 120, earned: 120, level: { level: 2 } });
    expect(await api.balanceOf("ann", "coins")).toMatchObject({ balance: 5, earned: 5 });
    const source = { kind: "challenge", id: challenge.challenge_id };
    expect(await api.ledger("ann", "xp")).toMatchObject([{ amount: 120, balance_after: 120, source }]);
    expect(await api.ledger("ann", "coins")).toMatchObject([{ amount: 5, balance_after: 5, source }]);
    // A claim again is a 409 and credits nothing more.
    expect((await ann.claim(challenge.challenge_id)).status).toBe(409);
    expect(await api.balanceOf("ann", "xp")).toMatchObject({ balance: 120 });
  });

  it("an automatic challenge, claimed by the service, credits its challenge_xp as it completes", async () => {
    const { app, api } = await rewardingApp("Automatic rewards");
    const category = await createCategory(app.appId);
    await createChallenge(app.appId, category.category_id, {
      challenge_goal: 2,
      challenge_xp: 30,
      is_auto_activated: true,
    });
    const token = await app.tokenFor("bob");
    await player(app.appId, token).all();
    await sendEvent(app.apiKey, "bob", "kill-enemy", { amount: 2 });
    expect(await api.balanceOf("bob", "xp")).toMatchObject({ balance: 30, earned: 30 });
  });

  it("a reward naming a system the app does not have is a 400", async () => {
    const { app } = await rewardingApp("Missing systems");
    const category = await createCategory(app.appId);
    const r = await call("POST", `/api/v1/admin/apps/${app.appId}/challenges`, {
      token: ADMIN,
      body: {
        category_id: category.category_id,
        challenge_name: "x",
        challenge_goal: 1,
        event_name: "x",
        points_rewards: [{ system: "gems", amount: 1 }],
      },
    });
    expect(r).toMatchObject({
      status: 400,
      body: { errors: [{ field: "points_rewards.0.system", problem: "no points system 'gems' in this app" }] },
    });
    const now = await serviceNow();
    const pass = await createPass(app.appId, {
      battle_pass_name: "Season",
      start_date: iso(now - HOUR),
      end_date: iso(now + DAY),
    });
    const level = await call("POST", `/api/v1/admin/apps/${app.appId}/battle-passes/${pass.battle_pass_id}/levels`, {
      token: ADMIN,
      body: { ...levelOf(["kill-enemy", 1]), points_rewards: [{ system: "gems", amount: 1 }] },
    });
    expect(level).toMatchObject({ status: 400, body: { errors: [{ field: "points_rewards.0.system" }] } });
  });

  it("a claimed battle-pass level credits its points_rewards; SCILL's answer is unchanged", async () => {
    const { app, api } = await rewardingApp("Level rewards");
    const now = await serviceNow();
    const pass = await createPass(app.appId, {
      battle_pass_name: "Season",
      start_date: iso(now - HOUR),
      end_date: iso(now + DAY),
    });
    const level = await createLevel(app.appId, pass.battle_pass_id, {
      ...levelOf(["kill-enemy", 1]),
      points_rewards: [{ system: "coins", amount: 70 }],
    });
    expect(level.points_rewards).toEqual([{ system: "coins", amount: 70 }]);
    const token = await app.tokenFor("cat");
    const unlocked = await call("POST", `/v1/battle-pass/${app.appId}/unlock/${pass.battle_pass_id}`, {
      token,
      body: { purchase_price: 0, purchase_currency: "EUR" },
    });
    expect(unlocked.status).toBe(200);
    await sendEvent(app.apiKey, "cat", "kill-enemy", { amount: 1 });
    const claimed = await call("POST", `/v1/api/battle-pass-levels/${app.appId}/claim/${level.level_id}`, { token });
    expect(claimed).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
    expect(await api.balanceOf("cat", "coins")).toMatchObject({ balance: 70, earned: 70 });
    expect(await api.ledger("cat", "coins")).toMatchObject([
      { amount: 70, balance_after: 70, source: { kind: "battle-pass-level", id: level.level_id } },
    ]);
  });

  it("a banned player earns nothing, even from an event that reaches their object", async () => {
    const app = await createTestApp("Banned earn nothing");
    await createSystem(app.appId, { key: "xp", triggers: [{ event_name: "slay", points: 3 }] });
    const api = backend(app.appId, app.apiKey);
    await sendEvent(app.apiKey, "dan", "slay");
    const ban = await call("POST", `/api/v1/admin/apps/${app.appId}/users/dan/ban`, {
      token: ADMIN,
      body: { reason: "x" },
    });
    expect(ban.status).toBe(200);
    // Intake refuses the banned player's events; one already past it (sent before the ban) earns nothing either.
    const event: UserEvent = {
      appId: app.appId,
      userId: "dan",
      teamId: null,
      eventName: "slay",
      eventType: "single",
      sessionId: "s",
      metaData: {},
      eventId: null,
      receivedAt: await serviceNow(),
      credential: "api_key",
    };
    expect(await userObject(env, app.appId, "dan").applyEvent(event, 1000)).toEqual({ duplicate: false });
    expect(await api.balanceOf("dan", "xp")).toMatchObject({ balance: 3, earned: 3 });
  });
});

describe("a leaderboard of a points system", () => {
  it("ranks what players earned in the system: grants and triggers count, spends and takings do not", async () => {
    const app = await createTestApp("Points leaderboard");
    await createSystem(app.appId, { key: "coins", spendable: true, triggers: [{ event_name: "slay", points: 7 }] });
    const board = await call("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
      token: ADMIN,
      body: { name: "Richest", points_system: "coins" },
    });
    expect(board).toMatchObject({ status: 201, body: { event_name: "", points_system: "coins" } });
    const neither = await call("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
      token: ADMIN,
      body: { name: "Nothing" },
    });
    expect(neither).toMatchObject({ status: 400, body: { errors: [{ field: "event_name" }] } });
    const api = backend(app.appId, app.apiKey);
    expect((await api.grant("coins", "ann", 50, "g1")).status).toBe(200);
    expect((await api.spend("coins", "ann", 20, "s1")).status).toBe(200);
    await sendEvent(app.apiKey, "ann", "slay");
    expect((await api.grant("coins", "bob", 30, "g2")).status).toBe(200);
    const token = await app.tokenFor("ann");
    const ranking = async () =>
      (await call("GET", `/api/v1/leaderboards/${board.body.leaderboard_id}`, { token })).body.grouped_by_users?.map(
        (r: { member_id: string; score: number; rank: number }) => [r.member_id, r.score, r.rank],
      );
    await expect.poll(ranking).toEqual([
      ["ann", 57, 1],
      ["bob", 30, 2],
    ]);
  });
});
