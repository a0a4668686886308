import { describe, expect, it } from "vitest";
import {
  INITIAL_COUNTER,
  applyCounter,
  eventAmount,
  isGoalReached,
  matchesEvent,
  stepCounter,
  type CounterDef,
  type CounterEvent,
  type CounterFilter,
} from "../../../src/rules/counter";

const def = (over: Partial<CounterDef> = {}): CounterDef => ({
  eventName: "kill-enemy",
  valueField: null,
  filters: [],
  goal: 5,
  goalCondition: 0,
  counterScope: "session",
  ...over,
});

const ev = (over: Partial<CounterEvent> = {}): CounterEvent => ({
  eventName: "kill-enemy",
  eventType: "single",
  sessionId: "s1",
  metaData: { amount: 1 },
  ...over,
});

const run = (d: CounterDef, events: CounterEvent[]) => events.reduce((s, e) => applyCounter(s, d, e), INITIAL_COUNTER);

describe("rule 1: single adds the amount", () => {
  it("adds each amount", () => {
    expect(run(def(), [ev({ metaData: { amount: 2 } }), ev({ metaData: { amount: 3 } })])).toEqual({
      score: 5,
      lastSessionId: "s1",
    });
  });
  it("counts 1 per event without an amount", () => {
    expect(run(def(), [ev({ metaData: {} }), ev({ metaData: { weapon: "x" } })]).score).toBe(2);
  });
  it("reads a numeric string amount", () => {
    expect(eventAmount(def(), ev({ metaData: { amount: "7" } }))).toBe(7);
  });
});

describe("rule 2: group replaces", () => {
  it("replaces the counter", () => {
    expect(
      run(def(), [ev({ metaData: { amount: 4 } }), ev({ eventType: "group", metaData: { amount: 2 } })]).score,
    ).toBe(2);
  });
  it("a group event with 0 resets", () => {
    expect(
      run(def(), [ev({ metaData: { amount: 4 } }), ev({ eventType: "group", metaData: { amount: 0 } })]).score,
    ).toBe(0);
  });
  it("mixes with single: group 3 then single 1 gives 4", () => {
    expect(
      run(def(), [ev({ eventType: "group", metaData: { amount: 3 } }), ev({ metaData: { amount: 1 } })]).score,
    ).toBe(4);
  });
});

describe("rule 3: a new session resets at its first event", () => {
  it("resets a session-scoped counter", () => {
    const s = run(def(), [ev({ metaData: { amount: 3 } }), ev({ sessionId: "s2", metaData: { amount: 1 } })]);
    expect(s).toEqual({ score: 1, lastSessionId: "s2" });
  });
  it("only at the first event of the new session", () => {
    const s = run(def(), [ev({ metaData: { amount: 3 } }), ev({ sessionId: "s2" }), ev({ sessionId: "s2" })]);
    expect(s.score).toBe(2);
  });
  it("resets even when the new session's first event is filtered out", () => {
    const d = def({ filters: [{ field: "weapon_used", op: "eq", value: "bow" }] });
    const s = run(d, [
      ev({ metaData: { amount: 3, weapon_used: "bow" } }),
      ev({ sessionId: "s2", metaData: { amount: 1, weapon_used: "axe" } }),
    ]);
    expect(s).toEqual({ score: 0, lastSessionId: "s2" });
  });
  it("does not reset a total-scoped counter (lifts known limitation 8)", () => {
    const s = run(def({ counterScope: "total" }), [
      ev({ metaData: { amount: 3 } }),
      ev({ sessionId: "s2", metaData: { amount: 1 } }),
    ]);
    expect(s).toEqual({ score: 4, lastSessionId: "s2" });
  });
  it("the first event ever does not count as a session change", () => {
    expect(applyCounter({ score: 2, lastSessionId: null }, def(), ev({ sessionId: "x" })).score).toBe(3);
  });
});

