import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { ADMIN, call, captureSends, createTestApp, sendEvent } from "../helpers";
import { createCategory, createChallenge, player } from "../challenges/support";
import { addWebhook, createLevel, createPass, levelOf } from "../battlepasses/support";

const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });
const webhooksSent = () =>
  captureSends(env.WEBHOOKS, (m: { webhookType: string; body: string }) => ({
    type: m.webhookType,
    payload: JSON.parse(m.body),
  }));

async function auditOf(appId: string, userId: string) {
  return (await admin("GET", `/apps/${appId}/audit-log?resource=player&resource_id=${encodeURIComponent(userId)}`)).body
    .items as any[];
}

/** An app with one manual challenge (goal 10, kill-enemy) that `ann` activated and played to 9/10. */
async function stuckAtNine() {
  const app = await createTestApp("Corrections");
  const category = await createCategory(app.appId);
  const challenge = await createChallenge(app.appId, category.category_id, { challenge_goal: 10 });
  await addWebhook(app.appId, "challenge-changed");
  const token = await app.tokenFor("ann");
  const ann = player(app.appId, token);
  expect((await ann.unlock(challenge.challenge_id)).status).toBe(200);
  expect((await ann.activate(challenge.challenge_id)).status).toBe(200);
  await sendEvent(app.apiKey, "ann", "kill-enemy", { amount: 9 });
  expect(await ann.find(challenge.challenge_id)).toMatchObject({
    type: "in-progress",
    user_challenge_current_score: 9,
  });
  return { app, cid: challenge.challenge_id as string, ann };
}

describe("corrections of a player's challenge", () => {
  it("complete a challenge stuck at 9/10: unclaimed, one webhook, an audit entry with before, after and the reason", async () => {
    const { app, cid, ann } = await stuckAtNine();
    const sent = webhooksSent();
    const r = await admin("PUT", `/apps/${app.appId}/users/ann/challenges/${cid}`, {
      state: "unclaimed",
      reason: "a bug left it at 9/10",
    });
    expect(r).toMatchObject({
      status: 200,
      body: {
        before: { challenge_id: cid, state: "in-progress", counter: 9 },
        after: { challenge_id: cid, state: "unclaimed", counter: 10 },
        reason: "a bug left it at 9/10",
      },
    });
    expect(await ann.find(cid)).toMatchObject({ type: "unclaimed", user_challenge_current_score: 10 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      type: "challenge-changed",
      payload: {
        webhook_type: "challenge-changed",
        old_challenge: { type: "in-progress", user_challenge_current_score: 9 },
        new_challenge: { type: "unclaimed", user_challenge_current_score: 10 },
      },
    });
    const [entry] = await auditOf(app.appId, "ann");
    expect(entry).toMatchObject({
      resource: "player",
      resource_id: "ann",
      action: "correct-challenge",
      before: { challenge_id: cid, state: "in-progress", counter: 9 },
      after: { challenge_id: cid, state: "unclaimed", counter: 10, reason: "a bug left it at 9/10" },
    });
    // The player claims it as any completed challenge.
    expect((await ann.claim(cid)).status).toBe(200);
  });

  it("set the counter, complete it by reaching the goal, put it back to unlocked", async () => {
    const { app, cid, ann } = await stuckAtNine();
    const put = (body: unknown) => admin("PUT", `/apps/${app.appId}/users/ann/challenges/${cid}`, body);
    expect((await put({ counter: 4, reason: "lost progress" })).body).toMatchObject({
      before: { counter: 9 },
      after: { state: "in-progress", counter: 4 },
    });
    expect(await ann.find(cid)).toMatchObject({ type: "in-progress", user_challenge_current_score: 4 });
    expect((await put({ counter: 10, reason: "goal" })).body.after).toEqual({
      challenge_id: cid,
      state: "unclaimed",
      counter: 10,
    });
    const back = await put({ state: "unlocked", reason: "completed by mistake" });
    expect(back.body).toMatchObject({
      before: { state: "unclaimed", counter: 10 },
      after: { state: "unlocked", counter: 0 },
    });
    expect(await ann.find(cid)).toMatchObject({ type: "unlocked", user_challenge_current_score: 0 });
    expect((await auditOf(app.appId, "ann")).map((e) => e.action)).toEqual([
      "correct-challenge",
      "correct-challenge",
      "correct-challenge",
    ]);
  });

  it("refuse a correction without a reason (400), a counter past the goal (400), both or neither field (400), a state that does not allow it (409)", async () => {
    const { app, cid } = await stuckAtNine();
    const put = (body: unknown, id = cid) => admin("PUT", `/apps/${app.appId}/users/ann/challenges/${id}`, body);
    const noReason = await put({ state: "unclaimed" });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toEqual([{ field: "reason", problem: expect.any(String) }]);
    expect((await put({ state: "unclaimed", reason: "   " })).status).toBe(400);
    expect(await put({ counter: 11, reason: "x" })).toMatchObject({
      status: 400,
      body: { message: "Invalid body: counter must be between 0 and the challenge's goal, 10" },
    });
    expect((await put({ counter: 1, state: "unclaimed", reason: "x" })).body.errors).toEqual([
      { field: "counter", problem: "give either counter or state, not both" },
    ]);
    expect((await put({ reason: "x" })).status).toBe(400);
    expect((await put({ state: "done", reason: "x" })).status).toBe(400);
    expect(await put({ state: "unclaimed", reason: "x" }, "999999")).toMatchObject({
      status: 404,
      body: { message: "Challenge 999999 not found" },
    });
    // Another player never activated it: completing it is refused, saying why.
    const refused = await admin("PUT", `/apps/${app.appId}/users/bob/challenges/${cid}`, {
      state: "unclaimed",
      reason: "x",
    });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        status: 409,
        message: `Challenge ${cid} is in state unlock; only a challenge in state in-progress can be completed`,
      },
    });
    expect(await auditOf(app.appId, "bob")).toEqual([]);
    expect(await auditOf(app.appId, "ann")).toEqual([]);
  });
});

