import { env, runInDurableObject, SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Change } from "../../../src/changes/types";
import { MqttBroker } from "../../../src/realtime/broker-do";
import { encodePacket } from "../../../src/realtime/mqtt/encode";
import type { Packet } from "../../../src/realtime/mqtt/packets";
import { publishChanges, topicBatches } from "../../../src/realtime/publish";
import { brokerShard } from "../../../src/realtime/shards";
import { topicName } from "../../../src/realtime/topics";
import { ADMIN, call, createTestApp } from "../helpers";
import { connectClient, json, openClient, subscribe, topicLink, upgrade, type RawClient } from "./support";

const challengeChange = (appId: string, userId: string, score: number, challengeId = "11"): Change => ({
  appId,
  webhookType: "challenge-changed",
  topic: { kind: "user-challenges", appId, userId },
  userId,
  payload: {
    webhook_type: "challenge-changed",
    category_position: 0,
    user_token: "token",
    old_challenge: { challenge_id: challengeId, type: "in-progress", user_challenge_current_score: score - 1 },
    new_challenge: { challenge_id: challengeId, type: "in-progress", user_challenge_current_score: score },
  },
});

const created = async (path: string, body: unknown, id: string): Promise<string> => {
  const r = await call("POST", `/api/v1/admin${path}`, { token: ADMIN, body });
  expect(r.status).toBe(201);
  return r.body[id];
};
/** Topic links answer only ids of the caller's app: these make them. */
const newBoard = (appId: string) =>
  created(`/apps/${appId}/leaderboards`, { name: "Board", event_name: "achieve-score" }, "leaderboard_id");
const newPass = (appId: string) =>
  created(
    `/apps/${appId}/battle-passes`,
    { battle_pass_name: "Pass", start_date: "2026-01-01T00:00:00Z", end_date: "2027-01-01T00:00:00Z" },
    "battle_pass_id",
  );
async function newChallenge(appId: string) {
  const category = await created(
    `/apps/${appId}/challenge-categories`,
    { category_slug: `c${crypto.randomUUID().slice(0, 8)}`, category_name: "C" },
    "category_id",
  );
  return created(
    `/apps/${appId}/challenges`,
    { category_id: category, challenge_name: "Kill", challenge_goal: 3, event_name: "kill-enemy" },
    "challenge_id",
  );
}

const leaderboardChange = (appId: string, leaderboardId: string, n: number): Change => ({
  appId,
  webhookType: "leaderoard-updated",
  topic: { kind: "leaderboard", appId, leaderboardId },
  userId: null,
  payload: { webhook_type: "leaderoard-updated", leaderboard_data: { leaderboard_id: leaderboardId, n } },
});

async function expectPublish(
  client: RawClient,
  topic: string,
  payload: unknown,
  qos: 0 | 1 = 1,
): Promise<Extract<Packet, { type: "publish" }>> {
  const packet = (await client.next()) as Extract<Packet, { type: "publish" }>;
  expect(packet).toMatchObject({ type: "publish", topic, qos, retain: false, dup: false });
  expect(json(packet.payload)).toEqual(payload);
  if (qos === 1) client.send({ type: "puback", packetId: packet.packetId! });
  return packet;
}

describe("the /mqtt endpoint", () => {
  it("upgrades with subprotocol mqtt and refuses anything else", async () => {
    const ok = await upgrade();
    expect(ok.status).toBe(101);
    expect(ok.headers.get("Sec-WebSocket-Protocol")).toBe("mqtt");
    ok.webSocket!.accept();
    ok.webSocket!.close(1000);

    const plain = await upgrade("", null);
    expect(plain.status).toBe(101);
    expect(plain.headers.get("Sec-WebSocket-Protocol")).toBeNull();
    plain.webSocket!.accept();
    plain.webSocket!.close(1000);

    const wrong = await upgrade("", "chat, superchat");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({
      status: 400,
      message: "Unsupported WebSocket subprotocol chat, superchat: use mqtt",
    });

    const http = await SELF.fetch("https://gamification.test/mqtt");
    expect(http.status).toBe(426);
    expect(await http.json()).toEqual({
      status: 426,
      message: "MQTT is served over WebSocket here: connect with subprotocol mqtt",
    });
  });

  it("accepts a valid access token in the URL and refuses an invalid one", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("u1");
    const ok = await upgrade(`?token=${token}`);
    expect(ok.status).toBe(101);
    ok.webSocket!.accept();
    ok.webSocket!.close(1000);
    const bad = await upgrade(`?token=${token.slice(0, -2)}xx`);
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ status: 401, message: "Access token is invalid" });
  });
});

