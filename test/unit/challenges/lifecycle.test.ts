import { describe, expect, it } from "vitest";
import {
  ChallengeStateError,
  activate,
  cancel,
  claim,
  countEvent,
  mayRefresh,
  refresh,
  unlock,
  type Instance,
  type TouchContext,
} from "../../../src/challenges/core/lifecycle";
import type { ChallengeDef } from "../../../src/challenges/core/model";
import type { CounterEvent } from "../../../src/rules/counter";
import { challenge } from "./support";

const T0 = Date.parse("2024-05-06T10:00:00Z");

/** A manual challenge that completes at 3 kills (support.ts's challenge otherwise). */
const def = (over: Partial<ChallengeDef> = {}): ChallengeDef => {
  const base = challenge("7");
  return { ...base, goal: 3, counter: { ...base.counter, goal: 3 }, ...over };
};

let ids = 0;
const ctx = (over: Partial<TouchContext> = {}): TouchContext => ({
  now: T0,
  newId: () => String(++ids),
  available: true,
  autoStart: true,
  ...over,
});

const inst = (over: Partial<Instance> = {}): Instance => ({
  userChallengeId: "100",
  type: "in-progress",
  score: 0,
  lastSessionId: null,
  unlockedAt: T0 - 1000,
  activatedAt: T0 - 1000,
  expiresAt: null,
  isClaimed: false,
  periodStart: null,
  ...over,
});

const kill = (amount = 1, sessionId = "s1"): CounterEvent => ({
  eventName: "kill-enemy",
  eventType: "single",
  sessionId,
  metaData: { amount },
});

describe("unlock", () => {
  it("unlock -> unlocked, sets unlocked_at, counts one unlock", () => {
    const out = unlock(def(), null, ctx());
    expect(out.next).toMatchObject({ type: "unlocked", unlockedAt: T0, activatedAt: null, score: 0 });
    expect(out.unlocks).toBe(1);
    expect(out.transitions).toEqual([
      { challengeId: "7", before: { type: "unlock", instance: null }, after: { type: "unlocked", instance: out.next } },
    ]);
  });
  it.each(["unlocked", "in-progress", "unclaimed", "finished", "gone"] as const)("refuses from %s", (type) => {
    expect(() => unlock(def(), inst({ type }), ctx())).toThrow(ChallengeStateError);
  });
});

describe("activate", () => {
  it("unlocked -> in-progress, keeps the id and unlock time, sets activation and expiry", () => {
    const unlocked = inst({ type: "unlocked", activatedAt: null, unlockedAt: T0 - 5000 });
    const out = activate(def({ durationSeconds: 60 }), unlocked, ctx());
    expect(out.next).toMatchObject({
      type: "in-progress",
      userChallengeId: "100",
      unlockedAt: T0 - 5000,
      activatedAt: T0,
      expiresAt: T0 + 60_000,
    });
    expect(out.unlocks).toBe(0);
    expect(out.transitions[0].before.type).toBe("unlocked");
    expect(out.transitions[0].after.type).toBe("in-progress");
  });
  it("no expiry with duration -1", () => {
    expect(activate(def(), inst({ type: "unlocked" }), ctx()).next!.expiresAt).toBeNull();
  });
  it("refuses from unlock and every later state", () => {
    expect(() => activate(def(), null, ctx())).toThrow(ChallengeStateError);
    for (const type of ["in-progress", "unclaimed", "finished"] as const) {
      expect(() => activate(def(), inst({ type }), ctx())).toThrow(
        /only a challenge in state unlocked can be activated/,
      );
    }
  });
});

