import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { runScheduled } from "../../../src/cron";
import type { BackgroundMessage } from "../../../src/user/messages";
import { ADMIN, advanceClock, call, captureSends, createTestApp, serviceNow } from "../helpers";
import { createCategory, createChallenge, player } from "../challenges/support";
import { consume } from "../events/support";
import { admin, createBoard, deliver, get, score, triples } from "./support";

const board = async (token: string, boardId: string) => (await get(token, `/api/v1/leaderboards/${boardId}`)).body;
const users = async (token: string, boardId: string) => triples((await board(token, boardId)).grouped_by_users);
const memberRow = async (token: string, boardId: string, userId: string) =>
  (await get(token, `/api/v1/leaderboards-members/user/${userId}/${boardId}`)).body.member;
const flagged = (appId: string, boardId: string, query = "") =>
  admin("GET", `/apps/${appId}/leaderboards/${boardId}/flagged${query}`);

/**
 * Sends events through the API and hands what the users' objects queued to the background consumer, as the queue would.
 */
async function sendThrough(token: string, bodies: Record<string, unknown>[]) {
  const sent = captureSends<BackgroundMessage>(env.BACKGROUND);
  for (const body of bodies) {
    const r = await call("POST", "/api/v1/events", { token, body });
    if (r.status !== 200) throw new Error(`event: ${r.status} ${JSON.stringify(r.body)}`);
  }
  await consume([...sent]);
  return sent;
}

describe("server-authoritative boards", () => {
  it("take no game client's event, which still counts for the player's challenge", async () => {
    const app = await createTestApp("Authoritative");
    const category = await createCategory(app.appId);
    const challenge = await createChallenge(app.appId, category.category_id, {
      is_auto_activated: true,
      challenge_goal: 1000,
      value_field: "score",
      event_name: "achieve-score",
    });
    const trusted = await createBoard(app.appId, { aggregation: "sum", authoritative: true });
    const open = await createBoard(app.appId, { aggregation: "sum" });
    const token = await app.tokenFor("ann");
    await player(app.appId, token).all();

    const sent = await sendThrough(token, [{ event_name: "achieve-score", meta_data: { score: 40 } }]);
    expect(sent.find((m) => m.kind === "event")).toMatchObject({
      event: { userId: "ann", credential: "access_token" },
    });
    expect(await users(app.apiKey, trusted.leaderboard_id)).toEqual([]);
    expect(await users(app.apiKey, open.leaderboard_id)).toEqual([["ann", 40, 1]]);
    expect((await player(app.appId, token).find(challenge.challenge_id)).user_challenge_current_score).toBe(40);

    await sendThrough(app.apiKey, [{ user_id: "ann", event_name: "achieve-score", meta_data: { score: 7 } }]);
    expect(await users(app.apiKey, trusted.leaderboard_id)).toEqual([["ann", 7, 1]]);
    expect(await users(app.apiKey, open.leaderboard_id)).toEqual([["ann", 47, 1]]);
    expect((await player(app.appId, token).find(challenge.challenge_id)).user_challenge_current_score).toBe(47);
  });
});