describe("MQTT 3.1.1", () => {
  it("delivers a user's changes on the handed-out topic, in order, at the granted QoS", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("alice");
    const topic = await topicLink(token, "user-challenges-topic-link");
    const client = await connectClient(4);
    expect(await subscribe(client, [topic, "gamification/challenges/not-issued", "#"], 1)).toEqual([1, 0x80, 0x80]);

    const changes = [1, 2, 3].map((score) => challengeChange(app.appId, "alice", score));
    await publishChanges(env, changes);
    for (const change of changes) await expectPublish(client, topic, change.payload);
    await client.sync();

    client.send({ type: "unsubscribe", packetId: 2, topicFilters: [topic] });
    expect(await client.next()).toEqual({ type: "unsuback", packetId: 2 });
    expect(await brokerShard(env, 0).publish(await topicBatches(env, changes))).toMatchObject({
      delivered: 0,
      unheard: expect.arrayContaining([topic]),
    });
    client.send({ type: "disconnect" });
    expect(await client.closed).toMatchObject({ code: 1000 });
  });

  it("grants QoS 0 when asked and sends QoS 0 messages", async () => {
    const app = await createTestApp();
    const topic = await topicLink(await app.tokenFor("bob"), "user-challenges-topic-link");
    const client = await connectClient(4);
    expect(await subscribe(client, [topic], 0)).toEqual([0]);
    const change = challengeChange(app.appId, "bob", 1);
    await publishChanges(env, [change]);
    const packet = await expectPublish(client, topic, change.payload, 0);
    expect(packet).not.toHaveProperty("packetId");
    client.close();
  });

  it("answers PINGREQ", async () => {
    const client = await connectClient(4);
    client.send({ type: "pingreq" });
    expect(await client.next()).toEqual({ type: "pingresp" });
    client.close();
  });

  it("accepts an access token as password and refuses a bad one with return code 4", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("carol");
    const good = await connectClient(4, { username: "carol", password: new TextEncoder().encode(token) });
    good.close();
    const bad = await openClient(4);
    bad.send({
      type: "connect",
      protocolVersion: 4,
      clean: true,
      keepAlive: 60,
      clientId: "x",
      username: "carol",
      password: new TextEncoder().encode("nope"),
    });
    expect(await bad.next()).toEqual({ type: "connack", sessionPresent: false, reasonCode: 4 });
    expect(await bad.closed).toMatchObject({ code: 1008 });
  });

  it("answers MQTT 3.1 with return code 1 and closes", async () => {
    const client = await openClient(4);
    client.sendBytes(
      Uint8Array.of(
        0x10,
        0x0f,
        0x00,
        0x06,
        0x4d,
        0x51,
        0x49,
        0x73,
        0x64,
        0x70,
        0x03,
        0x02,
        0x00,
        0x3c,
        0x00,
        0x01,
        0x61,
      ),
    );
    expect(await client.next()).toEqual({ type: "connack", sessionPresent: false, reasonCode: 1 });
    expect((await client.closed).code).toBe(1002);
  });
});

