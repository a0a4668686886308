import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { userObject } from "../../../src/user/names";
import { createTestApp, sendEvent } from "../helpers";
import { connectClient, json, subscribe, topicLink } from "../realtime/support";
import { backend, createSystem, XP_LEVELS } from "./support";

const watchersOf = (appId: string, userId: string) =>
  runInDurableObject(userObject(env, appId, userId), (_instance, state) =>
    state.storage.sql.exec("SELECT topic FROM rt_watchers ORDER BY topic").toArray(),
  );

describe("the player's notifications topic", () => {
  it("carries one points-changed message per system per event or request; SCILL's topic carries none", async () => {
    const app = await createTestApp("Points over MQTT");
    await createSystem(app.appId, {
      key: "xp",
      levels: XP_LEVELS,
      triggers: [
        { event_name: "slay", points: 60 },
        { event_name: "slay", points: 50 },
      ],
    });
    await createSystem(app.appId, { key: "coins", triggers: [{ event_name: "slay", points: 1 }] });
    const token = await app.tokenFor("ann");
    const notifications = await topicLink(token, "user-notifications-topic-link");
    const challenges = await topicLink(token, "user-challenges-topic-link");
    expect(notifications).toMatch(/^gamification\/notifications\/[0-9a-f]{64}\/[0-9a-f]{48}$/);
    const client = await connectClient(4);
    expect(await subscribe(client, [notifications, challenges])).toEqual([1, 1]);
    await vi.waitFor(async () => expect(await watchersOf(app.appId, "ann")).toHaveLength(2), {
      timeout: 15_000,
      interval: 50,
    });

    await sendEvent(app.apiKey, "ann", "slay");
    const messages = [await client.next(), await client.next()].map((p) => {
      expect(p).toMatchObject({ type: "publish", topic: notifications });
      return json((p as { payload: Uint8Array }).payload);
    });
    expect(messages.sort((a, b) => a.system.localeCompare(b.system))).toEqual([
      {
        webhook_type: "points-changed",
        app_id: app.appId,
        user_id: "ann",
        system: "coins",
        amount: 1,
        balance: 1,
        earned: 1,
        level: null,
        previous_level: null,
        source: { kind: "trigger", id: "slay" },
      },
      {
        webhook_type: "points-changed",
        app_id: app.appId,
        user_id: "ann",
        system: "xp",
        amount: 110,
        balance: 110,
        earned: 110,
        level: { level: 2, name: "Apprentice", points: 100 },
        previous_level: { level: 1, name: "Rookie", points: 0 },
        source: { kind: "trigger", id: "slay" },
      },
    ]);
    await backend(app.appId, app.apiKey).grant("xp", "ann", 5, "g1");
    const granted = await client.next();
    expect(granted).toMatchObject({ type: "publish", topic: notifications });
    expect(json((granted as { payload: Uint8Array }).payload)).toMatchObject({
      system: "xp",
      amount: 5,
      balance: 115,
      source: { kind: "grant", id: "g1" },
    });
    await client.sync();
    expect(client.unread).toEqual([]);
    client.close();
  });

  it("answers 401 without an access token", async () => {
    const app = await createTestApp("Points topic credentials");
    const { call } = await import("../helpers");
    expect((await call("GET", "/api/v1/auth/user-notifications-topic-link", { token: app.apiKey })).status).toBe(401);
  });
});
