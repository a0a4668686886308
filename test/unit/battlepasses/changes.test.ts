import { describe, expect, it } from "vitest";
import type { CatalogChallenge, CatalogLevel, CatalogPass } from "../../../src/battlepasses/catalog";
import { challengeChanges, expiredChange, rewardClaimedChange } from "../../../src/battlepasses/core/changes";
import { applyEvent, unlockPass, type PassProgress } from "../../../src/battlepasses/core/progress";

const START = Date.parse("2030-01-01T00:00:00Z");
const END = Date.parse("2030-02-01T00:00:00Z");
const AT = START + 1000;

const challenge = (challengeId: string, eventName: string, goal: number): CatalogChallenge => ({
  challengeId,
  key: `challenge-${challengeId}`,
  eventName,
  goal,
  goalCondition: 0,
  valueField: null,
  filters: [],
  counterScope: "session",
  name: "c",
  xp: 0,
  icon: "",
  iconHd: "",
});

const level = (
  levelId: string,
  challenges: CatalogChallenge[],
  rewardWebhookUrl: string | null = null,
): CatalogLevel => ({
  levelId,
  appId: "3",
  battlePassId: "7",
  priority: 0,
  rewardAmount: "100",
  rewardTypeName: "Coins",
  pointsRewards: [],
  levelRewardType: "coin",
  rewardWebhookUrl,
  challenges,
});

const PASS: CatalogPass = {
  battlePassId: "7",
  appId: "3",
  name: "S",
  description: "",
  shortDescription: "",
  disclaimer: "",
  priority: 4,
  packageSkuIos: "",
  packageSkuAndroid: "",
  images: { image_xs: "", image_s: "", image_m: "", image_l: "", image_xl: "" },
  startDate: new Date(START).toISOString(),
  endDate: new Date(END).toISOString(),
  startMs: START,
  endMs: END,
  readMoreLink: "",
  enabled: true,
  incremental: true,
  canPurchaseWithMoney: false,
  canPurchaseWithCoins: false,
  backendOnlyUnlock: false,
  levels: [
    level("10", [challenge("100", "kill-enemy", 1), challenge("101", "collect-item", 2)]),
    level("11", [challenge("110", "kill-enemy", 5)], "https://rewards.example.com/l2"),
  ],
};

const unlocked = (): PassProgress => {
  const o = unlockPass(PASS, null, { price: 0, currency: "" }, AT);
  if (!o.ok) throw new Error(o.conflict);
  return o.value;
};

const state = (
  levelIndex: number,
  challengeIndex: number,
  challengeId: string,
  goal: number,
  score: number,
  type: string,
) => ({
  app_id: "3",
  battle_pass_id: "7",
  level_id: levelIndex === 0 ? "10" : "11",
  user_id: "u1",
  level_position_index: levelIndex,
  challenge_id: challengeId,
  challenge_position_index: challengeIndex,
  challenge_goal: goal,
  user_challenge_current_score: score,
  type,
});

const topic = { kind: "user-battle-pass", appId: "3", userId: "u1", battlePassId: "7" };

describe("battle pass change payloads", () => {
  it("announces the first level's challenges when the pass is unlocked", () => {
    expect(challengeChanges(PASS, "u1", null, unlocked(), AT)).toEqual([
      {
        appId: "3",
        userId: "u1",
        webhookType: "battlepass-challenge-changed",
        topic,
        payload: {
          webhook_type: "battlepass-challenge-changed",
          old_battle_pass_challenge: state(0, 0, "100", 1, 0, "unlock"),
          new_battle_pass_challenge: state(0, 0, "100", 1, 0, "in-progress"),
        },
      },
      {
        appId: "3",
        userId: "u1",
        webhookType: "battlepass-challenge-changed",
        topic,
        payload: {
          webhook_type: "battlepass-challenge-changed",
          old_battle_pass_challenge: state(0, 1, "101", 2, 0, "unlock"),
          new_battle_pass_challenge: state(0, 1, "101", 2, 0, "in-progress"),
        },
      },
    ]);
  });

  it("announces a counter move, a completion and the next level's challenges coming alive, with positions", () => {
    const before = applyEvent(
      PASS,
      unlocked(),
      { eventName: "collect-item", eventType: "single", sessionId: "s", metaData: { amount: 2 } },
      AT,
    )!;
    const after = applyEvent(
      PASS,
      before,
      { eventName: "kill-enemy", eventType: "single", sessionId: "s", metaData: { amount: 1 } },
      AT,
    )!;
    const changes = challengeChanges(PASS, "u1", before, after, AT);
    expect(changes.map((c) => [c.payload.old_battle_pass_challenge, c.payload.new_battle_pass_challenge])).toEqual([
      [state(0, 0, "100", 1, 0, "in-progress"), state(0, 0, "100", 1, 1, "unclaimed")],
      [state(1, 0, "110", 5, 0, "unlock"), state(1, 0, "110", 5, 0, "in-progress")],
    ]);
  });

  it("sends the level reward claim to the level's own URL when it has one", () => {
    expect(rewardClaimedChange(PASS, "u1", "10")).toEqual({
      appId: "3",
      userId: "u1",
      webhookType: "battlepass-level-reward-claimed",
      topic,
      payload: {
        webhook_type: "battlepass-level-reward-claimed",
        battle_pass_level_reward_claimed: {
          app_id: "3",
          battle_pass_id: "7",
          level_id: "10",
          user_id: "u1",
          level_position_index: 0,
          reward_amount: "100",
          reward_type_name: "Coins",
        },
      },
    });
    const second = rewardClaimedChange(PASS, "u1", "11");
    expect(second.webhookUrl).toBe("https://rewards.example.com/l2");
    expect(second.payload.battle_pass_level_reward_claimed).toMatchObject({ level_id: "11", level_position_index: 1 });
  });

  it("describes an expired pass as active before and inactive after, on no user topic", () => {
    const state = (is_active: boolean) => ({
      battle_pass_id: "7",
      app_id: "3",
      battle_pass_priority: 4,
      start_date: "2030-01-01T00:00:00.000Z",
      end_date: "2030-02-01T00:00:00.000Z",
      is_active,
    });
    expect(expiredChange(PASS)).toEqual({
      appId: "3",
      userId: null,
      webhookType: "battlepass-expired",
      topic: null,
      payload: { webhook_type: "battlepass-expired", old_battle_pass: state(true), new_battle_pass: state(false) },
    });
  });
});