describe("plausibility and the review queue", () => {
  it("flags an event outside the bounds instead of applying it, and applies it only once accepted", async () => {
    const app = await createTestApp("Bounds");
    const b = await createBoard(app.appId, { aggregation: "max", min_value: 0, max_value: 1000 });
    const id = b.leaderboard_id;
    await deliver(app.appId, [
      score("ann", 900),
      score("bob", 9_007_199_254_740_991),
      score("cid", -5, { team: "red" }),
    ]);
    expect(await users(app.apiKey, id)).toEqual([["ann", 900, 1]]);
    expect((await board(app.apiKey, id)).grouped_by_teams).toEqual([]);

    const queue = await flagged(app.appId, id);
    expect(queue.body).toEqual({
      items: [
        {
          flag_id: expect.any(String),
          member_type: "user",
          member_id: "bob",
          value: 9_007_199_254_740_991,
          reason: "above_max_value",
          event_name: "achieve-score",
          flagged_at: expect.any(String),
        },
        {
          flag_id: expect.any(String),
          member_type: "user",
          member_id: "cid",
          value: -5,
          reason: "below_min_value",
          event_name: "achieve-score",
          flagged_at: expect.any(String),
        },
        {
          flag_id: expect.any(String),
          member_type: "team",
          member_id: "red",
          value: -5,
          reason: "below_min_value",
          event_name: "achieve-score",
          flagged_at: expect.any(String),
        },
      ],
      currentPage: 1,
      pageSize: 25,
      total: 3,
    });
    const [bob, cid, red] = queue.body.items.map((f: { flag_id: string }) => f.flag_id);
    expect((await flagged(app.appId, id, "?pageSize=1&currentPage=3")).body).toMatchObject({
      items: [{ flag_id: red }],
      total: 3,
    });

    const accepted = await admin("POST", `/apps/${app.appId}/leaderboards/${id}/flagged/${bob}/accept`);
    expect(accepted).toMatchObject({
      status: 200,
      body: {
        flag_id: bob,
        member_id: "bob",
        value: 9_007_199_254_740_991,
        member: { score: 9_007_199_254_740_991, rank: 1 },
      },
    });
    expect(await users(app.apiKey, id)).toEqual([
      ["bob", 9_007_199_254_740_991, 1],
      ["ann", 900, 2],
    ]);
    // Accepting again applies nothing twice.
    expect((await admin("POST", `/apps/${app.appId}/leaderboards/${id}/flagged/${bob}/accept`)).status).toBe(404);

    expect((await admin("POST", `/apps/${app.appId}/leaderboards/${id}/flagged/${cid}/dismiss`)).status).toBe(204);
    expect((await admin("POST", `/apps/${app.appId}/leaderboards/${id}/flagged/${cid}/dismiss`)).status).toBe(404);
    expect((await flagged(app.appId, id)).body).toMatchObject({
      items: [{ flag_id: red, member_id: "red" }],
      total: 1,
    });
    expect(await users(app.apiKey, id)).toEqual([
      ["bob", 9_007_199_254_740_991, 1],
      ["ann", 900, 2],
    ]);
  });

  it("records a replayed batch's flags once", async () => {
    const app = await createTestApp("Replayed flags");
    const b = await createBoard(app.appId, { max_value: 10 });
    const ids = await deliver(app.appId, [score("ann", 11)]);
    await deliver(app.appId, [score("ann", 11)], ids);
    expect((await flagged(app.appId, b.leaderboard_id)).body.total).toBe(1);
  });

  it("flags the events of one player past max_events_per_minute on that board, counted exactly in the player's object", async () => {
    const app = await createTestApp("Pace");
    const paced = await createBoard(app.appId, { aggregation: "sum", max_events_per_minute: 3 });
    const free = await createBoard(app.appId, { aggregation: "sum" });
    const event = (user: string) => ({ user_id: user, event_name: "achieve-score", meta_data: { score: 10 } });
    const sent = await sendThrough(app.apiKey, [
      event("ann"),
      event("ann"),
      event("bob"),
      event("ann"),
      event("ann"),
      event("ann"),
    ]);
    expect(
      sent.filter((m) => m.kind === "event").map((m) => (m as { paceExceeded?: string[] }).paceExceeded ?? null),
    ).toEqual([null, null, null, null, [paced.leaderboard_id], [paced.leaderboard_id]]);
    expect(await users(app.apiKey, paced.leaderboard_id)).toEqual([
      ["ann", 30, 1],
      ["bob", 10, 2],
    ]);
    expect(await users(app.apiKey, free.leaderboard_id)).toEqual([
      ["ann", 50, 1],
      ["bob", 10, 2],
    ]);
    const queue = (await flagged(app.appId, paced.leaderboard_id)).body;
    expect(
      queue.items.map((f: { member_id: string; reason: string; value: number }) => [f.member_id, f.reason, f.value]),
    ).toEqual([
      ["ann", "over_max_events_per_minute", 10],
      ["ann", "over_max_events_per_minute", 10],
    ]);

    // A minute after the first events the player's pace allows more.
    await advanceClock(61);
    await sendThrough(app.apiKey, [event("ann")]);
    expect(await users(app.apiKey, paced.leaderboard_id)).toEqual([
      ["ann", 40, 1],
      ["bob", 10, 2],
    ]);
  });

  it("answers 404 for a board, flag or app it does not know", async () => {
    const app = await createTestApp("Review 404");
    const b = await createBoard(app.appId, {});
    expect((await flagged(app.appId, "999999")).status).toBe(404);
    expect(
      (await admin("POST", `/apps/${app.appId}/leaderboards/${b.leaderboard_id}/flagged/999999/accept`)).status,
    ).toBe(404);
    expect((await admin("POST", `/apps/${app.appId}/leaderboards/${b.leaderboard_id}/flagged/x/dismiss`)).status).toBe(
      404,
    );
    expect((await flagged("999999", b.leaderboard_id)).status).toBe(404);
  });

  it("validates the bounds", async () => {
    const app = await createTestApp("Bounds validation");
    const r = await admin("POST", `/apps/${app.appId}/leaderboards`, {
      name: "B",
      event_name: "x",
      min_value: 10,
      max_value: 5,
      max_events_per_minute: 0,
    });
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { field: "max_events_per_minute", problem: "must be at least 1" },
      { field: "max_value", problem: "must not be below min_value" },
    ]);
  });
});

