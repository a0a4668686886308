import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { applyLeaderboardEvents } from "../../../src/leaderboards/apply";
import { dispatchChanges } from "../../../src/fanout/dispatch";
import { leaderboardAudience } from "../../../src/fanout/audience";
import { recordWatchedTopics } from "../../../src/realtime/watched-topics";
import { topicName } from "../../../src/realtime/topics";
import type { Change } from "../../../src/changes/types";
import { call, createTestApp, capturingQueue } from "../helpers";
import { admin, createBoard, deliver, get, score, triples, userEvent } from "./support";

const users = async (token: string, boardId: string, query = "") =>
  triples((await get(token, `/api/v1/leaderboards/${boardId}${query}`)).body.grouped_by_users);
const teams = async (token: string, boardId: string) =>
  triples((await get(token, `/api/v1/leaderboards/${boardId}`)).body.grouped_by_teams);

describe("aggregation modes", () => {
  it("sum adds every event, negative amounts included", async () => {
    const app = await createTestApp("Sum");
    const board = await createBoard(app.appId, { aggregation: "sum" });
    await deliver(app.appId, [score("ann", 5), score("bob", 7), score("ann", 4)]);
    await deliver(app.appId, [score("bob", -10), score("cid", 0)]);
    expect(await users(app.apiKey, board.leaderboard_id)).toEqual([
      ["ann", 9, 1],
      ["cid", 0, 2],
      ["bob", -3, 3],
    ]);
  });

  it("max keeps the highest score, min the lowest", async () => {
    const app = await createTestApp("Max and min");
    const max = await createBoard(app.appId, { aggregation: "max" });
    const min = await createBoard(app.appId, { aggregation: "min", sort_order_ascending: true });
    await deliver(app.appId, [score("ann", 50), score("ann", 80), score("bob", 60)]);
    await deliver(app.appId, [score("ann", 70), score("bob", 40)]);
    expect(await users(app.apiKey, max.leaderboard_id)).toEqual([
      ["ann", 80, 1],
      ["bob", 60, 2],
    ]);
    expect(await users(app.apiKey, min.leaderboard_id)).toEqual([
      ["bob", 40, 1],
      ["ann", 50, 2],
    ]);
  });

  it("last keeps the newest event by receipt time, whatever order the batches arrive in", async () => {
    const app = await createTestApp("Last");
    const board = await createBoard(app.appId, { aggregation: "last" });
    const t = Date.parse(board.season_started_at) + 1000;
    await deliver(app.appId, [
      score("ann", 10, { at: t + 2 }),
      score("ann", 30, { at: t + 1 }),
      score("bob", 5, { at: t }),
    ]);
    expect(await users(app.apiKey, board.leaderboard_id)).toEqual([
      ["ann", 10, 1],
      ["bob", 5, 2],
    ]);
    // A late batch holding an older event does not overwrite the newer value.
    await deliver(app.appId, [score("ann", 99, { at: t + 1 }), score("bob", 1, { at: t + 5 })]);
    expect(await users(app.apiKey, board.leaderboard_id)).toEqual([
      ["ann", 10, 1],
      ["bob", 1, 2],
    ]);
  });

  it("counts 1 per event without value_field and amount, and amount when present", async () => {
    const app = await createTestApp("Counting");
    const matches = await createBoard(app.appId, { event_name: "match-finish", value_field: null });
    const kills = await createBoard(app.appId, { event_name: "kill-enemy", value_field: null });
    await deliver(app.appId, [
      { user: "ann", name: "match-finish" },
      { user: "ann", name: "match-finish" },
      { user: "bob", name: "match-finish" },
      { user: "bob", name: "kill-enemy", meta: { amount: 3 } },
    ]);
    expect(await users(app.apiKey, matches.leaderboard_id)).toEqual([
      ["ann", 2, 1],
      ["bob", 1, 2],
    ]);
    expect(await users(app.apiKey, kills.leaderboard_id)).toEqual([["bob", 3, 1]]);
  });

  it("applies filters with the challenges' matcher and ignores other event names", async () => {
    const app = await createTestApp("Filters");
    const board = await createBoard(app.appId, {
      event_name: "kill-enemy",
      value_field: "amount",
      filters: [
        { field: "weapon_used", op: "in", value: ["bow", "sword"] },
        { field: "amount", op: "gte", value: 2 },
      ],
    });
    await deliver(app.appId, [
      { user: "ann", name: "kill-enemy", meta: { amount: 2, weapon_used: "bow" } },
      { user: "ann", name: "kill-enemy", meta: { amount: 5, weapon_used: "axe" } },
      { user: "bob", name: "kill-enemy", meta: { amount: 1, weapon_used: "sword" } },
      { user: "bob", name: "kill-enemy", meta: { amount: 4, weapon_used: "sword" } },
      { user: "cid", name: "achieve-score", meta: { score: 100 } },
    ]);
    expect(await users(app.apiKey, board.leaderboard_id)).toEqual([
      ["bob", 4, 1],
      ["ann", 2, 2],
    ]);
  });
});

