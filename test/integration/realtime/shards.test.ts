import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi, type MockInstance } from "vitest";
import { MqttBroker } from "../../../src/realtime/broker-do";
import { brokerShard } from "../../../src/realtime/shards";
import { recordWatchedTopics, watchedTopics } from "../../../src/realtime/watched-topics";
import type { Packet } from "../../../src/realtime/mqtt/packets";
import { createTestApp, sendEvent } from "../helpers";
import { createCategory, createChallenge } from "../challenges/support";
import { createBoard } from "../leaderboards/support";
import { json, RawClient, subscribe, topicLink } from "./support";

/**
 * Connections spread over broker shards: every client gets its messages whatever shard holds it,
 * and each publish calls only the shards where its topic has subscribers.
 */

let app: Awaited<ReturnType<typeof createTestApp>>;
let boardId: string;

beforeAll(async () => {
  app = await createTestApp("Shards");
  const category = await createCategory(app.appId);
  await createChallenge(app.appId, category.category_id, { is_auto_activated: true, challenge_goal: 100 });
  boardId = (await createBoard(app.appId, { event_name: "kill-enemy", value_field: "amount", aggregation: "sum" }))
    .leaderboard_id;
});

afterEach(() => vi.restoreAllMocks());

/** A client whose socket lives in the given shard (the Worker's /mqtt picks one at random). */
async function clientOnShard(shard: number): Promise<RawClient> {
  const response = await brokerShard(env, shard).fetch("https://gamification.test/mqtt", {
    headers: { Upgrade: "websocket", "Sec-WebSocket-Protocol": "mqtt" },
  });
  expect(response.status).toBe(101);
  const client = new RawClient(response.webSocket!, 4);
  client.send({
    type: "connect",
    protocolVersion: 4,
    clean: true,
    keepAlive: 60,
    clientId: `shard-${shard}-${crypto.randomUUID()}`,
  });
  expect(await client.next()).toMatchObject({ type: "connack", reasonCode: 0 });
  return client;
}

const shardIds = Array.from({ length: 4 }, (_, i) => brokerShard(env, i).id.toString());
const shardOf = (broker: MqttBroker) =>
  shardIds.indexOf((broker as unknown as { ctx: DurableObjectState }).ctx.id.toString());

/** The shards called to publish to `topic`, one entry per call. */
function shardsCalledFor(publish: MockInstance<MqttBroker["publish"]>, topic: string): number[] {
  return publish.mock.calls
    .map((call, i) => [call[0], publish.mock.contexts[i] as MqttBroker] as const)
    .filter(([batches]) => batches.some((b) => b.topic === topic))
    .map(([, broker]) => shardOf(broker))
    .sort();
}

async function nextPublish(client: RawClient, topic: string) {
  const packet = (await client.next()) as Extract<Packet, { type: "publish" }>;
  expect(packet).toMatchObject({ type: "publish", topic });
  client.send({ type: "puback", packetId: packet.packetId! });
  return json(packet.payload);
}

/** Whether D1 lists the topic as watched (what the leaderboard consumer reads before ranking anyone). */
const listed = async (topic: string) => (await watchedTopics(env.DB, [topic])).has(topic);

const hubWatchers = (topic: string) =>
  runInDurableObject(env.TOPIC_HUB.get(env.TOPIC_HUB.idFromName(topic)), (_instance, state) =>
    state.storage.sql
      .exec<{ broker: string }>("SELECT broker FROM rt_watchers WHERE topic = ? ORDER BY broker", topic)
      .toArray()
      .map((r) => shardIds.indexOf(r.broker)),
  );

