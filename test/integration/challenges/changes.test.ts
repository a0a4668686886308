import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { verifyAccessToken } from "../../../src/auth/access-tokens";
import type { BackgroundMessage, QueuedBackground } from "../../../src/user/messages";
import type { UserChallenges, ChallengeTouch } from "../../../src/challenges/user-challenges";
import { Staged } from "../../../src/user/area";
import type { UserEvent } from "../../../src/user/event";
import { userObject } from "../../../src/user/names";
import { ADMIN, call, capturingQueue, createTestApp, serviceNow } from "../helpers";
import { challengesOf, createCategory, createChallenge } from "./support";

/**
 * The challenge-changed notifications and usage counts. The user's object is driven directly, with
 * queues that keep what is sent to them, so each test sees exactly the payloads the webhook and
 * realtime areas receive.
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let categoryId: string;
let users = 0;

beforeAll(async () => {
  app = await createTestApp("Changes");
  categoryId = (await createCategory(app.appId, { category_position: 3 })).category_id;
  const hook = await call("POST", `/api/v1/admin/apps/${app.appId}/webhooks`, {
    token: ADMIN,
    body: {
      webhook_type: "challenge-changed",
      url: "https://game.example.com/hooks/challenges",
      secret_key: "test-secret-1234",
    },
  });
  if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`);
});

function capturing() {
  const webhooks = capturingQueue((message: { body: string }) => JSON.parse(message.body));
  // Without the id each message was staged with (the outbox's, test/integration/wiring/outbox.test.ts).
  const background = capturingQueue(({ outboxId: _id, ...message }: QueuedBackground): BackgroundMessage => message);
  return {
    webhooks: webhooks.sent,
    background: background.sent,
    env: { ...env, WEBHOOKS: webhooks.queue, BACKGROUND: background.queue } as Env,
  };
}

/** What applying one event reported. */
function applied(challenges: UserChallenges, touch: ChallengeTouch, ev: UserEvent) {
  const staged = new Staged();
  challenges.applyEvent(touch, ev, staged);
  return staged.changes;
}

/** Runs `body` against a fresh user's object, with capturing queues. */
async function withUser<T>(
  body: (challenges: UserChallenges, userId: string, cap: ReturnType<typeof capturing>, now: number) => Promise<T>,
) {
  const userId = `c${++users}`;
  const now = await serviceNow();
  const cap = capturing();
  return runInDurableObject(userObject(env, app.appId, userId), (_instance, state) =>
    body(challengesOf(state.storage, cap.env), userId, cap, now),
  );
}

const event = (userId: string, now: number, amount: number, over: Partial<UserEvent> = {}): UserEvent => ({
  appId: app.appId,
  userId,
  teamId: null,
  eventName: "kill-enemy",
  eventType: "single",
  sessionId: "persistent",
  metaData: { amount },
  eventId: null,
  receivedAt: now,
  credential: "api_key",
  ...over,
});

const types = (payloads: any[]) =>
  payloads.map((p) => [p.old_challenge.type, p.new_challenge.type, p.new_challenge.user_challenge_current_score]);