describe("events (rule 4: only in-progress counts)", () => {
  it("counts toward the goal and reports each counter change", () => {
    const out = countEvent(def(), inst(), kill(2));
    expect(out.next).toMatchObject({ type: "in-progress", score: 2, lastSessionId: "s1" });
    expect(out.transitions).toHaveLength(1);
    expect(out.transitions[0].before.instance!.score).toBe(0);
    expect(out.transitions[0].after.instance!.score).toBe(2);
  });
  it("in-progress -> unclaimed when the goal is reached", () => {
    const out = countEvent(def(), inst({ score: 2, expiresAt: T0 + 1000 }), kill(1));
    expect(out.next).toMatchObject({ type: "unclaimed", score: 3, expiresAt: null, isClaimed: false });
    expect(out.transitions[0].after.type).toBe("unclaimed");
  });
  it("goal condition 1: unclaimed when an event leaves the counter at or below the goal", () => {
    const d = def({ goal: 50, goalCondition: 1, counter: { ...def().counter, goal: 50, goalCondition: 1 } });
    const out = countEvent(d, inst(), { ...kill(45), eventType: "group" });
    expect(out.next!.type).toBe("unclaimed");
  });
  it.each(["unlocked", "unclaimed", "finished", "gone"] as const)("ignores events while %s", (type) => {
    const i = inst({ type, score: 1 });
    expect(countEvent(def(), i, kill(5))).toEqual({ next: i, transitions: [], unlocks: 0 });
    expect(countEvent(def(), null, kill(5))).toEqual({ next: null, transitions: [], unlocks: 0 });
  });
  it("a filtered-out event changes nothing visible", () => {
    const d = def({ counter: { ...def().counter, filters: [{ field: "weapon_used", op: "eq", value: "bow" }] } });
    const out = countEvent(d, inst({ score: 1, lastSessionId: "s1" }), kill(1));
    expect(out.transitions).toEqual([]);
    expect(out.next!.score).toBe(1);
  });
  it("an automatic challenge is claimed by the service: in-progress -> finished", () => {
    const out = countEvent(def({ autoActivated: true }), inst({ score: 2 }), kill(1));
    expect(out.next).toMatchObject({ type: "finished", isClaimed: true, score: 3 });
  });
  it("a repeatable automatic challenge without a period starts again at the next touch", () => {
    const d = def({ autoActivated: true, repeatable: true });
    const out = countEvent(d, inst({ score: 2 }), kill(1));
    expect(out.next).toBeNull();
    expect(out.transitions[0].after).toMatchObject({ type: "finished", instance: { score: 3, isClaimed: true } });
    expect(refresh(d, null, ctx()).next).toMatchObject({ type: "in-progress", score: 0 });
  });
  it("a periodic automatic challenge stays finished until the next period", () => {
    const d = def({
      autoActivated: true,
      repeatable: true,
      period: { period: "d", resetAtTime: "00:00:00", timeZone: "UTC" },
    });
    const out = countEvent(d, inst({ score: 2, periodStart: Date.parse("2024-05-06T00:00:00Z") }), kill(1));
    expect(out.next!.type).toBe("finished");
    expect(refresh(d, out.next, ctx({ now: Date.parse("2024-05-06T23:59:59Z") })).transitions).toEqual([]);
  });
});

describe("claim", () => {
  it("unclaimed -> finished with is_claimed", () => {
    const out = claim(def(), inst({ type: "unclaimed", score: 3 }));
    expect(out.next).toMatchObject({ type: "finished", isClaimed: true, score: 3 });
    expect(out.transitions[0].before.type).toBe("unclaimed");
    expect(out.transitions[0].after.type).toBe("finished");
  });
  it("a repeatable challenge is offered again as unlock after the claim", () => {
    const out = claim(def({ repeatable: true }), inst({ type: "unclaimed", score: 3 }));
    expect(out.next).toBeNull();
    expect(out.transitions[0].after.type).toBe("finished");
  });
  it.each(["unlocked", "in-progress", "finished"] as const)("refuses from %s", (type) => {
    expect(() => claim(def(), inst({ type }))).toThrow(/only a challenge in state unclaimed can be claimed/);
  });
  it("refuses from unlock", () => {
    expect(() => claim(def(), null)).toThrow(ChallengeStateError);
  });
});

describe("cancel", () => {
  it("in-progress -> cancelled notification; repeatable: back to unlock", () => {
    const i = inst({ score: 2 });
    const out = cancel(def({ repeatable: true }), i);
    expect(out.next).toBeNull();
    expect(out.transitions).toEqual([
      { challengeId: "7", before: { type: "in-progress", instance: i }, after: { type: "cancelled", instance: i } },
    ]);
  });
  it("not repeatable: gone for that user", () => {
    expect(cancel(def(), inst()).next).toMatchObject({ type: "gone", expiresAt: null });
  });
  it.each(["unlocked", "unclaimed", "finished"] as const)("refuses from %s", (type) => {
    expect(() => cancel(def(), inst({ type }))).toThrow(/only a challenge in state in-progress can be cancelled/);
  });
  it("refuses from unlock and gone", () => {
    expect(() => cancel(def(), null)).toThrow(ChallengeStateError);
    expect(() => cancel(def(), inst({ type: "gone" }))).toThrow(/no longer available/);
  });
});

describe("time-out", () => {
  const running = inst({ score: 1, expiresAt: T0 });
  it("nothing before the expiry", () => {
    expect(refresh(def({ repeatable: true }), running, ctx({ now: T0 - 1 }))).toEqual({
      next: running,
      transitions: [],
      unlocks: 0,
    });
  });
  it("repeatable: a lost notification, then unlock again", () => {
    const out = refresh(def({ repeatable: true }), running, ctx());
    expect(out.next).toBeNull();
    expect(out.transitions).toEqual([
      {
        challengeId: "7",
        before: { type: "in-progress", instance: running },
        after: { type: "lost", instance: running },
      },
    ]);
  });
  it("not repeatable: lost, then gone", () => {
    const out = refresh(def(), running, ctx());
    expect(out.next).toMatchObject({ type: "gone" });
    expect(out.transitions.map((t) => t.after.type)).toEqual(["lost"]);
  });
  it("a repeatable automatic challenge restarts at a touch, not at the alarm", () => {
    const d = def({ repeatable: true, autoActivated: true, durationSeconds: 60 });
    const atAlarm = refresh(d, running, ctx({ autoStart: false }));
    expect(atAlarm.next).toBeNull();
    expect(atAlarm.unlocks).toBe(0);
    const atTouch = refresh(d, running, ctx());
    expect(atTouch.transitions.map((t) => [t.before.type, t.after.type])).toEqual([
      ["in-progress", "lost"],
      ["unlock", "in-progress"],
    ]);
    expect(atTouch.next).toMatchObject({ type: "in-progress", score: 0, activatedAt: T0, expiresAt: T0 + 60_000 });
    expect(atTouch.unlocks).toBe(1);
  });
  it("unclaimed challenges do not time out", () => {
    const done = inst({ type: "unclaimed", expiresAt: null });
    expect(refresh(def(), done, ctx({ now: T0 + 1e9 })).transitions).toEqual([]);
  });
});

