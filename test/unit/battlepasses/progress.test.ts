import { describe, expect, it } from "vitest";
import {
  activateLevel,
  applyEvent,
  changedChallenges,
  claimLevel,
  isPassCompleted,
  unlockPass,
  viewLevels,
  type ChallengeDef,
  type PassDef,
  type PassProgress,
} from "../../../src/battlepasses/core/progress";
import type { CounterEvent } from "../../../src/rules/counter";

const START = Date.parse("2030-01-01T00:00:00Z");
const END = Date.parse("2030-02-01T00:00:00Z");
const DURING = START + 1000;

const challenge = (
  challengeId: string,
  eventName: string,
  goal: number,
  extra: Partial<ChallengeDef> = {},
): ChallengeDef => ({
  challengeId,
  eventName,
  valueField: null,
  filters: [],
  goal,
  goalCondition: 0,
  counterScope: "session",
  ...extra,
});

function pass(incremental: boolean, extra: Partial<PassDef> = {}): PassDef {
  return {
    battlePassId: "7",
    startMs: START,
    endMs: END,
    enabled: true,
    incremental,
    levels: [
      { levelId: "10", challenges: [challenge("100", "kill-enemy", 2), challenge("101", "collect-item", 3)] },
      { levelId: "11", challenges: [challenge("110", "kill-enemy", 1)] },
      {
        levelId: "12",
        challenges: [challenge("120", "finish-laps", 50, { goalCondition: 1, valueField: "required_time" })],
      },
    ],
    ...extra,
  };
}

const event = (
  eventName: string,
  metaData: CounterEvent["metaData"] = {},
  extra: Partial<CounterEvent> = {},
): CounterEvent => ({
  eventName,
  eventType: "single",
  sessionId: "s1",
  metaData,
  ...extra,
});

function unlocked(def: PassDef, at = DURING): PassProgress {
  const outcome = unlockPass(def, null, { price: 4.99, currency: "EUR" }, at);
  if (!outcome.ok) throw new Error(outcome.conflict);
  return outcome.value;
}

function activated(def: PassDef, progress: PassProgress, levelId: string, at = DURING): PassProgress {
  const outcome = activateLevel(def, progress, levelId, at);
  if (!outcome.ok) throw new Error(outcome.conflict);
  return outcome.value;
}

const types = (def: PassDef, progress: PassProgress | null, now = DURING) =>
  viewLevels(def, progress, now).map((l) => l.challenges.map((c) => `${c.type}:${c.score}`));

describe("battle pass progress: unlocking and the first level", () => {
  it("shows every challenge as unlock and no level activated before the pass is unlocked", () => {
    const view = viewLevels(pass(true), null, DURING);
    expect(view.map((l) => [l.activatedAt, l.completed, l.rewardClaimed])).toEqual([
      [null, false, false],
      [null, false, false],
      [null, false, false],
    ]);
    expect(types(pass(true), null)).toEqual([["unlock:0", "unlock:0"], ["unlock:0"], ["unlock:0"]]);
  });

  it("activates the first level at unlock time and records the purchase", () => {
    const def = pass(true);
    const progress = unlocked(def);
    expect(progress).toEqual({
      unlockedAt: DURING,
      purchasePrice: 4.99,
      purchaseCurrency: "EUR",
      levels: {},
      challenges: {},
    });
    expect(viewLevels(def, progress, DURING).map((l) => l.activatedAt)).toEqual([DURING, null, null]);
    expect(types(def, progress)).toEqual([["in-progress:0", "in-progress:0"], ["unlock:0"], ["unlock:0"]]);
  });

  it("answers the same progress when unlocking again, even after the end", () => {
    const def = pass(true);
    const progress = unlocked(def);
    const again = unlockPass(def, progress, { price: 0, currency: "" }, END + 5);
    expect(again).toEqual({ ok: true, value: progress });
    if (again.ok) expect(again.value).toBe(progress);
  });

  it("refuses to unlock a pass that ended or is switched off", () => {
    expect(unlockPass(pass(true), null, { price: 0, currency: "" }, END)).toEqual({
      ok: false,
      conflict: "Battle pass 7 has ended",
    });
    expect(unlockPass(pass(true, { enabled: false }), null, { price: 0, currency: "" }, DURING)).toEqual({
      ok: false,
      conflict: "Battle pass 7 is not active",
    });
  });

  it("may be unlocked before the season starts, but does not track until start_date", () => {
    const def = pass(true);
    const progress = unlocked(def, START - 10);
    expect(types(def, progress, START - 5)).toEqual([["unlock:0", "unlock:0"], ["unlock:0"], ["unlock:0"]]);
    expect(applyEvent(def, progress, event("kill-enemy"), START - 5)).toBe(progress);
    expect(types(def, progress, START)).toEqual([["in-progress:0", "in-progress:0"], ["unlock:0"], ["unlock:0"]]);
  });
});