describe("corrections of a player's battle pass", () => {
  it("unlock a pass for a player, set a level challenge's counter, complete it; refuse what the state does not allow", async () => {
    const app = await createTestApp("Pass corrections");
    const pass = await createPass(app.appId, {
      battle_pass_name: { en: "Season" },
      start_date: "2020-01-01T00:00:00Z",
      end_date: "2099-01-01T00:00:00Z",
      is_active: true,
      is_unlocked_incrementally: true,
    });
    const level1 = await createLevel(app.appId, pass.battle_pass_id, levelOf(["kill-enemy", 5]));
    const level2 = await createLevel(app.appId, pass.battle_pass_id, levelOf(["collect-item", 3]));
    await addWebhook(app.appId, "battlepass-challenge-changed");
    const first = level1.challenges[0].challenge_id;
    const second = level2.challenges[0].challenge_id;
    const base = `/apps/${app.appId}/users/cy/battle-passes/${pass.battle_pass_id}`;

    expect(await admin("PUT", `${base}/challenges/${first}`, { counter: 2, reason: "x" })).toMatchObject({
      status: 409,
      body: { message: `Battle pass ${pass.battle_pass_id} is not unlocked by this player: unlock it first` },
    });
    expect(await admin("PUT", base, { state: "unlocked", reason: "bought through support" })).toMatchObject({
      status: 200,
      body: {
        before: { battle_pass_id: pass.battle_pass_id, unlocked: false },
        after: { battle_pass_id: pass.battle_pass_id, unlocked: true },
      },
    });
    expect((await admin("PUT", base, { state: "unlocked", reason: "again" })).status).toBe(409);
    expect(await admin("PUT", `${base}/challenges/${second}`, { state: "unclaimed", reason: "x" })).toMatchObject({
      status: 409,
      body: {
        message: `Challenge ${second} of level ${level2.level_id} cannot be completed: its level is not activated; only an in-progress challenge can`,
      },
    });

    const sent = webhooksSent();
    expect(
      (await admin("PUT", `${base}/challenges/${first}`, { counter: 3, reason: "lost events" })).body,
    ).toMatchObject({
      before: { challenge_id: first, state: "in-progress", counter: 0 },
      after: { challenge_id: first, state: "in-progress", counter: 3 },
    });
    expect((await admin("PUT", `${base}/challenges/${first}`, { counter: 6, reason: "x" })).status).toBe(400);
    expect(
      (await admin("PUT", `${base}/challenges/${first}`, { state: "unclaimed", reason: "bug" })).body.after,
    ).toEqual({
      battle_pass_id: pass.battle_pass_id,
      challenge_id: first,
      state: "unclaimed",
      counter: 5,
    });
    // The first change, then the completion and the next level's challenge starting (incremental pass), as events would
    // have sent.
    expect(
      sent.map((s) => [s.type, s.payload.new_battle_pass_challenge?.type ?? s.payload.new_challenge?.type]),
    ).toEqual([
      ["battlepass-challenge-changed", "in-progress"],
      ["battlepass-challenge-changed", "unclaimed"],
      ["battlepass-challenge-changed", "in-progress"],
    ]);
    expect((await auditOf(app.appId, "cy")).map((e) => e.action)).toEqual([
      "correct-battle-pass-level-challenge",
      "correct-battle-pass-level-challenge",
      "correct-battle-pass-unlock",
    ]);
  });
});