describe("broker shards", () => {
  it("deliver to clients on different shards, calling only the shards where each topic has subscribers", async () => {
    const token = await app.tokenFor("alice");
    const board = await topicLink(token, `leaderboard-topic-link?leaderboard_id=${boardId}`);
    const mine = await topicLink(token, "user-challenges-topic-link");
    const clients = await Promise.all([0, 1, 2, 3].map(clientOnShard));
    // The board is followed on shards 0, 1 and 2; alice's challenges on shards 1 and 3.
    for (const shard of [0, 1, 2]) expect(await subscribe(clients[shard], [board])).toEqual([1]);
    for (const shard of [1, 3]) expect(await subscribe(clients[shard], [mine], 1, 2)).toEqual([1]);
    expect((await hubWatchers(board)).sort()).toEqual([0, 1, 2]);
    // The hub lists the topic in D1 before the first SUBACK.
    expect(await listed(board)).toBe(true);

    const publish = vi.spyOn(MqttBroker.prototype, "publish");
    await sendEvent(app.apiKey, "alice", "kill-enemy", { amount: 5 });

    // The user's object publishes the challenge's start and its count on alice's topic.
    for (const shard of [1, 3]) {
      const scores = [await nextPublish(clients[shard], mine), await nextPublish(clients[shard], mine)].map(
        (p) => p.new_challenge.user_challenge_current_score,
      );
      expect(scores).toEqual([0, 5]);
    }
    // The leaderboard change comes from the background queue, through the board topic's hub.
    const ranked = (memberId: string, score: number) => ({
      member_data: { member_id: memberId, score },
      new_leaderboard_ranking: { score, rank: 1 },
    });
    for (const shard of [0, 2]) expect(await nextPublish(clients[shard], board)).toMatchObject(ranked("alice", 5));
    await vi.waitFor(() => expect(clients[1].unread).toHaveLength(1), { timeout: 10_000, interval: 50 });
    expect(await nextPublish(clients[1], board)).toMatchObject(ranked("alice", 5));
    expect(shardsCalledFor(publish, mine)).toEqual([1, 3]);
    expect(shardsCalledFor(publish, board)).toEqual([0, 1, 2]);

    // The last subscriber on shard 0 leaves: the hub forgets that shard, and the next change skips it.
    clients[0].close();
    await vi.waitFor(async () => expect((await hubWatchers(board)).sort()).toEqual([1, 2]), {
      timeout: 15_000,
      interval: 50,
    });
    publish.mockClear();
    await sendEvent(app.apiKey, "bob", "kill-enemy", { amount: 9 });
    for (const shard of [1, 2]) expect(await nextPublish(clients[shard], board)).toMatchObject(ranked("bob", 9));
    expect(shardsCalledFor(publish, board)).toEqual([1, 2]);
    // The last subscriber anywhere leaves: the hub takes the topic off D1's list.
    for (const client of clients.slice(1)) client.close();
    await vi.waitFor(async () => expect(await listed(board)).toBe(false), { timeout: 15_000, interval: 50 });
  });

  it("take a board topic off D1's list when a publish finds it without a subscriber, once", async () => {
    const board = await createBoard(app.appId, {
      event_name: "collect-item",
      value_field: "amount",
      aggregation: "sum",
    });
    const topic = await topicLink(
      await app.tokenFor("dora"),
      `leaderboard-topic-link?leaderboard_id=${board.leaderboard_id}`,
    );
    // Listed, but its hub knows of no subscriber (the hub's delete failed, say).
    await recordWatchedTopics(env.DB, [[topic, true]]);
    const hub = env.TOPIC_HUB.get(env.TOPIC_HUB.idFromName(topic));
    const publish = vi.spyOn(MqttBroker.prototype, "publish");
    const writes = vi.spyOn(env.DB, "batch");
    await hub.publishTopics([{ topic, payloads: ["{}"] }]);
    expect(await listed(topic)).toBe(false);
    expect(publish).not.toHaveBeenCalled();
    expect(writes).toHaveBeenCalledTimes(1);
    // Once off the list, a further publish writes nothing more.
    await hub.publishTopics([{ topic, payloads: ["{}"] }]);
    expect(writes).toHaveBeenCalledTimes(1);
  });

  it("call no hub and no broker at all for a board nobody follows", async () => {
    const other = await createBoard(app.appId, {
      event_name: "earn-points",
      value_field: "amount",
      aggregation: "sum",
    });
    const publish = vi.spyOn(MqttBroker.prototype, "publish");
    const hubs = vi.spyOn(env.TOPIC_HUB, "get");
    await sendEvent(app.apiKey, "carol", "earn-points", { amount: 3 });
    const score = () =>
      env.DB.prepare("SELECT score FROM leaderboard_scores WHERE leaderboard_id = ? AND member_id = 'carol'")
        .bind(Number(other.leaderboard_id))
        .first<{ score: number }>();
    await vi.waitFor(async () => expect(await score()).toEqual({ score: 3 }), { timeout: 10_000, interval: 50 });
    expect(hubs).not.toHaveBeenCalled();
    expect(publish).not.toHaveBeenCalled();
  });
});
