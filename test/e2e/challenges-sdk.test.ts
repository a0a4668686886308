import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { AuthApi, ChallengesApi, EventsApi } from "@scillgame/scill-js";
import mqtt from "mqtt";
import { describe, expect, it } from "vitest";
import {
  adminCreate as admin,
  baseUrl,
  eventually,
  newStudioApp,
  sdkConfiguration,
  sdkFailure as rejection,
} from "./support";

describe("personal challenges through the SCILL JS SDK", () => {
  it("lists, unlocks, activates, counts events until unclaimed, claims and reads finished", async () => {
    const studio = await newStudioApp("Challenge studio");
    const category = await admin(`/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
      category_slug: "weekly",
      category_name: { en: "Weekly", de: "Wöchentlich" },
    });
    const challenge = await admin(`/api/v1/admin/apps/${studio.appId}/challenges`, {
      category_id: category.category_id,
      challenge_name: { en: "Collect 5 gems", de: "Sammle 5 Edelsteine" },
      challenge_goal: 5,
      event_name: "collect-item",
      filters: [{ field: "item_type", op: "eq", value: "gem" }],
      challenge_reward: "gold",
      challenge_reward_type: "item",
    });
    const cid: string = challenge.challenge_id;

    const token = await studio.tokenFor("sdk-player");
    const challenges = new ChallengesApi(sdkConfiguration(token));
    const events = new EventsApi(sdkConfiguration(token));
    const send = async (meta_data: Record<string, string | number>) =>
      expect(
        await events.sendEvent({ event_name: "collect-item", event_type: "single", session_id: "match-1", meta_data }),
      ).toEqual({
        status: 200,
        message: "OK",
      });
    const current = async () => (await challenges.getPersonalChallengeById(studio.appId, cid)) as any;

    const listed = await challenges.getAllPersonalChallenges(studio.appId, undefined, undefined, "de");
    expect(listed.map((c) => [c.category_id, c.category_slug, c.category_name, c.category_position])).toEqual([
      [category.category_id, "weekly", "Wöchentlich", 0],
    ]);
    expect(
      listed[0].challenges!.map((c) => [c.challenge_id, c.challenge_name, c.type, c.user_challenge_current_score]),
    ).toEqual([[cid, "Sammle 5 Edelsteine", "unlock", 0]]);
    expect(await challenges.getActivePersonalChallenges(studio.appId)).toEqual([
      { ...listed[0], category_name: "Weekly", challenges: [] },
    ]);
    expect((await rejection(challenges.activatePersonalChallenge(studio.appId, cid))).status).toBe(409);

    const unlocked = await challenges.unlockPersonalChallenge(studio.appId, cid);
    expect(unlocked).toMatchObject({ status: 200, message: "OK", challenge: { challenge_id: cid, type: "unlocked" } });
    expect(unlocked.challenge).not.toHaveProperty("challenge_description");
    const activated = await challenges.activatePersonalChallenge(studio.appId, cid);
    expect(activated).toMatchObject({
      status: 200,
      challenge: { type: "in-progress", user_challenge_current_score: 0 },
    });
    expect((await rejection(challenges.claimPersonalChallengeReward(studio.appId, cid))).body).toEqual({
      status: 409,
      message: `Challenge ${cid} is in state in-progress; only a challenge in state unclaimed can be claimed`,
    });

    await send({ amount: 3, item_type: "gem" });
    await send({ amount: 9, item_type: "coin" });
    expect(await current()).toMatchObject({ type: "in-progress", user_challenge_current_score: 3 });
    await send({ amount: 2, item_type: "gem" });
    expect(await current()).toMatchObject({
      type: "unclaimed",
      user_challenge_current_score: 5,
      challenge_current_score: 5,
    });
    expect((await challenges.getUnresolvedPersonalChallenges(studio.appId))[0].challenges!.map((c) => c.type)).toEqual([
      "unclaimed",
    ]);

    const claimed = await challenges.claimPersonalChallengeReward(studio.appId, cid);
    expect(claimed).toMatchObject({
      status: 200,
      message: "OK",
      challenge: { type: "finished", is_claimed: true, challenge_reward: "gold" },
    });
    expect(await current()).toMatchObject({
      type: "finished",
      is_claimed: true,
      user_challenge_is_claimed: true,
      user_challenge_current_score: 5,
    });
    expect((await challenges.getPersonalChallenges(studio.appId))[0].challenges).toEqual([]);
    expect((await challenges.getAllPersonalChallenges(studio.appId))[0].challenges!.map((c) => c.type)).toEqual([
      "finished",
    ]);
  });
});

describe("category_position through the SCILL JS SDK, over MQTT and webhooks", () => {
  it("is the index of the category in the list the user gets, in the list, the MQTT message and the webhook alike", async () => {
    const studio = await newStudioApp("Category positions");
    const calls: any[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        calls.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        res.writeHead(200).end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as AddressInfo).port;
    const client = await mqtt.connectAsync(`${baseUrl().replace(/^http/, "ws")}/mqtt`, {
      protocolVersion: 4,
      reconnectPeriod: 0,
    });
    try {
      await admin(`/api/v1/admin/apps/${studio.appId}/webhooks`, {
        webhook_type: "challenge-changed",
        url: `http://127.0.0.1:${port}/hooks`,
      });
      // Stored positions 40 and 50: the list's indexes are 0 and 1.
      await admin(`/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
        category_slug: "first",
        category_name: "First",
        category_position: 40,
      });
      const second = await admin(`/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
        category_slug: "second",
        category_name: "Second",
        category_position: 50,
      });
      const challenge = await admin(`/api/v1/admin/apps/${studio.appId}/challenges`, {
        category_id: second.category_id,
        challenge_name: "Kill 2",
        challenge_goal: 2,
        event_name: "kill-enemy",
      });

      const token = await studio.tokenFor("indexed-player");
      const challenges = new ChallengesApi(sdkConfiguration(token));
      const listed = await challenges.getAllPersonalChallenges(studio.appId);
      expect(listed.map((c) => [c.category_slug, c.category_position])).toEqual([
        ["first", 0],
        ["second", 1],
      ]);

      const topic = (await new AuthApi(sdkConfiguration(token)).getUserChallengesNotificationTopic()).topic!;
      await client.subscribeAsync(topic, { qos: 1 });
      const message = new Promise<any>((resolve) =>
        client.once("message", (_t, payload) => resolve(JSON.parse(payload.toString("utf8")))),
      );
      await challenges.unlockPersonalChallenge(studio.appId, challenge.challenge_id);

      const pushed = await message;
      expect(pushed).toMatchObject({
        webhook_type: "challenge-changed",
        category_position: 1,
        new_challenge: { challenge_id: challenge.challenge_id, type: "unlocked" },
      });
      const hooked = await eventually(async () => calls[0], 15_000, "the webhook call");
      expect(hooked).toEqual(pushed);
      expect(listed[hooked.category_position].category_id).toBe(second.category_id);
    } finally {
      await client.endAsync(true);
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
