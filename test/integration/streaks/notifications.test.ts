import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { userObject } from "../../../src/user/names";
import { ADMIN, call, createTestApp, sendEvent } from "../helpers";
import { connectClient, json, subscribe, topicLink } from "../realtime/support";

const watchersOf = (appId: string, userId: string) =>
  runInDurableObject(userObject(env, appId, userId), (_instance, state) =>
    state.storage.sql.exec("SELECT topic FROM rt_watchers ORDER BY topic").toArray(),
  );

describe("streaks on the player's notifications topic", () => {
  it("carries streak-extended and streak-milestone with the webhook's body; SCILL's topic carries none", async () => {
    const app = await createTestApp("Streaks over MQTT");
    const created = await call("POST", `/api/v1/admin/apps/${app.appId}/streaks`, {
      token: ADMIN,
      body: {
        key: "daily",
        name: "Daily",
        period: "daily",
        event_name: "lesson",
        time_zone: "UTC",
        milestones: [{ length: 1 }],
      },
    });
    expect(created.status).toBe(201);
    const token = await app.tokenFor("ivy");
    const notifications = await topicLink(token, "user-notifications-topic-link");
    const challenges = await topicLink(token, "user-challenges-topic-link");
    const client = await connectClient(4);
    expect(await subscribe(client, [notifications, challenges])).toEqual([1, 1]);
    await vi.waitFor(async () => expect(await watchersOf(app.appId, "ivy")).toHaveLength(2), {
      timeout: 15_000,
      interval: 50,
    });

    await sendEvent(app.apiKey, "ivy", "lesson");
    const messages = [await client.next(), await client.next()].map((p) => {
      expect(p).toMatchObject({ type: "publish", topic: notifications });
      return json((p as { payload: Uint8Array }).payload);
    });
    const streaks = await call("GET", `/api/v1/streaks/${app.appId}`, { token });
    const today = Date.parse(streaks.body.streaks[0].period_ends_at) - 86_400_000;
    const body = {
      app_id: app.appId,
      user_id: "ivy",
      streak_id: created.body.streak_id,
      key: "daily",
      length: 1,
      longest: 1,
      freezes: 0,
      period_start: new Date(today).toISOString(),
    };
    expect(messages).toEqual([
      { webhook_type: "streak-extended", ...body },
      { webhook_type: "streak-milestone", ...body },
    ]);
    await client.sync();
    expect(client.unread).toEqual([]);
    client.close();
  });
});
