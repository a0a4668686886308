import mqtt, { type IClientOptions, type MqttClient } from "mqtt";
import { afterEach, describe, expect, it } from "vitest";
import { startBridge } from "../../scripts/mqtt-bridge.mjs";
import { ADMIN_TOKEN, baseUrl, http, newStudioApp } from "./support";

const wsUrl = () => `${baseUrl().replace(/^http/, "ws")}/mqtt`;
const clients: MqttClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
});

/** An `mqtt` client that never reconnects, so a dropped connection stays dropped. */
async function connect(protocolVersion: 4 | 5, options: IClientOptions = {}, url = wsUrl()): Promise<MqttClient> {
  const client = await mqtt.connectAsync(url, {
    protocolVersion,
    reconnectPeriod: 0,
    connectTimeout: 10_000,
    ...options,
  });
  clients.push(client);
  return client;
}

/** Messages of a client, in arrival order, awaited one by one. */
function inbox(client: MqttClient) {
  const received: { topic: string; payload: unknown; qos: number }[] = [];
  const waiters: (() => void)[] = [];
  client.on("message", (topic, payload, packet) => {
    received.push({ topic, payload: JSON.parse(payload.toString("utf8")), qos: packet.qos });
    for (const w of waiters.splice(0)) w();
  });
  return {
    received,
    async take(count: number) {
      while (received.length < count) await new Promise<void>((r) => waiters.push(r));
      return received.splice(0, count);
    },
  };
}

async function topicOf(token: string, path = "user-challenges-topic-link"): Promise<string> {
  const r = await http("GET", `/api/v1/auth/${path}`, { token });
  expect(r.status).toBe(200);
  return r.body.topic;
}

