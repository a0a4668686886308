import { ChallengesApi, EventsApi } from "@scillgame/scill-js";
import { describe, expect, it } from "vitest";
import { adminCreate as admin, newStudioApp, sdkConfiguration, sdkFailure as rejection } from "./support";

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
      expect(await events.sendEvent({ event_name: "collect-item", event_type: "single", session_id: "match-1", meta_data })).toEqual({
        status: 200,
        message: "OK",
      });
    const current = async () => (await challenges.getPersonalChallengeById(studio.appId, cid)) as any;

    const listed = await challenges.getAllPersonalChallenges(studio.appId, undefined, undefined, "de");
    expect(listed.map((c) => [c.category_id, c.category_slug, c.category_name, c.category_position])).toEqual([
      [category.category_id, "weekly", "Wöchentlich", 0],
    ]);
    expect(listed[0].challenges!.map((c) => [c.challenge_id, c.challenge_name, c.type, c.user_challenge_current_score])).toEqual([
      [cid, "Sammle 5 Edelsteine", "unlock", 0],
    ]);
    expect(await challenges.getActivePersonalChallenges(studio.appId)).toEqual([{ ...listed[0], category_name: "Weekly", challenges: [] }]);
    expect((await rejection(challenges.activatePersonalChallenge(studio.appId, cid))).status).toBe(409);

    const unlocked = await challenges.unlockPersonalChallenge(studio.appId, cid);
    expect(unlocked).toMatchObject({ status: 200, message: "OK", challenge: { challenge_id: cid, type: "unlocked" } });
    expect(unlocked.challenge).not.toHaveProperty("challenge_description");
    const activated = await challenges.activatePersonalChallenge(studio.appId, cid);
    expect(activated).toMatchObject({ status: 200, challenge: { type: "in-progress", user_challenge_current_score: 0 } });
    expect((await rejection(challenges.claimPersonalChallengeReward(studio.appId, cid))).body).toEqual({
      status: 409,
      message: `Challenge ${cid} is in state in-progress; only a challenge in state unclaimed can be claimed`,
    });

    await send({ amount: 3, item_type: "gem" });
    await send({ amount: 9, item_type: "coin" });
    expect(await current()).toMatchObject({ type: "in-progress", user_challenge_current_score: 3 });
    await send({ amount: 2, item_type: "gem" });
    expect(await current()).toMatchObject({ type: "unclaimed", user_challenge_current_score: 5, challenge_current_score: 5 });
    expect((await challenges.getUnresolvedPersonalChallenges(studio.appId))[0].challenges!.map((c) => c.type)).toEqual(["unclaimed"]);

    const claimed = await challenges.claimPersonalChallengeReward(studio.appId, cid);
    expect(claimed).toMatchObject({ status: 200, message: "OK", challenge: { type: "finished", is_claimed: true, challenge_reward: "gold" } });
    expect(await current()).toMatchObject({ type: "finished", is_claimed: true, user_challenge_is_claimed: true, user_challenge_current_score: 5 });
    expect((await challenges.getPersonalChallenges(studio.appId))[0].challenges).toEqual([]);
    expect((await challenges.getAllPersonalChallenges(studio.appId))[0].challenges!.map((c) => c.type)).toEqual(["finished"]);
  });
});