describe("order and ties", () => {
  it("equal scores share a rank and the next score skips the shared places (1, 1, 3), ties by member id", async () => {
    const app = await createTestApp("Ties");
    const desc = await createBoard(app.appId, {});
    const asc = await createBoard(app.appId, { sort_order_ascending: true });
    await deliver(app.appId, [score("dan", 10), score("ann", 20), score("cid", 20), score("bob", 5), score("eve", 10)]);
    expect(await users(app.apiKey, desc.leaderboard_id)).toEqual([
      ["ann", 20, 1],
      ["cid", 20, 1],
      ["dan", 10, 3],
      ["eve", 10, 3],
      ["bob", 5, 5],
    ]);
    expect(await users(app.apiKey, asc.leaderboard_id)).toEqual([
      ["bob", 5, 1],
      ["dan", 10, 2],
      ["eve", 10, 2],
      ["ann", 20, 4],
      ["cid", 20, 4],
    ]);
    const second = await get(app.apiKey, `/api/v1/leaderboards/${desc.leaderboard_id}?currentPage=2&pageSize=3`);
    expect(triples(second.body.grouped_by_users)).toEqual([
      ["eve", 10, 3],
      ["bob", 5, 5],
    ]);
  });
});

describe("teams", () => {
  it("an event with team_id moves the user's row and the team's row", async () => {
    const app = await createTestApp("Teams");
    const board = await createBoard(app.appId, {});
    await deliver(app.appId, [
      score("ann", 5, { team: "red" }),
      score("bob", 7, { team: "blue" }),
      score("cid", 4, { team: "red" }),
      score("dan", 1),
    ]);
    expect(await teams(app.apiKey, board.leaderboard_id)).toEqual([
      ["red", 9, 1],
      ["blue", 7, 2],
    ]);
    expect(await users(app.apiKey, board.leaderboard_id)).toEqual([
      ["bob", 7, 1],
      ["ann", 5, 2],
      ["cid", 4, 3],
      ["dan", 1, 4],
    ]);
    const red = await get(app.apiKey, `/api/v1/leaderboards-members/team/red/${board.leaderboard_id}`);
    expect(red.body.member).toEqual({
      member_id: "red",
      member_type: "team",
      score: 9,
      rank: 1,
      additional_info: { username: null, avatarImage: null },
    });
    const board1 = await get(app.apiKey, `/api/v1/leaderboards/${board.leaderboard_id}`);
    expect(board1.body).toMatchObject({ num_users: 4, num_teams: 2 });
  });
});

describe("replays", () => {
  it("a redelivered batch and a resent event_id are not counted twice", async () => {
    const app = await createTestApp("Replays");
    const board = await createBoard(app.appId, { aggregation: "sum" });
    const ids = await deliver(app.appId, [score("ann", 5, { team: "red" }), score("bob", 2)]);
    await deliver(app.appId, [score("ann", 5, { team: "red" }), score("bob", 2)], ids);
    await deliver(app.appId, [score("ann", 1, { eventId: "e-1" })]);
    await deliver(app.appId, [score("ann", 1, { eventId: "e-1" }), score("ann", 1, { eventId: "e-1" })]);
    expect(await users(app.apiKey, board.leaderboard_id)).toEqual([
      ["ann", 6, 1],
      ["bob", 2, 2],
    ]);
    expect(await teams(app.apiKey, board.leaderboard_id)).toEqual([["red", 5, 1]]);
  });

  it("ignores events received before the board's season began", async () => {
    const app = await createTestApp("Before");
    const board = await createBoard(app.appId, {});
    await deliver(app.appId, [score("ann", 5, { at: Date.parse(board.season_started_at) - 1 }), score("bob", 1)]);
    expect(await users(app.apiKey, board.leaderboard_id)).toEqual([["bob", 1, 1]]);
  });
});

