import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { MqttBroker } from "../../../src/realtime/broker-do";
import { brokerShard } from "../../../src/realtime/shards";
import { userObject } from "../../../src/user/names";
import { createTestApp, sendEvent } from "../helpers";
import { createCategory, createChallenge } from "../challenges/support";
import { connectClient, json, subscribe, topicLink } from "./support";

/**
 * The watcher registry: a user's object learns from the broker which of its topics have
 * subscribers, and publishes only to those.
 */

let app: Awaited<ReturnType<typeof createTestApp>>;
const brokerId = () => brokerShard(env, 0).id.toString();

beforeAll(async () => {
  app = await createTestApp("Watchers");
  const category = await createCategory(app.appId);
  await createChallenge(app.appId, category.category_id, { is_auto_activated: true, challenge_goal: 100 });
});

afterEach(() => vi.restoreAllMocks());

const watchersOf = (userId: string) =>
  runInDurableObject(userObject(env, app.appId, userId), (_instance, state) =>
    state.storage.sql
      .exec<{ topic: string; broker: string }>("SELECT topic, broker FROM rt_watchers ORDER BY topic")
      .toArray(),
  );

describe("the watcher registry", () => {
  it("knows of a subscriber before its SUBACK, and forgets the topic when the last one unsubscribes or leaves", async () => {
    const topic = await topicLink(await app.tokenFor("wendy"), "user-challenges-topic-link");
    const first = await connectClient(4);
    const second = await connectClient(5);
    expect(await subscribe(first, [topic])).toEqual([1]);
    expect(await watchersOf("wendy")).toEqual([{ topic, broker: brokerId() }]);
    expect(await subscribe(second, [topic])).toEqual([1]);

    first.send({ type: "unsubscribe", packetId: 2, topicFilters: [topic] });
    expect(await first.next()).toEqual({ type: "unsuback", packetId: 2 });
    // The second subscriber still listens.
    await first.sync();
    expect(await watchersOf("wendy")).toEqual([{ topic, broker: brokerId() }]);

    second.close();
    await vi.waitFor(async () => expect(await watchersOf("wendy")).toEqual([]), { timeout: 15_000, interval: 50 });
    first.close();
  });

  it("delivers a user's event to the subscriber, and publishes nothing for a user nobody watches", async () => {
    const topic = await topicLink(await app.tokenFor("walt"), "user-challenges-topic-link");
    const client = await connectClient(4);
    await subscribe(client, [topic]);
    const publish = vi.spyOn(MqttBroker.prototype, "publish");

    await sendEvent(app.apiKey, "walt", "kill-enemy", { amount: 4 });
    // The automatic challenge starts (score 0), then counts 4.
    const scores: number[] = [];
    for (let i = 0; i < 2; i++) {
      const packet = await client.next();
      expect(packet).toMatchObject({ type: "publish", topic });
      scores.push(json((packet as { payload: Uint8Array }).payload).new_challenge.user_challenge_current_score);
    }
    expect(scores).toEqual([0, 4]);
    expect(publish).toHaveBeenCalledTimes(1);

    await sendEvent(app.apiKey, "nobody", "kill-enemy", { amount: 4 });
    expect(publish).toHaveBeenCalledTimes(1);
    client.close();
  });

  it("drops an entry the broker could not retract at the next publish that comes back unheard", async () => {
    const topic = await topicLink(await app.tokenFor("vera"), "user-challenges-topic-link");
    // As if a subscriber had been there when the broker restarted: nobody listens now.
    await userObject(env, app.appId, "vera").watchTopics(brokerId(), [topic], true);
    expect(await watchersOf("vera")).toEqual([{ topic, broker: brokerId() }]);
    await new Promise((resolve) => setTimeout(resolve, 5));

    await sendEvent(app.apiKey, "vera", "kill-enemy", { amount: 1 });
    await vi.waitFor(async () => expect(await watchersOf("vera")).toEqual([]), { timeout: 15_000, interval: 50 });
  });
});