describe("rules 5 and 7: event name, filters and meta data", () => {
  it("ignores other event names entirely, session included", () => {
    const state = { score: 2, lastSessionId: "s1" };
    expect(applyCounter(state, def(), ev({ eventName: "collect-item", sessionId: "s9" }))).toBe(state);
    expect(matchesEvent(def(), ev({ eventName: "collect-item" }))).toBe(false);
  });
  const cases: Array<[CounterFilter, Record<string, string | number>, boolean]> = [
    [{ field: "w", op: "eq", value: "bow" }, { w: "bow" }, true],
    [{ field: "w", op: "eq", value: "bow" }, { w: "axe" }, false],
    [{ field: "w", op: "eq", value: "bow" }, {}, false],
    [{ field: "n", op: "eq", value: 5 }, { n: "5" }, true],
    [{ field: "w", op: "ne", value: "bow" }, { w: "axe" }, true],
    [{ field: "w", op: "ne", value: "bow" }, { w: "bow" }, false],
    [{ field: "w", op: "ne", value: "bow" }, {}, true],
    [{ field: "n", op: "gt", value: 5 }, { n: 6 }, true],
    [{ field: "n", op: "gt", value: 5 }, { n: 5 }, false],
    [{ field: "n", op: "gte", value: 5 }, { n: 5 }, true],
    [{ field: "n", op: "gte", value: 5 }, { n: 4 }, false],
    [{ field: "n", op: "lt", value: 5 }, { n: 4 }, true],
    [{ field: "n", op: "lt", value: 5 }, { n: 5 }, false],
    [{ field: "n", op: "lte", value: 5 }, { n: 5 }, true],
    [{ field: "n", op: "lte", value: 5 }, { n: 6 }, false],
    [{ field: "n", op: "gt", value: 5 }, { n: "many" }, false],
    [{ field: "n", op: "gt", value: 5 }, {}, false],
    [{ field: "w", op: "in", value: ["bow", "axe"] }, { w: "axe" }, true],
    [{ field: "w", op: "in", value: ["bow", "axe"] }, { w: "gun" }, false],
    [{ field: "n", op: "in", value: [1, 2] }, { n: 2 }, true],
  ];
  it.each(cases)("%j on %j -> %s", (filter, meta, expected) => {
    expect(matchesEvent(def({ filters: [filter] }), ev({ metaData: meta }))).toBe(expected);
  });
  it("needs every filter to pass", () => {
    const d = def({
      filters: [
        { field: "w", op: "eq", value: "bow" },
        { field: "armor", op: "gte", value: 10 },
      ],
    });
    expect(matchesEvent(d, ev({ metaData: { w: "bow", armor: 10 } }))).toBe(true);
    expect(matchesEvent(d, ev({ metaData: { w: "bow", armor: 9 } }))).toBe(false);
  });
  it("a filtered-out event in the same session leaves the counter", () => {
    const d = def({ filters: [{ field: "w", op: "eq", value: "bow" }] });
    expect(run(d, [ev({ metaData: { w: "bow" } }), ev({ metaData: { w: "axe" } })]).score).toBe(1);
  });
});

describe("value_field", () => {
  it("counts the configured field", () => {
    const d = def({ eventName: "character-run", valueField: "distance" });
    expect(run(d, [ev({ eventName: "character-run", metaData: { distance: 120, amount: 1 } })]).score).toBe(120);
  });
  it("an event without the configured field does not count", () => {
    const d = def({ valueField: "distance" });
    expect(matchesEvent(d, ev({ metaData: { amount: 3 } }))).toBe(false);
    expect(run(d, [ev({ metaData: { amount: 3 } })]).score).toBe(0);
  });
  it("an amount that is not an integer does not count", () => {
    expect(eventAmount(def(), ev({ metaData: { amount: "lots" } }))).toBeNull();
    expect(matchesEvent(def(), ev({ metaData: { amount: "lots" } }))).toBe(false);
  });
});

describe("goal conditions", () => {
  it("0: reached at or above the goal", () => {
    expect(isGoalReached(def({ goal: 5 }), 4)).toBe(false);
    expect(isGoalReached(def({ goal: 5 }), 5)).toBe(true);
    expect(isGoalReached(def({ goal: 5 }), 6)).toBe(true);
  });
  it("1: reached at or below the goal", () => {
    const d = def({ goal: 6000, goalCondition: 1 });
    expect(isGoalReached(d, 6001)).toBe(false);
    expect(isGoalReached(d, 6000)).toBe(true);
    expect(isGoalReached(d, 5000)).toBe(true);
  });
  it("1: only an applied event reaches it, not the zero of a reset", () => {
    const d = def({
      goal: 6000,
      goalCondition: 1,
      eventName: "finish-laps",
      valueField: "required_time",
      filters: [{ field: "lap_position", op: "eq", value: 1 }],
    });
    const lap = (sessionId: string, lap_position: number, required_time: number) =>
      ev({ eventName: "finish-laps", eventType: "group", sessionId, metaData: { lap_position, required_time } });
    let step = stepCounter(INITIAL_COUNTER, d, lap("race1", 1, 7000));
    expect(step).toEqual({ state: { score: 7000, lastSessionId: "race1" }, applied: true, goalReached: false });
    step = stepCounter(step.state, d, lap("race2", 2, 100));
    expect(step).toEqual({ state: { score: 0, lastSessionId: "race2" }, applied: false, goalReached: false });
    step = stepCounter(step.state, d, lap("race2", 1, 5900));
    expect(step).toEqual({ state: { score: 5900, lastSessionId: "race2" }, applied: true, goalReached: true });
  });
  it("0: stepCounter reports the event that reaches the goal", () => {
    const d = def({ goal: 2 });
    const a = stepCounter(INITIAL_COUNTER, d, ev());
    expect(a.goalReached).toBe(false);
    expect(stepCounter(a.state, d, ev()).goalReached).toBe(true);
  });
});
