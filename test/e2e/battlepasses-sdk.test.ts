import { BattlePassesApi, EventsApi } from "@scillgame/scill-js";
import { describe, expect, it } from "vitest";
import {
  ADMIN_TOKEN,
  adminCreate as admin,
  http,
  newStudioApp,
  sdkConfiguration,
  sdkFailure as rejection,
} from "./support";

describe("battle passes through the SCILL JS SDK", () => {
  it("unlocks a pass and completes it level by level, ending with the reward claimed", async () => {
    const studio = await newStudioApp("Battle pass studio");
    const clock = await http("GET", "/api/v1/admin/dev/clock", { token: ADMIN_TOKEN });
    const now = Date.parse(clock.body.now);
    const pass = await admin(`/api/v1/admin/apps/${studio.appId}/battle-passes`, {
      battle_pass_name: { en: "Season 1", de: "Saison 1" },
      start_date: new Date(now - 3600_000).toISOString(),
      end_date: new Date(now + 30 * 86400_000).toISOString(),
      is_unlocked_incrementally: true,
    });
    const level = (event_name: string, challenge_goal: number, reward_amount: string, extra: object = {}) => ({
      reward_amount,
      level_reward_type: "coin",
      challenges: [
        { challenge_name: { en: `Do ${event_name}`, de: `Mach ${event_name}` }, challenge_goal, event_name, ...extra },
      ],
    });
    const levelsPath = `/api/v1/admin/apps/${studio.appId}/battle-passes/${pass.battle_pass_id}/levels`;
    const first = await admin(levelsPath, level("kill-enemy", 2, "100"));
    const second = await admin(
      levelsPath,
      level("collect-item", 3, "250", { filters: [{ field: "item_type", op: "eq", value: "gem" }] }),
    );

    const token = await studio.tokenFor("sdk-player");
    const passes = new BattlePassesApi(sdkConfiguration(token));
    // The SDK's convention for sending from a client: apiKey "access_token" becomes ?auth=access_token.
    const events = new EventsApi(sdkConfiguration(token));
    const send = async (event_name: string, meta_data: Record<string, string | number>) =>
      expect(await events.sendEvent({ event_name, event_type: "single", session_id: "match-1", meta_data })).toEqual({
        status: 200,
        message: "OK",
      });
    const scores = async () =>
      (await passes.getBattlePassLevels(studio.appId, pass.battle_pass_id)).map((l) => ({
        completed: l.level_completed,
        claimed: l.reward_claimed,
        active: l.activated_at !== null,
        challenges: l.challenges!.map((c) => `${c.type}:${c.user_challenge_current_score}`),
      }));

    const offered = await passes.getBattlePasses(studio.appId, "de");
    expect(offered.map((p) => [p.battle_pass_id, p.battle_pass_name, p.is_active, p.unlocked_at])).toEqual([
      [pass.battle_pass_id, "Saison 1", true, null],
    ]);
    expect(await passes.getUnlockedBattlePasses(studio.appId)).toEqual([]);

    const unlocked = await passes.unlockBattlePass(studio.appId, pass.battle_pass_id, {
      purchase_price: 4.99,
      purchase_currency: "EUR",
    });
    expect(unlocked).toMatchObject({
      battle_pass_id: pass.battle_pass_id,
      user_id: "sdk-player",
      purchase_price: 4.99,
      purchase_currency: "EUR",
      battle_pass_completed: false,
    });
    expect((await passes.getUnlockedBattlePasses(studio.appId)).map((p) => p.battle_pass_id)).toEqual([
      pass.battle_pass_id,
    ]);
    expect((await passes.getActiveBattlePasses(studio.appId)).map((p) => p.unlocked_at)).toEqual([
      unlocked.purchased_at,
    ]);
    // The first level is active already; activating it again is harmless.
    expect(await passes.activateBattlePassLevel(studio.appId, first.level_id)).toEqual({ status: 200, message: "OK" });

    expect(await scores()).toEqual([
      { completed: false, claimed: false, active: true, challenges: ["in-progress:0"] },
      { completed: false, claimed: false, active: false, challenges: ["unlock:0"] },
    ]);
    expect(await rejection(passes.claimBattlePassLevelReward(studio.appId, first.level_id))).toEqual({
      status: 409,
      body: { status: 409, message: `Level ${first.level_id} is not completed` },
    });
    expect((await rejection(passes.activateBattlePassLevel(studio.appId, second.level_id))).status).toBe(409);

    // Level 1.
    await send("kill-enemy", { amount: 1 });
    await send("kill-enemy", { amount: 1 });
    expect(await scores()).toEqual([
      { completed: true, claimed: false, active: true, challenges: ["unclaimed:2"] },
      { completed: false, claimed: false, active: true, challenges: ["in-progress:0"] },
    ]);
    expect(await passes.claimBattlePassLevelReward(studio.appId, first.level_id)).toEqual({
      status: 200,
      message: "OK",
    });
    expect((await rejection(passes.claimBattlePassLevelReward(studio.appId, first.level_id))).status).toBe(409);

    // Level 2: only gems count.
    await send("collect-item", { amount: 5, item_type: "coin" });
    await send("collect-item", { amount: 3, item_type: "gem" });
    expect(await scores()).toEqual([
      { completed: true, claimed: true, active: true, challenges: ["finished:2"] },
      { completed: true, claimed: false, active: true, challenges: ["unclaimed:3"] },
    ]);
    expect(await passes.claimBattlePassLevelReward(studio.appId, second.level_id, "en")).toEqual({
      status: 200,
      message: "OK",
    });

    const final = await passes.getAllBattlePassLevels(studio.appId, "de");
    expect(
      final.map((l) => [
        l.level_id,
        l.reward_amount,
        l.reward_claimed,
        l.challenges![0].challenge_name,
        l.challenges![0].type,
      ]),
    ).toEqual([
      [first.level_id, "100", true, "Mach kill-enemy", "finished"],
      [second.level_id, "250", true, "Mach collect-item", "finished"],
    ]);
    const completed = await passes.getBattlePass(studio.appId, pass.battle_pass_id);
    expect(completed).toMatchObject({
      battle_pass_id: pass.battle_pass_id,
      unlocked_at: unlocked.purchased_at,
      battle_pass_completed: true,
    });
  });
});