describe("MQTT 5", () => {
  it("delivers with properties, refuses foreign topics with 0x87, and echoes subscription identifiers", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("dave");
    const topic = await topicLink(token, "user-challenges-topic-link");
    const other = await topicLink(await app.tokenFor("erin"), "user-challenges-topic-link");
    const client = await openClient(5);
    client.send({
      type: "connect",
      protocolVersion: 5,
      clean: true,
      keepAlive: 60,
      clientId: "",
      properties: { sessionExpiryInterval: 300 },
    });
    const connack = await client.next();
    expect(connack).toMatchObject({
      type: "connack",
      sessionPresent: false,
      reasonCode: 0,
      properties: { maximumQoS: 1, retainAvailable: 0, maximumPacketSize: 65536, sessionExpiryInterval: 0 },
    });
    expect((connack as any).properties.assignedClientIdentifier).toMatch(/^auto-/);

    client.send({
      type: "subscribe",
      packetId: 5,
      properties: { subscriptionIdentifiers: [77] },
      subscriptions: [
        { topicFilter: topic, qos: 1 },
        { topicFilter: "gamification/+/x", qos: 0 },
      ],
    });
    expect(await client.next()).toEqual({ type: "suback", packetId: 5, reasonCodes: [1, 0x87] });

    const change = challengeChange(app.appId, "dave", 4);
    await publishChanges(env, [challengeChange(app.appId, "erin", 9), change]);
    const packet = await expectPublish(client, topic, change.payload);
    expect(packet.properties).toEqual({
      payloadFormatIndicator: 1,
      contentType: "application/json",
      subscriptionIdentifiers: [77],
    });
    await client.sync();
    expect(client.unread).toEqual([]);
    expect(other).not.toBe(topic);

    client.send({ type: "unsubscribe", packetId: 6, topicFilters: [topic, other] });
    expect(await client.next()).toEqual({ type: "unsuback", packetId: 6, reasonCodes: [0, 0x11] });
    client.send({ type: "disconnect", reasonCode: 0 });
    expect((await client.closed).code).toBe(1000);
  });

  it("keeps at most Receive Maximum messages in flight and sends the rest as PUBACKs arrive", async () => {
    const app = await createTestApp();
    const topic = await topicLink(await app.tokenFor("frank"), "user-challenges-topic-link");
    const client = await connectClient(5, { properties: { receiveMaximum: 1 } });
    await subscribe(client, [topic]);
    const changes = [1, 2, 3].map((score) => challengeChange(app.appId, "frank", score));
    await publishChanges(env, changes);
    const first = (await client.next()) as Extract<Packet, { type: "publish" }>;
    expect(json(first.payload)).toEqual(changes[0].payload);
    await client.sync();
    expect(client.unread).toEqual([]);
    for (const change of changes.slice(1)) {
      client.send({ type: "puback", packetId: first.packetId! });
      const next = (await client.next()) as Extract<Packet, { type: "publish" }>;
      expect(json(next.payload)).toEqual(change.payload);
      first.packetId = next.packetId;
    }
    client.close();
  });

  it("does not send a message larger than the client's Maximum Packet Size", async () => {
    const app = await createTestApp();
    const topic = await topicLink(await app.tokenFor("gina"), "user-challenges-topic-link");
    const client = await connectClient(5, { properties: { maximumPacketSize: 200 } });
    await subscribe(client, [topic]);
    const big = challengeChange(app.appId, "gina", 1);
    big.payload.padding = "x".repeat(300);
    const small = challengeChange(app.appId, "gina", 2);
    small.payload = { n: 2 };
    await publishChanges(env, [big, small]);
    await expectPublish(client, topic, { n: 2 });
    client.close();
  });
});

describe("framing", () => {
  it("reads packets split across frames, byte by byte", async () => {
    const app = await createTestApp();
    const topic = await topicLink(await app.tokenFor("hank"), "user-challenges-topic-link");
    const client = await openClient(4);
    const bytes = [
      ...encodePacket({ type: "connect", protocolVersion: 4, clean: true, keepAlive: 60, clientId: "split" }, 4),
      ...encodePacket({ type: "subscribe", packetId: 9, subscriptions: [{ topicFilter: topic, qos: 1 }] }, 4),
    ];
    for (const byte of bytes) client.sendBytes(Uint8Array.of(byte));
    expect(await client.next()).toEqual({ type: "connack", sessionPresent: false, reasonCode: 0 });
    expect(await client.next()).toEqual({ type: "suback", packetId: 9, reasonCodes: [1] });
    client.close();
  });

  it("reads several packets from one frame", async () => {
    const app = await createTestApp();
    const topic = await topicLink(await app.tokenFor("ivy"), "user-challenges-topic-link");
    const client = await openClient(5);
    client.sendBytes(
      Uint8Array.from([
        ...encodePacket({ type: "connect", protocolVersion: 5, clean: true, keepAlive: 60, clientId: "multi" }, 5),
        ...encodePacket({ type: "subscribe", packetId: 1, subscriptions: [{ topicFilter: topic, qos: 0 }] }, 5),
        ...encodePacket({ type: "pingreq" }, 5),
      ]),
    );
    expect(await client.next()).toMatchObject({ type: "connack", reasonCode: 0 });
    expect(await client.next()).toEqual({ type: "suback", packetId: 1, reasonCodes: [0] });
    expect(await client.next()).toEqual({ type: "pingresp" });
    client.close();
  });
});

