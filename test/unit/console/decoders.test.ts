import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { type ChallengeAdmin, ChallengeInput } from "../../../src/challenges/admin/schemas";
import { BattlePassInput, type LevelAdmin, LevelInput } from "../../../src/battlepasses/admin/schemas";
import { type LeaderboardAdmin, LeaderboardInput } from "../../../src/leaderboards/admin/schemas";
import { challengeToForm, decodeChallenge, decodeCategory } from "../../../src/challenges/console/forms";
import { decodeLevel, decodePass, levelToForm, passToForm } from "../../../src/battlepasses/console/forms";
import { decodeLeaderboard, leaderboardToForm } from "../../../src/leaderboards/console/forms";
import { decodeEvent } from "../../../src/kit/console/forms/events";
import { readDateTime, dateTimeToForm } from "../../../src/kit/console/forms/common";
import { decodeWebhook } from "../../../src/kit/console/forms/simple";
import { FormReader } from "../../../src/kit/console/core/form";

/** What a form shows of a stored object, submitted unchanged, is that object's input again. */

const stamps = { created_at: "2026-01-01T00:00:00.000Z", updated_at: "2026-01-01T00:00:00.000Z" };

describe("form decoders", () => {
  it("round-trips a challenge with every field", () => {
    const challenge: z.infer<typeof ChallengeAdmin> = {
      challenge_id: "7",
      app_id: "1",
      key: "run",
      category_id: "3",
      challenge_name: { en: "Run", de: "Lauf" },
      challenge_description: { en: "<b>Far</b>" },
      challenge_goal: 5000,
      challenge_goal_condition: 1,
      challenge_duration_time: 3600,
      live_date: "2026-02-03T04:05:00.000Z",
      challenge_price: 10,
      challenge_reward: "100",
      challenge_reward_type: "coin",
      challenge_xp: 7,
      points_rewards: [
        { system: "coins", amount: 50 },
        { system: "gems", amount: 2 },
      ],
      challenge_icon: "run.png",
      challenge_icon_hd: "run@2x.png",
      repeatable: true,
      is_auto_activated: true,
      period_range: "w",
      period_range_reset_at_time: "06:30:00",
      period_range_time_zone: "Europe/Berlin",
      event_name: "character-run",
      value_field: "distance",
      counter_scope: "total",
      filters: [
        { field: "realm", op: "in", value: ["moon", "mars"] },
        { field: "distance", op: "gte", value: 10 },
      ],
      ...stamps,
    };
    const decoded = decodeChallenge(challengeToForm(challenge, "en"));
    expect(decoded.problems).toEqual([]);
    const { challenge_id, app_id, created_at, updated_at, ...input } = challenge;
    expect(ChallengeInput.parse(decoded.input)).toEqual({ ...input, live_date: "2026-02-03T04:05:00Z" });
  });

  it("turns a plain-string name into the app's default language, and drops empty languages and filters", () => {
    const decoded = decodeChallenge({
      category_id: "1",
      "challenge_name.0.lang": "",
      "challenge_name.0.text": "",
      "challenge_name.1.lang": "de",
      "challenge_name.1.text": "Lauf",
      challenge_goal: "3",
      event_name: "x",
      "filters.0.field": "",
      "filters.0.op": "eq",
      "filters.0.value": "",
    });
    expect(decoded.input).toMatchObject({
      challenge_name: { de: "Lauf" },
      challenge_description: null,
      filters: [],
      live_date: null,
    });
    expect(decoded.values).toMatchObject({ "challenge_name.0.lang": "de", "challenge_name.0.text": "Lauf" });
    expect(decoded.values).not.toHaveProperty("filters.0.field");
  });

  it("names a text without a language and a language given twice", () => {
    const decoded = decodeCategory({
      category_slug: "a",
      "category_name.0.text": "A",
      "category_name.1.lang": "en",
      "category_name.1.text": "B",
      "category_name.2.lang": "en",
      "category_name.2.text": "C",
    });
    expect(decoded.problems).toEqual([
      { field: "category_name.0.lang", problem: "needs a language code such as en" },
      { field: "category_name.2.lang", problem: "en appears twice" },
    ]);
  });

  it("round-trips a battle pass and a level with two challenges", () => {
    const pass = {
      battle_pass_id: "1",
      app_id: "1",
      key: "season-1",
      battle_pass_name: { en: "S1" },
      battle_pass_description: { en: "Desc" },
      battle_pass_short_description: "",
      battle_pass_disclaimer: "",
      battle_pass_priority: 2,
      package_sku_ios: "ios",
      package_sku_android: "",
      image_xs: "xs",
      image_s: "",
      image_m: "",
      image_l: "",
      image_xl: "",
      start_date: "2026-01-01T00:00:00.000Z",
      end_date: "2026-04-01T12:30:00.000Z",
      read_more_link: "",
      is_unlocked_incrementally: false,
      is_active: true,
      can_purchase_with_money: true,
      can_purchase_with_coins: false,
      backend_only_unlock: false,
      expired_at: null,
      ...stamps,
    };
    const parsedPass = BattlePassInput.parse(decodePass(passToForm(pass, "en")).input);
    expect(parsedPass).toMatchObject({
      key: "season-1",
      battle_pass_name: { en: "S1" },
      battle_pass_short_description: "",
      is_unlocked_incrementally: false,
      can_purchase_with_money: true,
      end_date: "2026-04-01T12:30:00Z",
      battle_pass_priority: 2,
    });

    const challenge = (id: string, goal: number): z.infer<typeof LevelAdmin>["challenges"][number] => ({
      challenge_id: id,
      key: `goal-${goal}`,
      challenge_name: { en: `Goal ${goal}` },
      challenge_goal: goal,
      challenge_goal_condition: 0,
      challenge_xp: 1,
      challenge_icon: "",
      challenge_icon_hd: "",
      event_name: "collect-item",
      value_field: null,
      filters: [{ field: "item_type", op: "eq", value: "coin" }],
      counter_scope: "session",
    });
    const level: z.infer<typeof LevelAdmin> = {
      level_id: "4",
      app_id: "1",
      battle_pass_id: "1",
      key: "level-4",
      level_priority: 3,
      reward_amount: "100",
      reward_type_name: "Coins",
      level_reward_type: "coin",
      reward_webhook_url: "https://game.example/reward",
      points_rewards: [{ system: "coins", amount: 25 }],
      challenges: [challenge("8", 5), challenge("9", 10)],
      ...stamps,
    };
    const decoded = decodeLevel(levelToForm(level, "en"));
    expect(LevelInput.parse(decoded.input)).toEqual({
      key: "level-4",
      level_priority: 3,
      reward_amount: "100",
      reward_type_name: "Coins",
      level_reward_type: "coin",
      reward_webhook_url: "https://game.example/reward",
      points_rewards: [{ system: "coins", amount: 25 }],
      challenges: level.challenges,
    });
  });

  it("leaves a level challenge nobody filled in out", () => {
    const decoded = decodeLevel({
      "challenges.0.challenge_name.0.lang": "en",
      "challenges.0.challenge_name.0.text": "One",
      "challenges.0.challenge_goal": "1",
      "challenges.0.event_name": "e",
      "challenges.1.challenge_name.0.lang": "en",
      "challenges.1.challenge_name.0.text": "",
      "challenges.1.challenge_goal_condition": "0",
      "challenges.1.counter_scope": "session",
    });
    expect((decoded.input.challenges as unknown[]).length).toBe(1);
  });

  it("round-trips a leaderboard", () => {
    const board: z.infer<typeof LeaderboardAdmin> = {
      leaderboard_id: "1",
      app_id: "1",
      key: "laps",
      name: { en: "Laps" },
      event_name: "finish-laps",
      value_field: "required_time",
      filters: [],
      aggregation: "min",
      sort_order_ascending: true,
      period_range: "d",
      period_range_reset_at_time: "04:00:00",
      period_range_time_zone: "Asia/Tokyo",
      season_started_at: "2026-01-01T00:00:00.000Z",
      nextReset: null,
      authoritative: false,
      min_value: null,
      max_value: null,
      max_events_per_minute: null,
      ...stamps,
    };
    expect(LeaderboardInput.parse(decodeLeaderboard(leaderboardToForm(board, "en")).input)).toEqual({
      key: "laps",
      name: { en: "Laps" },
      event_name: "finish-laps",
      points_system: null,
      value_field: "required_time",
      filters: [],
      aggregation: "min",
      sort_order_ascending: true,
      period_range: "d",
      period_range_reset_at_time: "04:00:00",
      period_range_time_zone: "Asia/Tokyo",
      authoritative: false,
      min_value: null,
      max_value: null,
      max_events_per_minute: null,
    });
    const coins = { ...board, event_name: "", points_system: "coins", value_field: null };
    expect(LeaderboardInput.parse(decodeLeaderboard(leaderboardToForm(coins, "en")).input)).toMatchObject({
      event_name: undefined,
      points_system: "coins",
    });
  });

  it("leaves an empty key out, so that a create derives one from the id and a replace keeps the stored one", () => {
    const decoded = decodeChallenge({
      key: "  ",
      category_id: "1",
      "challenge_name.0.lang": "en",
      "challenge_name.0.text": "Run",
      challenge_goal: "1",
      event_name: "e",
    });
    expect(decoded.input.key).toBeUndefined();
    expect(ChallengeInput.parse(decoded.input).key).toBeUndefined();
    for (const decode of [decodePass, decodeLeaderboard, decodeLevel, decodeWebhook])
      expect(decode({ key: "" }).input.key).toBeUndefined();
    expect(
      decodeWebhook({ key: "game-server", webhook_type: "challenge-changed", url: "https://x.example" }).input.key,
    ).toBe("game-server");
  });

  it("names a level challenge key given twice where the second one is", () => {
    const row = (i: number, key: string) => ({
      [`challenges.${i}.key`]: key,
      [`challenges.${i}.challenge_name.0.lang`]: "en",
      [`challenges.${i}.challenge_name.0.text`]: `C${i}`,
      [`challenges.${i}.challenge_goal`]: "1",
      [`challenges.${i}.event_name`]: "e",
    });
    const parsed = LevelInput.safeParse(
      decodeLevel({ ...row(0, "coins"), ...row(1, "gems"), ...row(2, "coins") }).input,
    );
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["challenges.2.key", "'coins' is the key of another challenge of this level"],
    ]);
  });

  it("builds an event with the catalog's number fields as integers and custom fields by their text", () => {
    const decoded = decodeEvent({
      user_id: "p1",
      event_name: "kill-enemy",
      "meta_data.amount": "3",
      "meta_data.weapon_used": "42",
      "meta_data.realm": "",
      "custom.0.key": "level",
      "custom.0.value": "7",
      "custom.1.key": "mood",
      "custom.1.value": "happy",
      "custom.2.key": "",
      "custom.2.value": "",
    });
    expect(decoded.input).toEqual({
      user_id: "p1",
      event_name: "kill-enemy",
      event_type: undefined,
      session_id: undefined,
      team_id: undefined,
      event_id: undefined,
      meta_data: { amount: 3, weapon_used: "42", level: 7, mood: "happy" },
    });
  });

  it("reads a datetime-local value as UTC and shows an instant in UTC", () => {
    const read = (value: string) => readDateTime(new FormReader({ at: value }), "at");
    expect([read("2026-05-06T07:08"), read("2026-05-06T07:08:09"), read("tomorrow"), read("")]).toEqual([
      "2026-05-06T07:08:00Z",
      "2026-05-06T07:08:09Z",
      "tomorrow",
      undefined,
    ]);
    expect(dateTimeToForm("2026-05-06T07:08:00.000Z")).toBe("2026-05-06T07:08");
    expect(dateTimeToForm(null)).toBe("");
  });
});