describe("moderation: removing one entry", () => {
  it("removes the member from that board only, everybody behind moves up, and the member's next event counts again", async () => {
    const app = await createTestApp("Remove entry");
    const b = await createBoard(app.appId, { aggregation: "sum" });
    const other = await createBoard(app.appId, { aggregation: "sum" });
    await deliver(app.appId, [score("ann", 30), score("bob", 20), score("cid", 20), score("dan", 10)]);
    const remove = (user: string) =>
      admin("DELETE", `/apps/${app.appId}/leaderboards/${b.leaderboard_id}/members/user/${user}`);
    expect((await remove("ann")).status).toBe(204);
    expect(await users(app.apiKey, b.leaderboard_id)).toEqual([
      ["bob", 20, 1],
      ["cid", 20, 1],
      ["dan", 10, 3],
    ]);
    expect((await board(app.apiKey, b.leaderboard_id)).num_users).toBe(3);
    expect(await users(app.apiKey, other.leaderboard_id)).toEqual([
      ["ann", 30, 1],
      ["bob", 20, 2],
      ["cid", 20, 2],
      ["dan", 10, 4],
    ]);
    expect(await remove("ann")).toMatchObject({
      status: 404,
      body: { message: `No user ann on leaderboard ${b.leaderboard_id}` },
    });

    await deliver(app.appId, [score("ann", 5)]);
    expect(await users(app.apiKey, b.leaderboard_id)).toEqual([
      ["bob", 20, 1],
      ["cid", 20, 1],
      ["dan", 10, 3],
      ["ann", 5, 4],
    ]);
  });
});

