import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Change } from "../../../src/changes/types";
import { topicBatches } from "../../../src/realtime/publish";
import { isIssuedTopic, topicName, topicOwner } from "../../../src/realtime/topics";

/** A stand-in for the USER namespace: ids are 64 hex digits derived from the name. */
const USER = {
  idFromName: (name: string) =>
    ({ toString: () => createHash("sha256").update(name).digest("hex") }) as DurableObjectId,
};
const env = { TOPIC_SECRET: "unit-topic-secret", USER };

describe("topicName", () => {
  it("derives a stable, kind-named, unguessable topic per ref", async () => {
    const a = await topicName(env, { kind: "user-challenges", appId: "1", userId: "alice" });
    // A user's topic names its owner, the id of the user's object.
    expect(a).toBe(`gamification/challenges/${USER.idFromName("1:alice").toString()}/${a.slice(-48)}`);
    expect(a).toMatch(/^gamification\/challenges\/[0-9a-f]{64}\/[0-9a-f]{48}$/);
    expect(await topicName(env, { kind: "user-challenges", appId: "1", userId: "alice" })).toBe(a);
    expect(await topicName(env, { kind: "user-challenges", appId: "1", userId: "bob" })).not.toBe(a);
    expect(await topicName(env, { kind: "user-challenges", appId: "2", userId: "alice" })).not.toBe(a);
    expect(
      await topicName({ TOPIC_SECRET: "other", USER }, { kind: "user-challenges", appId: "1", userId: "alice" }),
    ).not.toBe(a);
    expect(await topicName(env, { kind: "user-challenge", appId: "1", userId: "alice", challengeId: "5" })).toMatch(
      /^gamification\/challenge\//,
    );
    expect(await topicName(env, { kind: "user-battle-pass", appId: "1", userId: "alice", battlePassId: "5" })).toMatch(
      /^gamification\/battle-pass\//,
    );
    expect(await topicName(env, { kind: "leaderboard", appId: "1", leaderboardId: "5" })).toMatch(
      /^gamification\/leaderboard\/[0-9a-f]{48}$/,
    );
  });

  it("keeps fields apart whatever characters ids contain", async () => {
    const x = await topicName(env, { kind: "user-battle-pass", appId: "1", userId: 'a","b', battlePassId: "c" });
    const y = await topicName(env, { kind: "user-battle-pass", appId: "1", userId: "a", battlePassId: 'b","c' });
    expect(x).not.toBe(y);
  });

  it("refuses to work without a secret", async () => {
    await expect(
      topicName({ TOPIC_SECRET: "", USER }, { kind: "leaderboard", appId: "1", leaderboardId: "1" }),
    ).rejects.toThrow(/TOPIC_SECRET/);
  });
});

describe("isIssuedTopic", () => {
  it("recognizes issued topics and nothing else", async () => {
    const topic = await topicName(env, { kind: "leaderboard", appId: "1", leaderboardId: "9" });
    expect(await isIssuedTopic(env, topic)).toBe(true);
    expect(await isIssuedTopic({ TOPIC_SECRET: "other" }, topic)).toBe(false);
    const flipped = topic.slice(0, -1) + (topic.endsWith("0") ? "1" : "0");
    expect(await isIssuedTopic(env, flipped)).toBe(false);
    // The check binds the kind: the same id under another kind is not issued.
    expect(await isIssuedTopic(env, topic.replace("/leaderboard/", "/challenges/"))).toBe(false);
    for (const filter of [
      "#",
      "gamification/#",
      "gamification/leaderboard/+",
      `$share/g/${topic}`,
      `${topic}/x`,
      topic.toUpperCase(),
      "",
    ]) {
      expect(await isIssuedTopic(env, filter)).toBe(false);
    }
  });

  it("binds a user's topic to its owner", async () => {
    const topic = await topicName(env, { kind: "user-challenges", appId: "1", userId: "alice" });
    const owner = USER.idFromName("1:alice").toString();
    expect(await isIssuedTopic(env, topic)).toBe(true);
    expect(topicOwner(topic)).toBe(owner);
    // Another owner with the same id and check: made up.
    expect(await isIssuedTopic(env, topic.replace(owner, USER.idFromName("1:bob").toString()))).toBe(false);
    // A user's kind without an owner, or a leaderboard with one: not a shape that is issued.
    expect(await isIssuedTopic(env, topic.replace(`${owner}/`, ""))).toBe(false);
    expect(await isIssuedTopic(env, topic.replace("/challenges/", "/leaderboard/"))).toBe(false);
    expect(topicOwner(await topicName(env, { kind: "leaderboard", appId: "1", leaderboardId: "9" }))).toBeNull();
  });
});

describe("topicBatches", () => {
  const challenge = (id: string, score: number) => ({ challenge_id: id, user_challenge_current_score: score });
  const change = (appId: string, userId: string, payload: Record<string, unknown>): Change => ({
    appId,
    webhookType: "challenge-changed",
    payload,
    topic: { kind: "user-challenges", appId, userId },
    userId,
  });

  it("groups by topic in order, and copies challenge changes to that challenge's topic", async () => {
    const changes: Change[] = [
      change("1", "alice", { new_challenge: challenge("7", 1), old_challenge: challenge("7", 0) }),
      change("1", "bob", { new_challenge: challenge("7", 5) }),
      change("1", "alice", { new_challenge: challenge("8", 2) }),
      {
        appId: "1",
        webhookType: "leaderoard-updated",
        payload: { leaderboard_id: "3" },
        topic: { kind: "leaderboard", appId: "1", leaderboardId: "3" },
        userId: null,
      },
      { appId: "1", webhookType: "battlepass-expired", payload: { x: 1 }, topic: null, userId: null },
    ];
    const alice = await topicName(env, { kind: "user-challenges", appId: "1", userId: "alice" });
    const json = (c: Change) => JSON.stringify(c.payload);
    expect(await topicBatches(env, changes)).toEqual([
      { topic: alice, payloads: [json(changes[0]), json(changes[2])] },
      {
        topic: await topicName(env, { kind: "user-challenge", appId: "1", userId: "alice", challengeId: "7" }),
        payloads: [json(changes[0])],
      },
      {
        topic: await topicName(env, { kind: "user-challenges", appId: "1", userId: "bob" }),
        payloads: [json(changes[1])],
      },
      {
        topic: await topicName(env, { kind: "user-challenge", appId: "1", userId: "bob", challengeId: "7" }),
        payloads: [json(changes[1])],
      },
      {
        topic: await topicName(env, { kind: "user-challenge", appId: "1", userId: "alice", challengeId: "8" }),
        payloads: [json(changes[2])],
      },
      // A leaderboard topic carries SCILL's `leaderboard-ranking-changed`; the payload is otherwise the webhook's.
      {
        topic: await topicName(env, { kind: "leaderboard", appId: "1", leaderboardId: "3" }),
        payloads: [JSON.stringify({ leaderboard_id: "3", webhook_type: "leaderboard-ranking-changed" })],
      },
    ]);
  });
});