describe("automatic challenges and periodic resets", () => {
  const daily = def({
    autoActivated: true,
    repeatable: true,
    period: { period: "d", resetAtTime: "06:00:00", timeZone: "Europe/Berlin" },
  });
  it("unlock -> in-progress on the first touch, counted as an unlock", () => {
    const out = refresh(daily, null, ctx());
    expect(out.next).toMatchObject({
      type: "in-progress",
      unlockedAt: T0,
      activatedAt: T0,
      periodStart: Date.parse("2024-05-06T04:00:00Z"),
    });
    expect(out.unlocks).toBe(1);
    expect(out.transitions.map((t) => [t.before.type, t.after.type])).toEqual([["unlock", "in-progress"]]);
  });
  it("not before its live date or when not picked today", () => {
    expect(refresh(daily, null, ctx({ available: false }))).toEqual({ next: null, transitions: [], unlocks: 0 });
  });
  it("unlocked -> in-progress on a touch once the challenge is automatic, not counted again", () => {
    const unlocked = inst({ type: "unlocked", activatedAt: null, unlockedAt: T0 - 5000 });
    const out = refresh(def({ autoActivated: true, durationSeconds: 10 }), unlocked, ctx());
    expect(out.next).toMatchObject({
      type: "in-progress",
      userChallengeId: "100",
      unlockedAt: T0 - 5000,
      activatedAt: T0,
      expiresAt: T0 + 10_000,
    });
    expect(out.unlocks).toBe(0);
    expect(out.transitions.map((t) => [t.before.type, t.after.type])).toEqual([["unlocked", "in-progress"]]);
  });
  it("manual challenges never start by themselves", () => {
    expect(refresh(def(), null, ctx()).next).toBeNull();
  });
  it("resets at the next period: a fresh in-progress instance with a new id", () => {
    const old = inst({ type: "finished", score: 3, isClaimed: true, periodStart: Date.parse("2024-05-05T04:00:00Z") });
    const out = refresh(daily, old, ctx());
    expect(out.next).toMatchObject({
      type: "in-progress",
      score: 0,
      isClaimed: false,
      periodStart: Date.parse("2024-05-06T04:00:00Z"),
    });
    expect(out.next!.userChallengeId).not.toBe(old.userChallengeId);
    expect(out.transitions.map((t) => [t.before.type, t.after.type])).toEqual([["finished", "in-progress"]]);
    expect(out.unlocks).toBe(1);
  });
  it("at the alarm a reset only clears", () => {
    const old = inst({ score: 2, periodStart: Date.parse("2024-05-05T04:00:00Z") });
    const out = refresh(daily, old, ctx({ autoStart: false }));
    expect(out.next).toBeNull();
    expect(out.transitions.map((t) => [t.before.type, t.after.type])).toEqual([["in-progress", "unlock"]]);
  });
  it("within the same period nothing happens", () => {
    const current = inst({ score: 2, periodStart: Date.parse("2024-05-06T04:00:00Z") });
    expect(refresh(daily, current, ctx({ now: Date.parse("2024-05-07T03:59:59Z") })).transitions).toEqual([]);
  });
  it("gone challenges stay gone", () => {
    const gone = inst({ type: "gone" });
    expect(refresh(def({ autoActivated: true }), gone, ctx())).toEqual({ next: gone, transitions: [], unlocks: 0 });
  });
});

describe("mayRefresh: when refresh can be skipped", () => {
  const manual = [
    def(),
    def({ repeatable: true }),
    def({ durationSeconds: 60 }),
    def({ period: { period: "d", resetAtTime: "06:00:00", timeZone: "Europe/Berlin" } }),
  ];
  it("a manual challenge never started: refresh changes nothing in any context", () => {
    for (const d of manual) {
      expect(mayRefresh(d, null)).toBe(false);
      for (const over of [{}, { available: false }, { autoStart: false }, { now: T0 + 400 * 86_400_000 }]) {
        expect(refresh(d, null, ctx(over))).toEqual({ next: null, transitions: [], unlocks: 0 });
      }
    }
  });
  it("an automatic challenge, or any challenge with an instance, is refreshed", () => {
    expect(mayRefresh(def({ autoActivated: true }), null)).toBe(true);
    expect(mayRefresh(def(), inst())).toBe(true);
    expect(mayRefresh(def(), inst({ type: "unlocked" }))).toBe(true);
  });
});