describe("a banned player on the boards", () => {
  it("vanishes from every board (ranks close up), keeps the score, events in flight included, and returns with it when the ban is lifted", async () => {
    const app = await createTestApp("Ban on boards");
    const sum = await createBoard(app.appId, { aggregation: "sum" });
    const best = await createBoard(app.appId, { aggregation: "max" });
    await deliver(app.appId, [score("ann", 100, { team: "red" }), score("bob", 90), score("cid", 80)]);
    const ban = await call("POST", `/api/v1/admin/apps/${app.appId}/users/ann/ban`, {
      token: ADMIN,
      body: { reason: "aimbot" },
    });
    expect(ban.status).toBe(200);

    for (const b of [sum, best]) {
      expect(await users(app.apiKey, b.leaderboard_id)).toEqual([
        ["bob", 90, 1],
        ["cid", 80, 2],
      ]);
      expect((await board(app.apiKey, b.leaderboard_id)).num_users).toBe(2);
      expect(await memberRow(app.apiKey, b.leaderboard_id, "ann")).toMatchObject({ score: 0, rank: -1 });
    }
    expect(triples((await board(app.apiKey, sum.leaderboard_id)).grouped_by_teams)).toEqual([["red", 100, 1]]);
    const around = await get(app.apiKey, `/api/v1/leaderboards/${sum.leaderboard_id}/around/user/cid?range=5`);
    expect(triples(around.body.members)).toEqual([
      ["bob", 90, 1],
      ["cid", 80, 2],
    ]);

    // An event accepted just before the ban, applied after it, goes to the hidden score.
    await deliver(app.appId, [score("ann", 5)]);
    expect(await users(app.apiKey, sum.leaderboard_id)).toEqual([
      ["bob", 90, 1],
      ["cid", 80, 2],
    ]);

    expect((await call("DELETE", `/api/v1/admin/apps/${app.appId}/users/ann/ban`, { token: ADMIN })).status).toBe(204);
    expect(await users(app.apiKey, sum.leaderboard_id)).toEqual([
      ["ann", 105, 1],
      ["bob", 90, 2],
      ["cid", 80, 3],
    ]);
    expect(await users(app.apiKey, best.leaderboard_id)).toEqual([
      ["ann", 100, 1],
      ["bob", 90, 2],
      ["cid", 80, 3],
    ]);
    expect((await board(app.apiKey, sum.leaderboard_id)).num_users).toBe(3);
  });

  it("returns when the ban expires: the player's own requests at once, the boards with the next cron run", async () => {
    const app = await createTestApp("Ban expiry on boards");
    const b = await createBoard(app.appId, { aggregation: "sum" });
    await deliver(app.appId, [score("ann", 10), score("bob", 5)]);
    const token = await app.tokenFor("ann");
    const until = new Date((await serviceNow()) + 60_000).toISOString();
    await call("POST", `/api/v1/admin/apps/${app.appId}/users/ann/ban`, {
      token: ADMIN,
      body: { reason: "cool-down", expires_at: until },
    });
    expect((await get(token, "/api/v1/auth/check")).status).toBe(403);

    await advanceClock(61);
    expect((await get(token, "/api/v1/auth/check")).status).toBe(200);
    expect(await users(app.apiKey, b.leaderboard_id)).toEqual([["bob", 5, 1]]);
    // Events after the expiry and before the cron count, onto the score that comes back.
    await deliver(app.appId, [score("ann", 1)]);
    await runScheduled(env, await serviceNow());
    expect(await users(app.apiKey, b.leaderboard_id)).toEqual([
      ["ann", 11, 1],
      ["bob", 5, 2],
    ]);
    expect((await admin("GET", `/apps/${app.appId}/bans`)).body.total).toBe(0);
  });

  it("keeps a banned player's accepted flag with the hidden score", async () => {
    const app = await createTestApp("Ban and review");
    const b = await createBoard(app.appId, { aggregation: "sum", max_value: 50 });
    await deliver(app.appId, [score("ann", 10), score("ann", 60)]);
    await call("POST", `/api/v1/admin/apps/${app.appId}/users/ann/ban`, { token: ADMIN, body: { reason: "review" } });
    const [flag] = (await flagged(app.appId, b.leaderboard_id)).body.items;
    const accepted = await admin(
      "POST",
      `/apps/${app.appId}/leaderboards/${b.leaderboard_id}/flagged/${flag.flag_id}/accept`,
    );
    expect(accepted.body.member).toEqual({ score: 0, rank: -1 });
    await call("DELETE", `/api/v1/admin/apps/${app.appId}/users/ann/ban`, { token: ADMIN });
    expect(await users(app.apiKey, b.leaderboard_id)).toEqual([["ann", 70, 1]]);
  });
});