describe("challenge-changed", () => {
  it("carries webhook_type, category_position, a user token, and the challenge before and after", async () => {
    const ch = await createChallenge(app.appId, categoryId, { challenge_goal: 2 });
    await withUser(async (challenges, userId, cap, now) => {
      await challenges.act(app.appId, userId, now, "unlock", ch.challenge_id);
      expect(cap.webhooks).toHaveLength(1);
      const [payload] = cap.webhooks;
      expect(Object.keys(payload).sort()).toEqual([
        "category_position",
        "new_challenge",
        "old_challenge",
        "user_token",
        "webhook_type",
      ]);
      expect(payload).toMatchObject({
        webhook_type: "challenge-changed",
        // The index of the app's only category, whatever its stored position (3).
        category_position: 0,
        old_challenge: {
          challenge_id: ch.challenge_id,
          type: "unlock",
          user_challenge_id: "0",
          challenge_description: "Any weapon",
        },
        new_challenge: { challenge_id: ch.challenge_id, type: "unlocked", challenge_auto_activated: false },
      });
      expect(await verifyAccessToken(env, payload.user_token, now)).toEqual({
        appId: app.appId,
        userId,
        issuedAt: Math.floor(now / 1000),
      });
    });
  });

  it("reports every state and counter change: activation, each counted event, completion, claim", async () => {
    const ch = await createChallenge(app.appId, categoryId, { challenge_goal: 2 });
    await withUser(async (challenges, userId, cap, now) => {
      await challenges.act(app.appId, userId, now, "unlock", ch.challenge_id);
      await challenges.act(app.appId, userId, now, "activate", ch.challenge_id);
      const touch = await challenges.prepare(app.appId, userId, now);
      const first = applied(challenges, touch, event(userId, now, 1));
      expect(first).toHaveLength(1);
      expect(first[0]).toMatchObject({
        appId: app.appId,
        webhookType: "challenge-changed",
        topic: { kind: "user-challenges", appId: app.appId, userId },
      });
      const second = applied(challenges, await challenges.prepare(app.appId, userId, now), event(userId, now, 1));
      await challenges.act(app.appId, userId, now, "claim", ch.challenge_id);
      expect(types([...cap.webhooks.slice(0, 2), first[0].payload, second[0].payload, cap.webhooks[2]])).toEqual([
        ["unlock", "unlocked", 0],
        ["unlocked", "in-progress", 0],
        ["in-progress", "in-progress", 1],
        ["in-progress", "unclaimed", 2],
        ["unclaimed", "finished", 2],
      ]);
      expect(cap.webhooks[2].new_challenge).toMatchObject({ is_claimed: true, user_challenge_is_claimed: true });
    });
  });

  it("an event that changes nothing visible reports nothing", async () => {
    const ch = await createChallenge(app.appId, categoryId, {
      event_name: "open-door",
      filters: [{ field: "door", op: "eq", value: "red" }],
    });
    await withUser(async (challenges, userId, _cap, now) => {
      await challenges.act(app.appId, userId, now, "unlock", ch.challenge_id);
      await challenges.act(app.appId, userId, now, "activate", ch.challenge_id);
      const touch = await challenges.prepare(app.appId, userId, now);
      expect(
        applied(challenges, touch, event(userId, now, 1, { eventName: "open-door", metaData: { door: "blue" } })),
      ).toEqual([]);
      expect(applied(challenges, touch, event(userId, now, 1, { eventName: "other" }))).toEqual([]);
    });
  });

  it("cancel sends `cancelled`, a time-out sends `lost`", async () => {
    const ch = await createChallenge(app.appId, categoryId, { challenge_duration_time: 60, repeatable: true });
    await withUser(async (challenges, userId, cap, now) => {
      await challenges.act(app.appId, userId, now, "unlock", ch.challenge_id);
      await challenges.act(app.appId, userId, now, "activate", ch.challenge_id);
      await challenges.act(app.appId, userId, now, "cancel", ch.challenge_id);
      expect(types(cap.webhooks.slice(2))).toEqual([["in-progress", "cancelled", 0]]);
      expect(cap.webhooks[2].new_challenge.user_challenge_status).toBe(6);

      await challenges.act(app.appId, userId, now, "unlock", ch.challenge_id);
      await challenges.act(app.appId, userId, now, "activate", ch.challenge_id);
      cap.webhooks.length = 0;
      await call("POST", "/api/v1/admin/dev/clock/advance", { token: ADMIN, body: { advance_seconds: 61 } });
      await challenges.onAlarm();
      expect(types(cap.webhooks)).toEqual([["in-progress", "lost", 0]]);
      expect(cap.webhooks[0].new_challenge.user_challenge_status).toBe(5);
    });
  });

  it("reset reports each challenge of the user going back to unlock", async () => {
    const ch = await createChallenge(app.appId, categoryId);
    await withUser(async (challenges, userId, cap, now) => {
      await challenges.act(app.appId, userId, now, "unlock", ch.challenge_id);
      cap.webhooks.length = 0;
      await challenges.reset(app.appId, userId, now);
      expect(types(cap.webhooks)).toEqual([["unlocked", "unlock", 0]]);
    });
  });
});