describe("battle pass progress: events", () => {
  it("ignores events on a pass that is not unlocked", () => {
    expect(applyEvent(pass(true), null, event("kill-enemy"), DURING)).toBeNull();
  });

  it("counts events only between start_date (inclusive) and end_date (exclusive)", () => {
    const def = pass(true);
    const progress = unlocked(def, START - 100);
    expect(applyEvent(def, progress, event("kill-enemy"), START - 1)).toBe(progress);
    expect(applyEvent(def, progress, event("kill-enemy"), END)).toBe(progress);
    const counted = applyEvent(def, progress, event("kill-enemy"), START)!;
    expect(counted.challenges["100"]).toEqual({ counter: { score: 1, lastSessionId: "s1" }, completedAt: null });
  });

  it("ignores events on a pass switched off by the admin", () => {
    const def = pass(true);
    const progress = unlocked(def);
    expect(applyEvent({ ...def, enabled: false }, progress, event("kill-enemy"), DURING)).toBe(progress);
  });

  it("moves only challenges of activated levels that listen to the event, with the shared counter rules", () => {
    const def = pass(true);
    let progress = unlocked(def);
    progress = applyEvent(def, progress, event("collect-item", { amount: 2, item_type: "gem" }), DURING)!;
    expect(types(def, progress)).toEqual([["in-progress:0", "in-progress:2"], ["unlock:0"], ["unlock:0"]]);
    // A group event replaces the counter.
    progress = applyEvent(def, progress, event("collect-item", { amount: 1 }, { eventType: "group" }), DURING)!;
    expect(types(def, progress)).toEqual([["in-progress:0", "in-progress:1"], ["unlock:0"], ["unlock:0"]]);
    // A new session resets a session-scoped counter before adding.
    progress = applyEvent(def, progress, event("collect-item", { amount: 1 }, { sessionId: "s2" }), DURING)!;
    expect(types(def, progress)).toEqual([["in-progress:0", "in-progress:1"], ["unlock:0"], ["unlock:0"]]);
  });

  it("completes a challenge when it reaches its goal and stops counting it", () => {
    const def = pass(true);
    let progress = unlocked(def);
    progress = applyEvent(def, progress, event("kill-enemy", { amount: 5 }), DURING + 1)!;
    expect(progress.challenges["100"]).toEqual({ counter: { score: 5, lastSessionId: "s1" }, completedAt: DURING + 1 });
    expect(applyEvent(def, progress, event("kill-enemy"), DURING + 2)).toBe(progress);
    expect(types(def, progress)).toEqual([["unclaimed:5", "in-progress:0"], ["unlock:0"], ["unlock:0"]]);
  });

  it("applies goal condition 1 (stay at or below the goal) after a matching event only", () => {
    const def = pass(false);
    let progress = unlocked(def);
    progress = activated(def, progress, "12");
    progress = applyEvent(def, progress, event("finish-laps", { lap_position: 1 }), DURING)!;
    expect(progress.challenges["120"]?.completedAt ?? null).toBeNull();
    progress = applyEvent(def, progress, event("finish-laps", { required_time: 62 }, { eventType: "group" }), DURING)!;
    expect(progress.challenges["120"].completedAt).toBeNull();
    progress = applyEvent(
      def,
      progress,
      event("finish-laps", { required_time: 48 }, { eventType: "group" }),
      DURING + 3,
    )!;
    expect(progress.challenges["120"]).toEqual({
      counter: { score: 48, lastSessionId: "s1" },
      completedAt: DURING + 3,
    });
  });
});