describe("closing only the offending connection", () => {
  async function listener(token: string) {
    const topic = await topicLink(token, "user-challenges-topic-link");
    const client = await connectClient(4);
    await subscribe(client, [topic]);
    return { client, topic };
  }

  it("closes on a malformed packet and keeps serving others", async () => {
    const app = await createTestApp();
    const { client: bystander, topic } = await listener(await app.tokenFor("jack"));
    const v4 = await connectClient(4);
    v4.sendBytes(Uint8Array.of(0x82, 0x08, 0x00, 0x01, 0x00, 0x0a, 0x61, 0x2f, 0x62, 0x00));
    expect(await v4.closed).toEqual({ code: 1002, reason: "Truncated topic filter" });

    const v5 = await connectClient(5);
    v5.sendBytes(Uint8Array.of(0xc0, 0x01, 0x00));
    expect(await v5.next()).toEqual({
      type: "disconnect",
      reasonCode: 0x81,
      properties: { reasonString: "1 unexpected bytes at the end of pingreq" },
    });
    expect((await v5.closed).code).toBe(1002);

    const text = await connectClient(4);
    text.ws.send("hello");
    expect((await text.closed).code).toBe(1002);

    const early = await openClient(4);
    early.send({ type: "pingreq" });
    expect(await early.closed).toEqual({ code: 1002, reason: "The first packet must be CONNECT" });

    const huge = await connectClient(5);
    huge.sendBytes(Uint8Array.of(0x82, 0xff, 0xff, 0x04));
    expect(await huge.next()).toMatchObject({ type: "disconnect", reasonCode: 0x95 });
    expect((await huge.closed).code).toBe(1009);

    const change = challengeChange(app.appId, "jack", 1);
    await publishChanges(env, [change]);
    await expectPublish(bystander, topic, change.payload);
    bystander.close();
  });

  it("closes a client that publishes, telling an MQTT 5 client why", async () => {
    const app = await createTestApp();
    const { client: bystander, topic } = await listener(await app.tokenFor("kate"));
    const publish: Packet = {
      type: "publish",
      topic,
      payload: new TextEncoder().encode('{"forged":true}'),
      qos: 0,
      retain: false,
      dup: false,
    };
    const v4 = await connectClient(4);
    v4.send(publish);
    expect(await v4.closed).toEqual({ code: 1008, reason: "clients may not publish" });
    const v5 = await connectClient(5);
    v5.send(publish);
    expect(await v5.next()).toEqual({
      type: "disconnect",
      reasonCode: 0x87,
      properties: { reasonString: "clients may not publish" },
    });
    expect((await v5.closed).code).toBe(1008);
    await bystander.sync();
    expect(bystander.unread).toEqual([]);
    bystander.close();
  });

  it("takes a client id over from an older connection", async () => {
    const old = await connectClient(5, { clientId: "same-id" });
    const fresh = await connectClient(5, { clientId: "same-id" });
    expect(await old.next()).toMatchObject({ type: "disconnect", reasonCode: 0x8e });
    expect((await old.closed).code).toBe(1000);
    await fresh.sync();
    fresh.close();
  });
});

