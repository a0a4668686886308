import { createExecutionContext, createMessageBatch, env, getQueueResult, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import worker from "../../../src/index";
import { brokerShard } from "../../../src/realtime/shards";
import type { SessionState } from "../../../src/realtime/core/session";
import type { BackgroundMessage } from "../../../src/user/messages";
import type { DeliveryMessage } from "../../../src/webhooks/messages";
import { userObject } from "../../../src/user/names";
import { userChallenges } from "../../../src/challenges/user-challenges";
import { erasureSubject } from "../../../src/apps/erasure-tombstones";
import { ADMIN, advanceClock, call, createTestApp, DAY, HOUR, iso, serviceNow } from "../helpers";
import { createCategory, createChallenge, player } from "../challenges/support";
import { createBoard } from "../leaderboards/support";
import { addWebhook, threeLevelPass } from "../battlepasses/support";
import { connectClient, subscribe, topicLink, type RawClient } from "../realtime/support";
import { stubReceiver } from "../webhooks/support";
import { archivedLinesOf, archiveObjectsHolding, completed, d1RowsHolding, erase, objectRowsHolding } from "./support";

/**
 * Erasing a player: afterwards no row of any D1 table, no row of any table of the player's object
 * and no archive object holds their id; late messages bring nothing back; the same id starts again
 * as a new player with a new token.
 */

/** An id that appears nowhere else, so that finding it anywhere is finding the player. */
const PLAYER = "erasable-player-9f2c";
const NEWCOMER = "never-seen-player-4b1d";

let app: Awaited<ReturnType<typeof createTestApp>>;
let boardId: string;
let passId: string;
let oldToken: string;
let mqtt: RawClient;
let challengeTopic: string;
let receipt: { erasure_id: string; status: string; completed_at: string };
let userRef: string;

const admin = (method: string, path: string) =>
  call(method, `/api/v1/admin/apps/${app.appId}${path}`, { token: ADMIN });
const event = (token: string, body: Record<string, unknown>) =>
  call("POST", "/api/v1/events?auth=access_token", { token, body: { event_name: "kill-enemy", ...body } });
const claimsOfPlayer = async () => {
  const prefix = `e:${app.appId}:${await erasureSubject(env, app.appId, PLAYER)}:`;
  return (await env.DB.prepare("SELECT COUNT(*) AS n FROM leaderboard_applied_events WHERE substr(dedup_key, 1, ?) = ?")
    .bind(prefix.length, prefix)
    .first<{ n: number }>())!.n;
};
const teamScore = async () =>
  (await env.DB.prepare(
    "SELECT SUM(score) AS score FROM leaderboard_scores WHERE leaderboard_id = ? AND member_type = 'team' AND member_id = 'red'",
  )
    .bind(Number(boardId))
    .first<{ score: number }>())!.score;

beforeAll(async () => {
  app = await createTestApp("Erasure");
  const category = await createCategory(app.appId);
  await createChallenge(app.appId, category.category_id, { is_auto_activated: true, challenge_goal: 100 });
  boardId = (await createBoard(app.appId, { event_name: "kill-enemy", value_field: "amount", aggregation: "sum" }))
    .leaderboard_id;
  const now = await serviceNow();
  passId = (await threeLevelPass(app.appId, { start_date: iso(now - HOUR), end_date: iso(now + 30 * DAY) })).pass
    .battle_pass_id;
  // Loopback port 9 refuses connections: deliveries stay pending, waiting for a retry.
  await addWebhook(app.appId, "challenge-changed");
  await addWebhook(app.appId, "user-erased");

  // The player plays: user info, challenges, a battle pass, events with ids and a team, an MQTT subscriber.
  oldToken = await app.tokenFor(PLAYER);
  expect(
    (
      await call("PUT", "/api/v1/user-additional-info", {
        token: oldToken,
        body: { username: "Erin", avatarImage: "erin.png" },
      })
    ).status,
  ).toBe(200);
  expect((await player(app.appId, oldToken).all()).status).toBe(200);
  expect(
    (
      await call("POST", `/v1/battle-pass/${app.appId}/unlock/${passId}`, {
        token: oldToken,
        body: { purchase_price: 0, purchase_currency: "EUR" },
      })
    ).status,
  ).toBe(200);
  challengeTopic = await topicLink(oldToken, "user-challenges-topic-link");
  mqtt = await connectClient(4);
  await subscribe(mqtt, [challengeTopic]);
  for (const [i, amount] of [3, 4].entries())
    expect((await event(oldToken, { event_id: `kill-${i}`, team_id: "red", meta_data: { amount } })).status).toBe(200);
  expect((await call("GET", `/api/v1/admin/apps/${app.appId}/users/${PLAYER}/export`, { token: ADMIN })).status).toBe(
    200,
  );

  // Everything the background does with it has happened: board entries, a pending delivery, archived lines.
  await vi.waitFor(
    async () => {
      expect(await teamScore()).toBe(7);
      const pending = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE user_id = ?")
        .bind(PLAYER)
        .first<{ n: number }>();
      expect(pending!.n).toBeGreaterThan(0);
      expect((await archivedLinesOf(app.appId)).filter((l) => l.event_name === "kill-enemy")).toHaveLength(2);
    },
    { timeout: 20_000, interval: 200 },
  );
  userRef = (await archivedLinesOf(app.appId))[0].user_ref as string;
  const held = new Set((await d1RowsHolding(PLAYER)).map((r) => r.table));
  // What the erasure must find: each of these tables names the player before it.
  expect([...held].sort()).toEqual(["audit_log", "leaderboard_scores", "players", "user_info", "webhook_deliveries"]);
  // The leaderboards' replay claims name the player by subject: the erasure deletes them too.
  expect(await claimsOfPlayer()).toBe(2);

  receipt = await erase(app.appId, PLAYER);
}, 90_000);

afterEach(() => vi.restoreAllMocks());

describe("an erased player", () => {
  it("is held by no row of D1, no row of their object and no archive object", async () => {
    expect(receipt).toMatchObject({ status: "completed", error: null, completed_at: expect.any(String) });
    expect(await d1RowsHolding(PLAYER)).toEqual([]);
    const inObject = await objectRowsHolding(app.appId, PLAYER, PLAYER);
    expect(inObject.rows).toEqual([]);
    // The object's tables were there and were emptied, not missing.
    expect(inObject.tables).toEqual(
      expect.arrayContaining([
        "ch_instances",
        "bp_unlocks",
        "processed_events",
        "recent_events",
        "outbox",
        "rt_watchers",
        "archive_identity",
      ]),
    );
    expect(await archiveObjectsHolding(PLAYER)).toEqual([]);
    expect(await claimsOfPlayer()).toBe(0);
  });

  it("leaves their archived events linked to no one: the pseudonym is gone with their object", async () => {
    expect(userRef).toMatch(/^[0-9a-f]{32}$/);
    expect((await archivedLinesOf(app.appId)).filter((l) => l.user_ref === userRef)).toHaveLength(2);
    expect(await d1RowsHolding(userRef)).toEqual([]);
    expect((await objectRowsHolding(app.appId, PLAYER, userRef)).rows).toEqual([]);
  });

  it("leaves the team's score as it was, and names the player in the audit log by subject only", async () => {
    expect(await teamScore()).toBe(7);
    const entries = (await admin("GET", "/audit-log?resource=player")).body.items;
    expect(entries.map((e: any) => [e.action, e.resource_id])).toEqual([
      ["erase", expect.stringMatching(/^erased:[0-9a-f]{64}$/)],
      ["export", entries[0].resource_id],
    ]);
  });

  it("is announced to the app's user-erased endpoints by erasure id, never by user id", async () => {
    let payload: any;
    await vi.waitFor(
      async () => {
        const row = await env.DB.prepare(
          "SELECT payload, user_id FROM webhook_deliveries WHERE app_id = ? AND webhook_type = 'user-erased'",
        )
          .bind(Number(app.appId))
          .first<{ payload: string; user_id: string | null }>();
        expect(row).not.toBeNull();
        expect(row!.user_id).toBeNull();
        payload = JSON.parse(row!.payload);
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(payload).toEqual({
      webhook_type: "user-erased",
      app_id: app.appId,
      erasure_id: receipt.erasure_id,
      requested_at: expect.any(String),
      completed_at: receipt.completed_at,
    });
  });

  it("ends every MQTT subscription of their topics, and refuses their old tokens", async () => {
    const topics = await runInDurableObject(brokerShard(env, 0), (_instance, state) =>
      state.getWebSockets().flatMap((ws) => (ws.deserializeAttachment() as SessionState).subs.map((s) => s.topic)),
    );
    expect(topics).not.toContain(challengeTopic);
    mqtt.close();
    const refused = {
      status: 401,
      body: { status: 401, message: "Access token was issued before this player's data was erased; mint a new one" },
    };
    expect(await call("GET", "/api/v1/auth/check", { token: oldToken })).toMatchObject(refused);
    expect(await player(app.appId, oldToken).all()).toMatchObject(refused);
    expect(
      await call("PUT", "/api/v1/user-additional-info", { token: oldToken, body: { username: "Erin again" } }),
    ).toMatchObject(refused);
    expect(await event(oldToken, { meta_data: { amount: 1 } })).toMatchObject(refused);
  });

  it("gets nothing back from an event queued before the erasure and applied after it", async () => {
    const before = Date.parse(receipt.completed_at) - 1;
    const late: BackgroundMessage & { kind: "event" } = {
      kind: "event",
      event: {
        appId: app.appId,
        userId: PLAYER,
        teamId: "red",
        eventName: "kill-enemy",
        eventType: "single",
        sessionId: "persistent",
        metaData: { amount: 5 },
        eventId: "late-1",
        receivedAt: before,
        credential: "api_key",
      },
      userRef,
    };
    const batch = createMessageBatch<BackgroundMessage>("gamification-background", [
      { id: "late-message-1", timestamp: new Date(), attempts: 1, body: late },
    ]);
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).retryMessages).toEqual([]);
    // The event happened before the erasure: the team keeps its part, the erased player gets nothing.
    expect(await teamScore()).toBe(12);
    // The same event reaching the player's object late: dropped, nothing stored.
    expect(await userObject(env, app.appId, PLAYER).applyEvent(late.event, 1000)).toEqual({ duplicate: false });
    expect(await d1RowsHolding(PLAYER)).toEqual([]);
    expect((await objectRowsHolding(app.appId, PLAYER, PLAYER)).rows).toEqual([]);
    expect(await userChallenges(env, app.appId, PLAYER).state()).toEqual([]);
  });

  it("has a pending webhook delivery cancelled: not sent, not logged", async () => {
    const calls = stubReceiver(() => new Response("ok"));
    const endpoint = (await admin("GET", "/webhooks?pageSize=10")).body.items.find(
      (w: any) => w.webhook_type === "challenge-changed",
    );
    const message: DeliveryMessage = {
      messageId: "msg_cancelled_after_erasure",
      appId: app.appId,
      webhookId: endpoint.webhook_id,
      webhookType: "challenge-changed",
      overrideUrl: null,
      body: JSON.stringify({ webhook_type: "challenge-changed", new_challenge: { user_id: PLAYER } }),
      createdAt: Date.parse(receipt.completed_at) - 1,
      userId: PLAYER,
    };
    const batch = createMessageBatch<DeliveryMessage>("gamification-webhooks", [
      { id: "w1", timestamp: new Date(), attempts: 2, body: message },
    ]);
    await worker.queue(batch, env);
    expect(await getQueueResult(batch, createExecutionContext())).toMatchObject({
      explicitAcks: ["w1"],
      retryMessages: [],
    });
    expect(calls).toEqual([]);
    expect(await d1RowsHolding(PLAYER)).toEqual([]);
  });

  it("is erased again harmlessly: a second receipt completes, and nothing is held", async () => {
    const again = await erase(app.appId, PLAYER);
    expect(again).toMatchObject({ status: "completed", error: null });
    expect(again.erasure_id).not.toBe(receipt.erasure_id);
    expect(await d1RowsHolding(PLAYER)).toEqual([]);
    const tombstones = await env.DB.prepare("SELECT COUNT(*) AS n FROM erasure_tombstones WHERE app_id = ?")
      .bind(Number(app.appId))
      .first<{ n: number }>();
    expect(tombstones!.n).toBe(1);
  });

  it("starts fresh under the same id with a new token, answered as any new player", async () => {
    // A new token is good from the second after the erasure: the service clock moves on by one.
    await advanceClock(1);
    const [again, newcomer] = [await app.tokenFor(PLAYER), await app.tokenFor(NEWCOMER)];
    const challenges = async (token: string) =>
      (await player(app.appId, token).all()).body.flatMap((c: any) =>
        c.challenges.map((ch: any) => [ch.challenge_id, ch.type, ch.user_challenge_current_score]),
      );
    expect(await challenges(again)).toEqual(await challenges(newcomer));
    const info = (token: string) => call("GET", "/api/v1/user-additional-info", { token });
    expect((await info(again)).body).toEqual((await info(newcomer)).body);
    const passes = async (token: string) =>
      (await call("GET", `/api/v1/battle-passes/${app.appId}/unlocked`, { token })).body;
    expect(await passes(again)).toEqual([]);
    expect(await passes(newcomer)).toEqual([]);
    const members = async (token: string, id: string) =>
      (await call("GET", `/api/v1/leaderboards-members/user/${id}`, { token })).body.map((m: any) => ({
        ...m,
        member: { ...m.member, member_id: "?" },
      }));
    expect(await members(again, PLAYER)).toEqual(await members(newcomer, NEWCOMER));
    // And plays: the event counts from zero.
    expect((await event(again, { meta_data: { amount: 2 } })).status).toBe(200);
    expect((await player(app.appId, again).all()).body[0].challenges[0].user_challenge_current_score).toBe(2);
    // The archive names them anew: their lines from before stay linked to nobody.
    await vi.waitFor(
      async () => {
        const refs = (await archivedLinesOf(app.appId))
          .filter((l) => l.event_name === "kill-enemy" && l.user_ref !== userRef)
          .map((l) => l.user_ref);
        expect(refs).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
      },
      { timeout: 20_000, interval: 200 },
    );
  });
});

describe("erasure with the app's API key", () => {
  it("answers a receipt, which the key can read until completed; another app's key gets a 404", async () => {
    const started = await call("DELETE", `/api/v1/erase-user/${app.appId}/keyed-player`, { token: app.apiKey });
    expect(started).toMatchObject({
      status: 202,
      body: {
        erasure_id: expect.stringMatching(/^\d{15}$/),
        app_id: app.appId,
        status: "pending",
        started_at: null,
        completed_at: null,
        error: null,
      },
    });
    await vi.waitFor(
      async () =>
        expect(
          (await call("GET", `/api/v1/erasures/${app.appId}/${started.body.erasure_id}`, { token: app.apiKey })).body
            .status,
        ).toBe("completed"),
      { timeout: 20_000, interval: 200 },
    );
    const other = await createTestApp("Other");
    expect(
      (await call("GET", `/api/v1/erasures/${app.appId}/${started.body.erasure_id}`, { token: other.apiKey })).status,
    ).toBe(404);
    expect(
      (await call("GET", `/api/v1/erasures/${other.appId}/${started.body.erasure_id}`, { token: other.apiKey })).status,
    ).toBe(404);
    expect((await call("DELETE", `/api/v1/erase-user/${app.appId}/someone`, { token: other.apiKey })).status).toBe(404);
    const entry = (await admin("GET", "/audit-log?resource=player&actor=api-key")).body.items[0];
    expect(entry).toMatchObject({
      action: "erase",
      actor: { kind: "api-key", id: app.keyId, name: null },
      origin: { channel: "api" },
    });
    await completed(app.appId, started.body.erasure_id);
  });
});

describe("erasure of a banned player", () => {
  it("ends the ban and the scores boards held back, and the same id can play again", async () => {
    const fair = await createTestApp("Erasure fair play");
    const CHEATER = "banned-erasable-7c1e";
    await createBoard(fair.appId, {
      event_name: "cheat-score",
      value_field: "amount",
      aggregation: "sum",
      max_value: 1,
    });
    const token = await fair.tokenFor(CHEATER);
    const cheat = (t: string) =>
      call("POST", "/api/v1/events?auth=access_token", {
        token: t,
        body: { event_name: "cheat-score", session_id: "s", meta_data: { amount: 99 } },
      });
    expect((await cheat(token)).status).toBe(200);
    await vi.waitFor(
      async () => expect((await d1RowsHolding(CHEATER)).map((r) => r.table)).toContain("leaderboard_flags"),
      { timeout: 20_000, interval: 200 },
    );
    const banned = await call("POST", `/api/v1/admin/apps/${fair.appId}/users/${CHEATER}/ban`, {
      token: ADMIN,
      body: { reason: "cheating" },
    });
    expect(banned.status).toBe(200);
    expect((await cheat(token)).status).toBe(403);
    expect(new Set((await d1RowsHolding(CHEATER)).map((r) => r.table))).toEqual(
      new Set(["audit_log", "leaderboard_flags", "player_bans", "players"]),
    );

    expect(await erase(fair.appId, CHEATER)).toMatchObject({ status: "completed", error: null });
    expect(await d1RowsHolding(CHEATER)).toEqual([]);
    // No ban survives to refuse the new player: a new token plays (its event is held for review again, as any player's
    // would be).
    await advanceClock(1);
    expect((await cheat(await fair.tokenFor(CHEATER))).status).toBe(200);
  });
});

describe("erasure in the audit log", () => {
  it("renames the player in the fields that name them, and leaves other values equal to their id alone", async () => {
    const other = await createTestApp("Erasure audit");
    // A short numeric id, as many games use: the ban's reason happens to be the same text.
    const banned = await call("POST", `/api/v1/admin/apps/${other.appId}/users/7/ban`, {
      token: ADMIN,
      body: { reason: "7" },
    });
    expect(banned.status).toBe(200);
    expect(await erase(other.appId, "7")).toMatchObject({ status: "completed" });
    const log = await call("GET", `/api/v1/admin/apps/${other.appId}/audit-log?resource=player&action=ban`, {
      token: ADMIN,
    });
    const ban = log.body.items.find((e: any) => e.action === "ban");
    expect(ban.resource_id).toMatch(/^erased:[0-9a-f]{64}$/);
    expect(ban.after).toMatchObject({ user_id: ban.resource_id, reason: "7", app_id: other.appId });
  });
});
