import { env } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { Change } from "../../../src/changes/types";
import { publishChanges } from "../../../src/realtime/publish";
import { ADMIN, advanceClock, call, createTestApp, serviceNow } from "../helpers";
import { connectClient, json, openClient, subscribe, topicLink, upgrade } from "./support";
import { userObject } from "../../../src/user/names";
import { runInDurableObject } from "cloudflare:test";
import { createCategory, createChallenge } from "../challenges/support";

const change = (appId: string, userId: string): Change => ({
  appId,
  userId,
  webhookType: "challenge-changed",
  topic: { kind: "user-challenges", appId, userId },
  payload: {
    webhook_type: "challenge-changed",
    new_challenge: { challenge_id: "1", user_id: userId },
    old_challenge: { challenge_id: "1" },
  },
});
const ban = (appId: string, userId: string, body: Record<string, unknown> = { reason: "spam" }) =>
  call("POST", `/api/v1/admin/apps/${appId}/users/${userId}/ban`, { token: ADMIN, body });
const lift = (appId: string, userId: string) =>
  call("DELETE", `/api/v1/admin/apps/${appId}/users/${userId}/ban`, { token: ADMIN });
const watchersOf = (appId: string, userId: string) =>
  runInDurableObject(userObject(env, appId, userId), (_instance, state) =>
    state.storage.sql.exec("SELECT topic FROM rt_watchers").toArray(),
  );

describe("a banned player's MQTT topics", () => {
  it("lose their subscribers at once, are refused to anonymous sessions, and are open again once the ban is lifted", async () => {
    const app = await createTestApp("Banned topics");
    const challenge = await createChallenge(app.appId, (await createCategory(app.appId)).category_id);
    const annToken = await app.tokenFor("ann");
    const ann = await topicLink(annToken, "user-challenges-topic-link");
    const annOne = await topicLink(annToken, `user-challenge-topic-link?challenge_id=${challenge.challenge_id}`);
    const bob = await topicLink(await app.tokenFor("bob"), "user-challenges-topic-link");
    const v4 = await connectClient(4);
    const v5 = await connectClient(5);
    expect(await subscribe(v4, [ann, annOne, bob])).toEqual([1, 1, 1]);
    expect(await subscribe(v5, [ann])).toEqual([1]);

    expect((await ban(app.appId, "ann")).status).toBe(200);
    await publishChanges(env, [change(app.appId, "ann"), change(app.appId, "bob")]);
    const packet = await v4.next();
    expect(packet).toMatchObject({ type: "publish", topic: bob });
    expect(json((packet as { payload: Uint8Array }).payload).new_challenge.user_id).toBe("bob");
    await v4.sync();
    await v5.sync();
    expect(v4.unread).toEqual([]);
    expect(v5.unread).toEqual([]);
    // The player's object hears that nobody listens any more, and stops publishing.
    await vi.waitFor(async () => expect(await watchersOf(app.appId, "ann")).toEqual([]), {
      timeout: 15_000,
      interval: 50,
    });

    // The topics a client kept are refused; links and tokens are refused too.
    expect(await subscribe(v4, [ann], 1, 2)).toEqual([0x80]);
    expect(await subscribe(v5, [annOne], 1, 3)).toEqual([0x87]);
    expect(await call("GET", "/api/v1/auth/user-challenges-topic-link", { token: annToken })).toMatchObject({
      status: 403,
    });
    expect((await upgrade(`?token=${annToken}`)).status).toBe(403);
    const withPassword = await openClient(4);
    withPassword.send({
      type: "connect",
      protocolVersion: 4,
      clean: true,
      keepAlive: 60,
      clientId: "x",
      username: "ann",
      password: new TextEncoder().encode(annToken),
    });
    expect(await withPassword.next()).toMatchObject({ type: "connack", reasonCode: 4 });

    expect((await lift(app.appId, "ann")).status).toBe(204);
    expect(await subscribe(v4, [ann], 1, 4)).toEqual([1]);
    await publishChanges(env, [change(app.appId, "ann")]);
    expect(await v4.next()).toMatchObject({ type: "publish", topic: ann });
    v4.close();
    v5.close();
  });

  it("open again by themselves when the ban expires", async () => {
    const app = await createTestApp("Expiring topic ban");
    const topic = await topicLink(await app.tokenFor("ann"), "user-challenges-topic-link");
    await ban(app.appId, "ann", {
      reason: "cool-down",
      expires_at: new Date((await serviceNow()) + 30_000).toISOString(),
    });
    const client = await connectClient(4);
    expect(await subscribe(client, [topic])).toEqual([0x80]);
    await advanceClock(31);
    expect(await subscribe(client, [topic], 1, 2)).toEqual([1]);
    client.close();
  });
});