describe("the change hook", () => {
  it("sends one leaderoard-updated change per member and board per batch, with old and new standing", async () => {
    const app = await createTestApp("Changes");
    const board = await createBoard(app.appId, { name: { en: "Hall", de: "Halle" } });
    const hook = await admin("POST", `/apps/${app.appId}/webhooks`, {
      webhook_type: "leaderoard-updated",
      url: "http://127.0.0.1:9/hook",
    });
    expect(hook.status).toBe(201);
    const token = await app.tokenFor("ann");
    await call("PUT", "/api/v1/user-additional-info", { token, body: { username: "Ann", avatarImage: "ann.png" } });
    const webhooks = capturingQueue();
    const capturing = { ...env, WEBHOOKS: webhooks.queue };
    const events = async (specs: Parameters<typeof userEvent>[1][]) =>
      Promise.all(
        specs.map(async (spec, i) => ({
          messageId: `change-${Math.random()}-${i}`,
          event: await userEvent(app.appId, spec),
        })),
      );

    const apply = async (specs: Parameters<typeof userEvent>[1][]) =>
      applyLeaderboardEvents(
        capturing,
        await events(specs),
        (changes) => dispatchChanges(capturing, changes),
        leaderboardAudience(capturing),
      );
    await apply([score("bob", 10)]);
    await apply([score("ann", 3), score("ann", 4), score("ann", 5), score("bob", 0)]);
    const bodies = webhooks.sent.map((m) => JSON.parse((m as { body: string }).body));
    expect(bodies).toEqual([
      expect.objectContaining({ member_data: expect.objectContaining({ member_id: "bob" }) }),
      {
        webhook_type: "leaderoard-updated",
        leaderboard_data: {
          app_id: app.appId,
          leaderboard_id: board.leaderboard_id,
          leaderboard_name: "Hall",
          name: "Hall",
          event_type: "achieve-score",
          sort_order_ascending: false,
        },
        member_data: {
          member_id: "ann",
          member_type: "user",
          score: 12,
          rank: 1,
          additional_info: { username: "Ann", avatarImage: "ann.png" },
        },
        old_leaderboard_ranking: { score: 0, rank: -1 },
        new_leaderboard_ranking: { score: 12, rank: 1 },
      },
    ]);
    // bob's score did not change (a sum of 0): no change for him in the second batch.
    expect(bodies[0]).toMatchObject({
      old_leaderboard_ranking: { score: 0, rank: -1 },
      new_leaderboard_ranking: { score: 10, rank: 1 },
    });
  });

  it("builds changes only for the boards somebody receives: a subscriber of the board's topic, or a leaderboard webhook", async () => {
    const app = await createTestApp("Audience");
    const quiet = await createBoard(app.appId, { name: "Quiet" });
    const followed = await createBoard(app.appId, { name: "Followed" });
    const topic = await topicName(env, {
      kind: "leaderboard",
      appId: app.appId,
      leaderboardId: followed.leaderboard_id,
    });
    // What the topic's hub writes when its first subscriber comes (src/realtime/topic-hub-do.ts).
    await recordWatchedTopics(env.DB, [[topic, true]]);
    let n = 0;
    const apply = async (specs: Parameters<typeof userEvent>[1][]) => {
      const delivered: Change[] = [];
      const queued = await Promise.all(
        specs.map(async (spec) => ({ messageId: `audience-${++n}`, event: await userEvent(app.appId, spec) })),
      );
      await applyLeaderboardEvents(
        env,
        queued,
        async (changes) => void delivered.push(...changes),
        leaderboardAudience(env),
      );
      return delivered.map((c) => [
        (c.payload.leaderboard_data as { leaderboard_id: string }).leaderboard_id,
        c.payload.new_leaderboard_ranking,
      ]);
    };

    expect(await apply([score("ann", 5), score("bob", 7)])).toEqual([
      [followed.leaderboard_id, { score: 5, rank: 2 }],
      [followed.leaderboard_id, { score: 7, rank: 1 }],
    ]);
    // The quiet board keeps its scores all the same.
    const token = await app.tokenFor("ann");
    expect(await users(token, quiet.leaderboard_id)).toEqual([
      ["bob", 7, 1],
      ["ann", 5, 2],
    ]);

    // Once the topic has no subscriber left, nobody receives either board's changes.
    await recordWatchedTopics(env.DB, [[topic, false]]);
    expect(await apply([score("ann", 9)])).toEqual([]);

    // An endpoint for leaderboard webhooks receives every board's.
    const hook = await admin("POST", `/apps/${app.appId}/webhooks`, {
      webhook_type: "leaderoard-updated",
      url: "http://127.0.0.1:9/hook",
    });
    expect(hook.status).toBe(201);
    expect(await apply([score("bob", 10)])).toEqual([
      [quiet.leaderboard_id, { score: 17, rank: 1 }],
      [followed.leaderboard_id, { score: 17, rank: 1 }],
    ]);
  });
});

describe("through the real queue", () => {
  it("events sent to the intake reach the board within the queue's batch timeout", async () => {
    const app = await createTestApp("Intake");
    const board = await createBoard(app.appId, {});
    const sent = await call("POST", "/api/v1/events", {
      token: app.apiKey,
      body: { user_id: "ann", team_id: "red", event_name: "achieve-score", meta_data: { score: 42 } },
    });
    expect(sent.status).toBe(200);
    await vi.waitFor(
      async () => {
        expect(await users(app.apiKey, board.leaderboard_id)).toEqual([["ann", 42, 1]]);
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(await teams(app.apiKey, board.leaderboard_id)).toEqual([["red", 42, 1]]);
  });
});