describe("unlockBattlePass's BattlePassUnlockInfo through the SCILL JS SDK", () => {
  it("answers a purchase_id of digits, the same for the user and pass on every unlock", async () => {
    const studio = await newStudioApp("Purchase ids");
    const clock = await http("GET", "/api/v1/admin/dev/clock", { token: ADMIN_TOKEN });
    const now = Date.parse(clock.body.now);
    const pass = await admin(`/api/v1/admin/apps/${studio.appId}/battle-passes`, {
      battle_pass_name: "Season",
      start_date: new Date(now - 3600_000).toISOString(),
      end_date: new Date(now + 30 * 86400_000).toISOString(),
    });
    const passes = (user: string) =>
      studio.tokenFor(user).then((token) => new BattlePassesApi(sdkConfiguration(token)));
    const buyer = await passes("buyer");
    const first = await buyer.unlockBattlePass(studio.appId, pass.battle_pass_id, {
      purchase_price: 2.99,
      purchase_currency: "EUR",
    });
    expect(first).toMatchObject({
      battle_pass_id: pass.battle_pass_id,
      user_id: "buyer",
      purchase_price: 2.99,
      purchase_currency: "EUR",
      battle_pass_completed: false,
    });
    expect(first.purchase_id).toMatch(/^\d+$/);
    expect((await buyer.unlockBattlePass(studio.appId, pass.battle_pass_id)).purchase_id).toBe(first.purchase_id);
    expect((await (await passes("other")).unlockBattlePass(studio.appId, pass.battle_pass_id)).purchase_id).not.toBe(
      first.purchase_id,
    );
  });
});
