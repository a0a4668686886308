import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { userObject } from "../../../src/user/names";
import { DEFAULT_RATE_LIMITS } from "../../../src/apps/settings";
import { ADMIN, call, captureSends, createTestApp } from "../helpers";
import { createCategory, createChallenge } from "../challenges/support";
import { consume } from "../events/support";
import { Outbox } from "../../../src/wiring/outbox";
import type { QueuedBackground } from "../../../src/user/messages";
import type { UserDO } from "../../../src/wiring/user-do";

let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  app = await createTestApp("Outbox");
  const category = await createCategory(app.appId);
  await createChallenge(app.appId, category.category_id, { is_auto_activated: true, challenge_goal: 100 });
  await call("POST", `/api/v1/admin/apps/${app.appId}/webhooks`, {
    token: ADMIN,
    body: { webhook_type: "challenge-changed", url: "https://game.example.com/hooks", secret_key: "test-secret-1234" },
  });
});

const kill = (userId: string, amount: number, eventId?: string) =>
  call("POST", "/api/v1/events", {
    token: app.apiKey,
    body: {
      user_id: userId,
      event_name: "kill-enemy",
      meta_data: { amount },
      ...(eventId ? { event_id: eventId } : {}),
    },
  });

const staged = (userId: string) =>
  runInDurableObject(
    userObject(env, app.appId, userId),
    (_i, state) => state.storage.sql.exec("SELECT seq FROM outbox").toArray().length,
  );

/** An app with one automatic challenge and no webhook endpoint: its players' changes reach nobody. */
async function appWithoutReceivers(name: string) {
  const quiet = await createTestApp(name);
  const category = await createCategory(quiet.appId);
  await createChallenge(quiet.appId, category.category_id, { is_auto_activated: true, challenge_goal: 100 });
  return quiet;
}

/** The outbox row that `act` stages in the user's object, as its transaction wrote it (the flush is held back). */
const stagedRowAfter = (appId: string, userId: string, act: (instance: UserDO) => Promise<unknown>) =>
  runInDurableObject(userObject(env, appId, userId), async (instance: UserDO, state) => {
    vi.spyOn(instance as unknown as { deliver(): Promise<void> }, "deliver").mockResolvedValue();
    await act(instance);
    const [row] = state.storage.sql
      .exec<{ changes: string; background: string }>("SELECT changes, background FROM outbox")
      .toArray();
    return {
      changes: JSON.parse(row.changes) as { webhookType: string }[],
      background: JSON.parse(row.background) as { kind: string }[],
    };
  });

const scoresOf = (sent: { body: string }[]) =>
  sent.map((m) => JSON.parse(m.body).new_challenge.user_challenge_current_score);