describe("a correction of a leaderboard score", () => {
  it("sets the member's score: on the board, the ranks move, audited with the reason; refused without a reason", async () => {
    const app = await createTestApp("Score corrections");
    const board = await admin("POST", `/apps/${app.appId}/leaderboards`, { name: "Kills", event_name: "kill-enemy" });
    expect(board.status).toBe(201);
    const boardId = board.body.leaderboard_id;
    await sendEvent(app.apiKey, "dee", "kill-enemy", { amount: 5 });
    await sendEvent(app.apiKey, "eve", "kill-enemy", { amount: 8 });
    const token = await app.tokenFor("dee");
    const ranking = async () => (await call("GET", `/api/v1/leaderboards/${boardId}`, { token })).body;
    await vi.waitFor(
      async () =>
        expect((await ranking()).grouped_by_users.map((m: any) => [m.member_id, m.score])).toEqual([
          ["eve", 8],
          ["dee", 5],
        ]),
      { timeout: 20_000, interval: 100 },
    );

    const path = `/apps/${app.appId}/leaderboards/${boardId}/members/user/dee`;
    expect((await admin("PUT", path, { score: 20 })).body.errors).toEqual([
      { field: "reason", problem: expect.any(String) },
    ]);
    const r = await admin("PUT", path, { score: 20, reason: "score lost in an outage" });
    expect(r).toMatchObject({
      status: 200,
      body: {
        before: { leaderboard_id: boardId, score: 5, rank: 2 },
        after: { leaderboard_id: boardId, score: 20, rank: 1 },
        reason: "score lost in an outage",
      },
    });
    expect((await ranking()).grouped_by_users.map((m: any) => [m.member_id, m.score, m.rank])).toEqual([
      ["dee", 20, 1],
      ["eve", 8, 2],
    ]);
    expect((await auditOf(app.appId, "dee"))[0]).toMatchObject({
      action: "correct-leaderboard-score",
      before: { leaderboard_id: boardId, score: 5, rank: 2 },
      after: { leaderboard_id: boardId, score: 20, rank: 1, reason: "score lost in an outage" },
    });
    expect(
      (await admin("PUT", `/apps/${app.appId}/leaderboards/999999/members/user/dee`, { score: 1, reason: "x" })).status,
    ).toBe(404);
  });
});