describe("fan-out and hibernation", () => {
  it("fans a leaderboard change out to every subscriber of both versions", async () => {
    const app = await createTestApp();
    const key = app.apiKey;
    const boardId = await newBoard(app.appId);
    const topic = await topicLink(key, `leaderboard-topic-link?leaderboard_id=${boardId}`);
    expect(await topicLink(await app.tokenFor("x"), `leaderboard-topic-link?leaderboard_id=${boardId}`)).toBe(topic);
    const clients = await Promise.all(Array.from({ length: 40 }, (_, i) => connectClient(i % 2 === 0 ? 4 : 5)));
    await Promise.all(clients.map((c, i) => subscribe(c, [topic], (i % 3 === 0 ? 0 : 1) as 0 | 1)));
    const changes = [1, 2].map((n) => leaderboardChange(app.appId, boardId, n));
    expect((await brokerShard(env, 0).publish(await topicBatches(env, changes))).delivered).toBe(80);
    // The topic carries SCILL's name for a ranking change; the webhook keeps the spec's.
    const messages = changes.map((change) => ({ ...change.payload, webhook_type: "leaderboard-ranking-changed" }));
    for (const [i, client] of clients.entries()) {
      for (const message of messages) await expectPublish(client, topic, message, (i % 3 === 0 ? 0 : 1) as 0 | 1);
      client.close();
    }
  });

  it("keeps sessions, subscriptions and half-received packets across a wake from hibernation", async () => {
    const app = await createTestApp();
    const topic = await topicLink(await app.tokenFor("lena"), "user-challenges-topic-link");
    const client = await connectClient(5);
    await subscribe(client, [topic]);
    const unsubscribe = encodePacket({ type: "unsubscribe", packetId: 3, topicFilters: [topic] }, 5);
    // A PINGREQ and the start of an UNSUBSCRIBE in one frame: the PINGRESP tells the frame was read.
    client.sendBytes(Uint8Array.from([...encodePacket({ type: "pingreq" }, 5), ...unsubscribe.subarray(0, 4)]));
    expect(await client.next()).toEqual({ type: "pingresp" });
    const change = challengeChange(app.appId, "lena", 1);

    // A new instance over the same storage and sockets is what waking from hibernation gives.
    await runInDurableObject(brokerShard(env, 0), async (_instance: MqttBroker, state) => {
      const woken = new MqttBroker(state, env);
      expect(await woken.publish(await topicBatches(env, [change]))).toMatchObject({ delivered: 1 });
      const ws = state
        .getWebSockets()
        .find((s) =>
          (s.deserializeAttachment() as { subs: { topic: string }[] }).subs.some((sub) => sub.topic === topic),
        )!;
      await new MqttBroker(state, env).webSocketMessage(ws, unsubscribe.slice(4).buffer);
    });
    await expectPublish(client, topic, change.payload);
    expect(await client.next()).toEqual({ type: "unsuback", packetId: 3, reasonCodes: [0] });
    client.close();
  });
});

describe("keep-alive", () => {
  it("drops a client silent for one and a half keep-alives, telling an MQTT 5 client why", async () => {
    const silent = await connectClient(5, { keepAlive: 1 });
    expect(await silent.next()).toEqual({
      type: "disconnect",
      reasonCode: 0x8d,
      properties: { reasonString: "keep-alive timeout" },
    });
    expect(await silent.closed).toEqual({ code: 1000, reason: "keep-alive timeout" });
  });
});