describe("battle pass progress: incremental levels", () => {
  it("activates the next level when the previous completes; the completing event does not count for it", () => {
    const def = pass(true);
    let progress = unlocked(def);
    progress = applyEvent(def, progress, event("kill-enemy", { amount: 2 }), DURING + 1)!;
    expect(viewLevels(def, progress, DURING + 1)[1].activatedAt).toBeNull();
    progress = applyEvent(def, progress, event("collect-item", { amount: 3 }), DURING + 2)!;
    const view = viewLevels(def, progress, DURING + 2);
    expect(view.map((l) => [l.activatedAt, l.completed, l.completedAt])).toEqual([
      [DURING, true, DURING + 2],
      [DURING + 2, false, null],
      [null, false, null],
    ]);
    expect(types(def, progress)).toEqual([["unclaimed:2", "unclaimed:3"], ["in-progress:0"], ["unlock:0"]]);
    progress = applyEvent(def, progress, event("kill-enemy"), DURING + 3)!;
    expect(types(def, progress)).toEqual([["unclaimed:2", "unclaimed:3"], ["unclaimed:1"], ["in-progress:0"]]);
  });

  it("does not let a later level be activated by hand, and answers OK for an active one", () => {
    const def = pass(true);
    const progress = unlocked(def);
    expect(activateLevel(def, progress, "11", DURING)).toEqual({
      ok: false,
      conflict: "The levels of this battle pass are activated one after the other: complete the previous level first",
    });
    const first = activateLevel(def, progress, "10", DURING);
    expect(first.ok && first.value).toBe(progress);
  });
});

describe("battle pass progress: freely activated levels", () => {
  it("activates any level on request, several at a time, and counts events for each", () => {
    const def = pass(false);
    let progress = unlocked(def);
    expect(types(def, progress)).toEqual([["in-progress:0", "in-progress:0"], ["unlock:0"], ["unlock:0"]]);
    progress = activated(def, progress, "11", DURING + 5);
    expect(progress.levels["11"]).toEqual({ activatedAt: DURING + 5, claimedAt: null });
    expect(viewLevels(def, progress, DURING + 5).map((l) => l.activatedAt)).toEqual([DURING, DURING + 5, null]);
    progress = applyEvent(def, progress, event("kill-enemy"), DURING + 6)!;
    expect(types(def, progress)).toEqual([["in-progress:1", "in-progress:0"], ["unclaimed:1"], ["unlock:0"]]);
  });

  it("refuses activation on a pass not unlocked or ended", () => {
    const def = pass(false);
    expect(activateLevel(def, null, "11", DURING)).toEqual({ ok: false, conflict: "Battle pass 7 is not unlocked" });
    expect(activateLevel(def, unlocked(def), "11", END)).toEqual({ ok: false, conflict: "Battle pass 7 has ended" });
  });

  it("does not complete the next level when the previous completes", () => {
    const def = pass(false);
    let progress = unlocked(def);
    progress = applyEvent(def, progress, event("kill-enemy", { amount: 2 }), DURING)!;
    progress = applyEvent(def, progress, event("collect-item", { amount: 3 }), DURING)!;
    expect(viewLevels(def, progress, DURING).map((l) => l.activatedAt)).toEqual([DURING, null, null]);
  });
});