describe("usage", () => {
  it("each manual unlock counts once in the app's month", async () => {
    const ch = await createChallenge(app.appId, categoryId);
    await withUser(async (challenges, userId, cap, now) => {
      await challenges.act(app.appId, userId, now, "unlock", ch.challenge_id);
      await challenges.act(app.appId, userId, now, "activate", ch.challenge_id);
      await challenges.list(app.appId, userId, now, { filter: "all" });
      const id = ch.challenge_id;
      expect(cap.background).toEqual([
        {
          kind: "usage",
          appId: app.appId,
          metric: "unlocked_challenges",
          month: new Date(now).toISOString().slice(0, 7),
          count: 1,
        },
        // Each state change also moves the app's holder counts (src/catalog/holders-repo.ts).
        { kind: "holders", appId: app.appId, deltas: [{ object: "challenge", id, state: "unlocked", delta: 1 }] },
        {
          kind: "holders",
          appId: app.appId,
          deltas: [
            { object: "challenge", id, state: "unlocked", delta: -1 },
            { object: "challenge", id, state: "in-progress", delta: 1 },
          ],
        },
      ]);
    });
  });

  it("automatic unlocks count too, once each", async () => {
    const auto = await createTestApp("Auto usage");
    const cat = await createCategory(auto.appId);
    await call("POST", `/api/v1/admin/apps/${auto.appId}/webhooks`, {
      token: ADMIN,
      body: {
        webhook_type: "challenge-changed",
        url: "https://game.example.com/hooks/auto",
        secret_key: "test-secret-1234",
      },
    });
    const first = await createChallenge(auto.appId, cat.category_id, { is_auto_activated: true });
    const second = await createChallenge(auto.appId, cat.category_id, {
      is_auto_activated: true,
      event_name: "collect-item",
    });
    const now = await serviceNow();
    const cap = capturing();
    await runInDurableObject(userObject(env, auto.appId, "a"), async (_instance, state) => {
      const challenges = challengesOf(state.storage, cap.env);
      await challenges.list(auto.appId, "a", now, { filter: "all" });
      await challenges.list(auto.appId, "a", now, { filter: "all" });
    });
    expect(cap.background).toEqual([
      {
        kind: "usage",
        appId: auto.appId,
        metric: "unlocked_challenges",
        month: new Date(now).toISOString().slice(0, 7),
        count: 2,
      },
      {
        kind: "holders",
        appId: auto.appId,
        deltas: [
          { object: "challenge", id: first.challenge_id, state: "in-progress", delta: 1 },
          { object: "challenge", id: second.challenge_id, state: "in-progress", delta: 1 },
        ],
      },
    ]);
    expect(types(cap.webhooks)).toEqual([
      ["unlock", "in-progress", 0],
      ["unlock", "in-progress", 0],
    ]);
  });

  it("reaches GET /admin/apps/{appId}/usage through the background queue", async () => {
    const metered = await createTestApp("Metered");
    const cat = await createCategory(metered.appId);
    const a = await createChallenge(metered.appId, cat.category_id);
    const b = await createChallenge(metered.appId, cat.category_id);
    const token = await metered.tokenFor("m");
    for (const cid of [a.challenge_id, b.challenge_id]) {
      expect((await call("POST", `/api/v1/challenges/personal/unlock/${metered.appId}/${cid}`, { token })).status).toBe(
        200,
      );
    }
    const month = new Date(await serviceNow()).toISOString().slice(0, 7);
    await vi.waitFor(
      async () => {
        const r = await call("GET", `/api/v1/admin/apps/${metered.appId}/usage?month=${month}`, { token: ADMIN });
        expect(r.body.items).toEqual([expect.objectContaining({ month, unlocked_challenges: 2 })]);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});