describe("the user's outbox", () => {
  it("keeps what a failed queue send could not hand on, and the alarm hands it on", async () => {
    const sendBatch = vi.spyOn(env.WEBHOOKS, "sendBatch").mockRejectedValueOnce(new Error("queue unavailable"));
    // The event is applied and its changes kept: the client is not asked to send it again.
    expect(await kill("ann", 2)).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
    sendBatch.mockRestore();
    expect(await staged("ann")).toBe(1);

    const sent = captureSends<{ body: string }>(env.WEBHOOKS);
    expect(await runDurableObjectAlarm(userObject(env, app.appId, "ann"))).toBe(true);
    // The automatic challenge started (unlock -> in-progress) and counted 2, in that order.
    expect(scoresOf(sent)).toEqual([0, 2]);
    expect(await staged("ann")).toBe(0);
  });

  it("hands on leftovers when the client retries the same event_id", async () => {
    const background = captureSends<{ kind: string }>(env.BACKGROUND);
    const sendBatch = vi.spyOn(env.WEBHOOKS, "sendBatch").mockRejectedValueOnce(new Error("queue unavailable"));
    await kill("bob", 3, "evt-1");
    sendBatch.mockRestore();
    expect(await staged("bob")).toBe(1);
    // Nothing of the row went out: changes are sent before the background messages.
    expect(background).toEqual([]);

    const webhooks = captureSends<{ body: string }>(env.WEBHOOKS);
    expect(await kill("bob", 3, "evt-1")).toMatchObject({ status: 200 });
    expect(scoresOf(webhooks)).toEqual([0, 3]);
    expect(background.map((m) => m.kind)).toEqual(["event", "usage", "holders"]);
    expect(await staged("bob")).toBe(0);
  });

  it("does not queue the webhooks twice when only the background send failed", async () => {
    const webhooks = captureSends<{ body: string }>(env.WEBHOOKS);
    const send = vi.spyOn(env.BACKGROUND, "sendBatch").mockRejectedValueOnce(new Error("queue unavailable"));
    await kill("cem", 1);
    send.mockRestore();
    expect(await staged("cem")).toBe(1);
    const background = captureSends<QueuedBackground>(env.BACKGROUND);
    await runDurableObjectAlarm(userObject(env, app.appId, "cem"));
    expect(scoresOf(webhooks)).toEqual([0, 1]);
    expect(background.map((m) => m.kind)).toEqual(["event", "usage", "holders"]);
    // The failed send may have been taken all the same: the handlers check these against what they applied.
    expect(background.every((m) => m.resent)).toBe(true);
    expect(await staged("cem")).toBe(0);
  });

  it("stages only the changes somebody receives", async () => {
    const quiet = await appWithoutReceivers("Outbox without receivers");
    const stagedRow = (appId: string, userId: string) =>
      stagedRowAfter(appId, userId, (instance) =>
        instance.applyEvent(
          {
            appId,
            userId,
            teamId: null,
            eventName: "kill-enemy",
            eventType: "single",
            sessionId: "persistent",
            metaData: { amount: 1 },
            eventId: null,
            receivedAt: Date.now(),
            credential: "api_key",
          },
          DEFAULT_RATE_LIMITS.perUserPerMinute,
        ),
      );

    // An app with a challenge-changed endpoint: the start and the count of the challenge.
    const withEndpoint = await stagedRow(app.appId, "dan");
    expect(withEndpoint.changes.map((c) => c.webhookType)).toEqual(["challenge-changed", "challenge-changed"]);
    // No endpoint and no MQTT subscriber: only the messages for analytics, leaderboards and usage.
    const withoutReceivers = await stagedRow(quiet.appId, "dan");
    expect(withoutReceivers.changes).toEqual([]);
    expect(withoutReceivers.background.map((m) => m.kind)).toEqual(["event", "usage", "holders"]);
  });

  it("stages only the changes somebody receives on a first touch too", async () => {
    const quiet = await appWithoutReceivers("First touch without receivers");
    const stagedRow = (appId: string, userId: string) =>
      stagedRowAfter(appId, userId, (instance) =>
        instance.callArea("challenges", "list", [appId, userId, Date.now(), { filter: "all" }]),
      );

    // The automatic challenge starts: its change goes to the app's endpoint.
    expect((await stagedRow(app.appId, "eve")).changes.map((c) => c.webhookType)).toEqual(["challenge-changed"]);
    const withoutReceivers = await stagedRow(quiet.appId, "eve");
    expect(withoutReceivers.changes).toEqual([]);
    expect(withoutReceivers.background.map((m) => m.kind)).toEqual(["usage", "holders"]);
  });
});

describe("messages handed on again", () => {
  let quiet: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    quiet = await appWithoutReceivers("Outbox, background only");
  });

  it("keep their ids, are marked resent, and are applied once", async () => {
    const sent = captureSends<QueuedBackground>(env.BACKGROUND);
    await call("POST", "/api/v1/events", {
      token: quiet.apiKey,
      body: { user_id: "gus", event_name: "kill-enemy", meta_data: { amount: 1 } },
    });
    const first = sent.splice(0);
    expect(first.map((m) => m.kind)).toEqual(["event", "usage", "holders"]);
    expect(first.every((m) => typeof m.outboxId === "string" && m.resent === undefined)).toBe(true);

    // The object was reset after the queue took the row and before the commit that deleted it: the next one finds it.
    await runInDurableObject(userObject(env, quiet.appId, "gus"), async (_i, state) => {
      expect(state.storage.sql.exec("SELECT seq FROM outbox").toArray()).toEqual([]);
      state.storage.sql.exec("INSERT INTO outbox (changes, background) VALUES ('[]', ?)", JSON.stringify(first));
      await new Outbox(state.storage.sql, async () => {}).flush(env);
    });
    expect(sent).toEqual(first.map((m) => ({ ...m, resent: true })));

    // Both reach the consumer, under different queue message ids: counted once.
    const usage = async () =>
      new Map(
        (
          await env.DB.prepare("SELECT metric, count FROM usage_counters WHERE app_id = ?")
            .bind(Number(quiet.appId))
            .all<{ metric: string; count: number }>()
        ).results.map((r) => [r.metric, r.count]),
      );
    await consume(first);
    const once = await usage();
    await consume(sent);
    expect(once.get("events")).toBe(1);
    expect(once.get("unlocked_challenges")).toBe(1);
    expect(await usage()).toEqual(once);
  });
});