describe("battle pass progress: claiming level rewards", () => {
  it("refuses to claim a level that is not completed, then claims once, then refuses again", () => {
    const def = pass(true);
    let progress = unlocked(def);
    expect(claimLevel(def, null, "10", DURING)).toEqual({ ok: false, conflict: "Level 10 is not completed" });
    expect(claimLevel(def, progress, "10", DURING)).toEqual({ ok: false, conflict: "Level 10 is not completed" });
    progress = applyEvent(def, progress, event("kill-enemy", { amount: 2 }), DURING)!;
    expect(claimLevel(def, progress, "10", DURING)).toEqual({ ok: false, conflict: "Level 10 is not completed" });
    progress = applyEvent(def, progress, event("collect-item", { amount: 3 }), DURING)!;
    const claimed = claimLevel(def, progress, "10", DURING + 9);
    expect(claimed.ok).toBe(true);
    if (!claimed.ok) return;
    expect(claimed.value.levels["10"]).toEqual({ activatedAt: null, claimedAt: DURING + 9 });
    expect(types(def, claimed.value)).toEqual([["finished:2", "finished:3"], ["in-progress:0"], ["unlock:0"]]);
    expect(viewLevels(def, claimed.value, DURING)[0].rewardClaimed).toBe(true);
    expect(claimLevel(def, claimed.value, "10", DURING + 10)).toEqual({
      ok: false,
      conflict: "The reward of level 10 was already claimed",
    });
  });

  it("still allows claiming after the end: progress stays as achieved", () => {
    const def = pass(true);
    let progress = unlocked(def);
    progress = applyEvent(def, progress, event("kill-enemy", { amount: 2 }), DURING)!;
    progress = applyEvent(def, progress, event("collect-item", { amount: 3 }), DURING)!;
    expect(claimLevel(def, progress, "10", END + 1000).ok).toBe(true);
  });
});

describe("battle pass progress: the end of the season", () => {
  it("turns unfinished challenges of activated levels into overtime and keeps every counter", () => {
    const def = pass(true);
    let progress = unlocked(def);
    progress = applyEvent(def, progress, event("kill-enemy", { amount: 2 }), DURING)!;
    progress = applyEvent(def, progress, event("collect-item", { amount: 1 }), DURING)!;
    expect(types(def, progress, END)).toEqual([["unclaimed:2", "overtime:1"], ["unlock:0"], ["unlock:0"]]);
  });

  it("reports a pass completed only when every level is", () => {
    const def = pass(false);
    let progress = unlocked(def);
    progress = activated(def, activated(def, progress, "11"), "12");
    progress = applyEvent(def, progress, event("kill-enemy", { amount: 2 }), DURING)!;
    progress = applyEvent(def, progress, event("collect-item", { amount: 3 }), DURING)!;
    expect(isPassCompleted(def, progress)).toBe(false);
    progress = applyEvent(def, progress, event("finish-laps", { required_time: 40 }), DURING)!;
    expect(isPassCompleted(def, progress)).toBe(true);
    expect(isPassCompleted({ ...def, levels: [] }, progress)).toBe(false);
  });
});

describe("battle pass progress: change detection", () => {
  it("lists the challenges whose counter or type moved, with their positions", () => {
    const def = pass(true);
    const before = unlocked(def);
    const afterOne = applyEvent(def, before, event("kill-enemy", { amount: 2 }), DURING)!;
    const afterTwo = applyEvent(def, afterOne, event("collect-item", { amount: 3 }), DURING)!;
    const changes = changedChallenges(viewLevels(def, afterOne, DURING), viewLevels(def, afterTwo, DURING));
    expect(changes.map((c) => [c.level.index, c.new.index, c.old.type, c.new.type, c.old.score, c.new.score])).toEqual([
      [0, 1, "in-progress", "unclaimed", 0, 3],
      [1, 0, "unlock", "in-progress", 0, 0],
    ]);
    expect(changedChallenges(viewLevels(def, afterTwo, DURING), viewLevels(def, afterTwo, DURING))).toEqual([]);
  });
});