/** A studio with one category and one manual challenge: unlock, activate, 3 kills, claim. */
async function studioWithChallenge(name: string) {
  const studio = await newStudioApp(name);
  const category = await http("POST", `/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
    token: ADMIN_TOKEN,
    body: { category_slug: "weekly", category_name: { en: "Weekly" } },
  });
  expect(category.status).toBe(201);
  const challenge = await http("POST", `/api/v1/admin/apps/${studio.appId}/challenges`, {
    token: ADMIN_TOKEN,
    body: {
      category_id: category.body.category_id,
      challenge_name: { en: "Kill 3 enemies" },
      challenge_goal: 3,
      event_name: "kill-enemy",
    },
  });
  expect(challenge.status).toBe(201);
  return { ...studio, challengeId: challenge.body.challenge_id as string };
}

function playerOf(appId: string, token: string) {
  const personal = "/api/v1/challenges/personal";
  return {
    async challenge(challengeId: string) {
      const r = await http("GET", `${personal}/all/${appId}`, { token });
      expect(r.status).toBe(200);
      for (const category of r.body) for (const c of category.challenges) if (c.challenge_id === challengeId) return c;
      throw new Error(`challenge ${challengeId} not listed`);
    },
    async act(action: "unlock" | "activate" | "claim" | "cancel", challengeId: string) {
      const r = await http(action === "cancel" ? "DELETE" : "GET", `${personal}/${action}/${appId}/${challengeId}`, {
        token,
      });
      expect(r).toMatchObject({ status: 200, body: { status: 200 } });
    },
  };
}

async function sendKills(apiKey: string, userId: string, amount: number) {
  const r = await http("POST", "/api/v1/events", {
    token: apiKey,
    body: { user_id: userId, event_name: "kill-enemy", meta_data: { amount } },
  });
  expect(r).toMatchObject({ status: 200, body: { status: 200, message: "OK" } });
}

/** The user an access token names (the payload's `user_token`), read without verifying it. */
const tokenUser = (token: string) => JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString("utf8")).sub;

describe.each([4, 5] as const)("MQTT over WebSocket with the mqtt client, protocol version %i", (version) => {
  it("pushes each change of the user's challenges, in order, with the exact payloads", async () => {
    const studio = await studioWithChallenge(`Realtime v${version}`);
    const token = await studio.tokenFor("alice");
    const topic = await topicOf(token);
    const client = await connect(version);
    const messages = inbox(client);
    expect(await client.subscribeAsync(topic, { qos: 1 })).toMatchObject([{ topic, qos: 1 }]);

    const player = playerOf(studio.appId, token);
    const cid = studio.challengeId;
    const snapshots = [await player.challenge(cid)];
    const steps = [
      () => player.act("unlock", cid),
      () => player.act("activate", cid),
      () => sendKills(studio.apiKey, "alice", 2),
      () => sendKills(studio.apiKey, "alice", 1),
      () => player.act("claim", cid),
    ];
    for (const step of steps) {
      await step();
      snapshots.push(await player.challenge(cid));
    }
    expect(snapshots.map((s) => [s.type, s.user_challenge_current_score])).toEqual([
      ["unlock", 0],
      ["unlocked", 0],
      ["in-progress", 0],
      ["in-progress", 2],
      ["unclaimed", 3],
      ["finished", 3],
    ]);

    const received = await messages.take(steps.length);
    expect(received.map((m) => [m.topic, m.qos])).toEqual(steps.map(() => [topic, 1]));
    // Payloads name the challenge's user and the session of its last counted event (none before the kills).
    const sessions = [null, null, null, "persistent", "persistent", "persistent"];
    const asSent = (i: number) => ({ ...snapshots[i], user_id: "alice", session_id: sessions[i] });
    received.forEach((message, i) => {
      const payload = message.payload as Record<string, any>;
      expect(tokenUser(payload.user_token)).toBe("alice");
      expect(payload).toEqual({
        webhook_type: "challenge-changed",
        category_position: 0,
        user_token: payload.user_token,
        old_challenge: asSent(i),
        new_challenge: asSent(i + 1),
      });
    });
  });

  it("refuses a second client every topic it was not given, and sends it nothing of another user", async () => {
    const studio = await studioWithChallenge(`Snooping v${version}`);
    const aliceToken = await studio.tokenFor("alice");
    const aliceTopic = await topicOf(aliceToken);
    const alice = await connect(version);
    await alice.subscribeAsync(aliceTopic, { qos: 1 });
    const aliceInbox = inbox(alice);

    const bobToken = await studio.tokenFor("bob");
    const bob = await connect(version, { username: "bob", password: bobToken });
    const bobInbox = inbox(bob);
    const refused = version === 5 ? 135 : 128;
    const forged = aliceTopic.slice(0, -1) + (aliceTopic.endsWith("0") ? "1" : "0");
    for (const filter of [
      forged,
      "gamification/challenges/#",
      "gamification/+/+",
      "#",
      aliceTopic.replace("/challenges/", "/leaderboard/"),
    ]) {
      await expect(bob.subscribeAsync(filter, { qos: 1 }), filter).rejects.toMatchObject({
        packet: { cmd: "suback", granted: [refused] },
      });
    }

    const player = playerOf(studio.appId, aliceToken);
    await player.act("unlock", studio.challengeId);
    const [toAlice] = await aliceInbox.take(1);
    expect(toAlice.payload).toMatchObject({ new_challenge: { challenge_id: studio.challengeId, type: "unlocked" } });

    // Bob's own topic works, and the first message he gets is his own.
    const bobTopic = await topicOf(bobToken);
    await bob.subscribeAsync(bobTopic, { qos: 0 });
    await playerOf(studio.appId, bobToken).act("unlock", studio.challengeId);
    const [toBob] = await bobInbox.take(1);
    expect(toBob).toMatchObject({ topic: bobTopic, qos: 0, payload: { new_challenge: { type: "unlocked" } } });
    expect(tokenUser((toBob.payload as any).user_token)).toBe("bob");
    expect(bobInbox.received).toEqual([]);
  });

  it("drops a client that stays silent past one and a half keep-alives", async () => {
    // A timer that never fires: the client sends no PINGREQ of its own.
    const client = await connect(version, { keepalive: 1, timerVariant: { set: () => 0, clear: () => {} } });
    const disconnect = new Promise((resolve) => client.once("disconnect", (packet) => resolve(packet.reasonCode)));
    await new Promise<void>((resolve) => client.once("close", () => resolve()));
    expect(client.connected).toBe(false);
    if (version === 5) expect(await disconnect).toBe(0x8d);
  });
});

describe("topics of one challenge", () => {
  it("carry only that challenge's changes", async () => {
    const studio = await studioWithChallenge("One challenge");
    const token = await studio.tokenFor("carol");
    const topic = await topicOf(token, `user-challenge-topic-link?challenge_id=${studio.challengeId}`);
    // Topic links answer only ids of the app: a second challenge of the same category.
    const first = await http("GET", `/api/v1/admin/apps/${studio.appId}/challenges/${studio.challengeId}`, {
      token: ADMIN_TOKEN,
    });
    const second = await http("POST", `/api/v1/admin/apps/${studio.appId}/challenges`, {
      token: ADMIN_TOKEN,
      body: {
        category_id: first.body.category_id,
        challenge_name: { en: "Kill 9 enemies" },
        challenge_goal: 9,
        event_name: "kill-enemy",
      },
    });
    expect(second.status).toBe(201);
    const other = await topicOf(token, `user-challenge-topic-link?challenge_id=${second.body.challenge_id}`);
    const client = await connect(5);
    await client.subscribeAsync([topic, other], { qos: 1 });
    const messages = inbox(client);
    const player = playerOf(studio.appId, token);
    await player.act("unlock", studio.challengeId);
    await player.act("activate", studio.challengeId);
    const received = await messages.take(2);
    expect(received.map((m) => [m.topic, (m.payload as any).new_challenge.type])).toEqual([
      [topic, "unlocked"],
      [topic, "in-progress"],
    ]);
  });
});

describe("broker shards (MQTT_BROKER_SHARDS, 32 by default)", () => {
  it("deliver a leaderboard's changes to all its subscribers, wherever their connections landed", async () => {
    const studio = await newStudioApp("Spread subscribers");
    const board = await http("POST", `/api/v1/admin/apps/${studio.appId}/leaderboards`, {
      token: ADMIN_TOKEN,
      body: { name: "Kills", event_name: "kill-enemy", value_field: "amount", aggregation: "sum" },
    });
    expect(board.status).toBe(201);
    const topic = await topicOf(studio.apiKey, `leaderboard-topic-link?leaderboard_id=${board.body.leaderboard_id}`);
    // 24 connections over 32 shards, each placed at random: several shards hold subscribers.
    const subscribers = await Promise.all(Array.from({ length: 24 }, (_, i) => connect(i % 2 === 0 ? 4 : 5)));
    const inboxes = subscribers.map(inbox);
    await Promise.all(subscribers.map((client) => client.subscribeAsync(topic, { qos: 1 })));

    await sendKills(studio.apiKey, "erin", 4);
    for (const messages of inboxes) {
      const [message] = await messages.take(1);
      expect(message).toMatchObject({
        topic,
        qos: 1,
        payload: { member_data: { member_id: "erin", score: 4 }, new_leaderboard_ranking: { score: 4, rank: 1 } },
      });
    }
  });
});

describe("the TCP bridge (npm run mqtt:bridge)", () => {
  it("relays a native MQTT client to the WebSocket endpoint", async () => {
    const bridge = await startBridge({ port: 0, url: wsUrl() });
    try {
      const studio = await studioWithChallenge("Bridged");
      const token = await studio.tokenFor("dora");
      const topic = await topicOf(token);
      const client = await connect(4, {}, `mqtt://127.0.0.1:${bridge.port}`);
      await client.subscribeAsync(topic, { qos: 1 });
      const messages = inbox(client);
      await playerOf(studio.appId, token).act("unlock", studio.challengeId);
      const [message] = await messages.take(1);
      expect(message).toMatchObject({
        topic,
        qos: 1,
        payload: { webhook_type: "challenge-changed", new_challenge: { type: "unlocked" } },
      });
    } finally {
      await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
      await bridge.close();
    }
  });
});