describe("topic endpoints", () => {
  it("hand out per-user, per-challenge, per-pass and per-leaderboard topics", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("mia");
    const appId = app.appId;
    const [challengeId, battlePassId, leaderboardId] = [
      await newChallenge(appId),
      await newPass(appId),
      await newBoard(appId),
    ];
    expect(await topicLink(token, "user-challenges-topic-link")).toBe(
      await topicName(env, { kind: "user-challenges", appId, userId: "mia" }),
    );
    expect(await topicLink(token, `user-challenge-topic-link?challenge_id=${challengeId}`)).toBe(
      await topicName(env, { kind: "user-challenge", appId, userId: "mia", challengeId }),
    );
    expect(await topicLink(token, `user-battle-pass-topic-link?battle_pass_id=${battlePassId}`)).toBe(
      await topicName(env, { kind: "user-battle-pass", appId, userId: "mia", battlePassId }),
    );
    expect(await topicLink(token, `leaderboard-topic-link?leaderboard_id=${leaderboardId}`)).toBe(
      await topicName(env, { kind: "leaderboard", appId, leaderboardId }),
    );
  });

  it("answer 404 for ids that are not in the caller's app, as every other path does", async () => {
    const app = await createTestApp();
    const other = await createTestApp("Other app");
    const token = await app.tokenFor("max");
    const foreign = {
      challenge: await newChallenge(other.appId),
      pass: await newPass(other.appId),
      board: await newBoard(other.appId),
    };
    for (const [path, id, what] of [
      ["user-challenge-topic-link?challenge_id=", foreign.challenge, "Challenge"],
      ["user-challenge-topic-link?challenge_id=", "999999", "Challenge"],
      ["user-battle-pass-topic-link?battle_pass_id=", foreign.pass, "Battle pass"],
      ["user-battle-pass-topic-link?battle_pass_id=", "999999", "Battle pass"],
      ["leaderboard-topic-link?leaderboard_id=", foreign.board, "Leaderboard"],
      ["leaderboard-topic-link?leaderboard_id=", "999999", "Leaderboard"],
    ]) {
      const r = await call("GET", `/api/v1/auth/${path}${id}`, { token });
      expect({ status: r.status, body: r.body }).toEqual({
        status: 404,
        body: { status: 404, message: `${what} ${id} not found` },
      });
    }
    expect(
      (await call("GET", `/api/v1/auth/leaderboard-topic-link?leaderboard_id=${foreign.board}`, { token: app.apiKey }))
        .status,
    ).toBe(404);
  });

  it("answer SCILL's deprecated websocket token with the user's challenge topic", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("mila");
    const r = await call("GET", "/api/v1/challenges/web-socket/generate-token", { token });
    expect(r).toMatchObject({
      status: 200,
      body: { socket_token: await topicName(env, { kind: "user-challenges", appId: app.appId, userId: "mila" }) },
    });
  });

  it("delivers a challenge change on the topic of that challenge too", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("noah");
    const [first, second] = [await newChallenge(app.appId), await newChallenge(app.appId)];
    const one = await topicLink(token, `user-challenge-topic-link?challenge_id=${first}`);
    const otherChallenge = await topicLink(token, `user-challenge-topic-link?challenge_id=${second}`);
    const client = await connectClient(4);
    expect(await subscribe(client, [one, otherChallenge])).toEqual([1, 1]);
    const change = challengeChange(app.appId, "noah", 1, first);
    await publishChanges(env, [change]);
    await expectPublish(client, one, change.payload);
    await client.sync();
    expect(client.unread).toEqual([]);
    client.close();
  });

  it("require the right credential and a digit id", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("olga");
    expect(await call("GET", "/api/v1/auth/user-challenges-topic-link")).toMatchObject({ status: 401 });
    expect(await call("GET", "/api/v1/auth/user-challenges-topic-link", { token: app.apiKey })).toMatchObject({
      status: 401,
      body: { status: 401, message: "This operation requires an access token, not an API key" },
    });
    expect(await call("GET", "/api/v1/auth/user-battle-pass-topic-link", { token })).toMatchObject({
      status: 400,
      body: { errors: [{ field: "battle_pass_id" }] },
    });
    expect(await call("GET", "/api/v1/auth/user-challenge-topic-link?challenge_id=abc", { token })).toMatchObject({
      status: 400,
      body: { errors: [{ field: "challenge_id", problem: "must be a string of digits" }] },
    });
    expect(await call("GET", "/api/v1/auth/leaderboard-topic-link?leaderboard_id=", { token })).toMatchObject({
      status: 400,
    });
  });
});

describe("publishChanges", () => {
  it("never throws into the caller", async () => {
    const broken = { ...env, TOPIC_SECRET: "" } as Env;
    await expect(publishChanges(broken, [challengeChange("1", "x", 1)])).resolves.toBeUndefined();
    await expect(publishChanges(env, [])).resolves.toBeUndefined();
  });
});
