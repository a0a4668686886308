import { describe, expect, it } from "vitest";
import type { StreakDef } from "../../../src/streaks/core/model";
import { nextBoundary, periodAt } from "../../../src/streaks/core/periods";
import {
  advance,
  countEvent,
  grantFreezes,
  initialState,
  nextDecisionAt,
  restore,
  ruleFor,
  type StreakState,
} from "../../../src/streaks/core/streak";

const def = (over: Partial<StreakDef> = {}): StreakDef => ({
  streakId: "1",
  key: "daily-login",
  name: "Daily login",
  period: "daily",
  eventName: null,
  filters: [],
  minCount: 1,
  resetAtTime: "00:00:00",
  timeZone: "Europe/Berlin",
  freezes: { initial: 0, earnEvery: 0, max: 3 },
  milestones: [],
  ...over,
});

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

/** Runs events at the given instants from a fresh state; answers the state and every note type. */
function run(d: StreakDef, zone: string | null, times: number[], until?: number) {
  const rule = ruleFor(d, zone);
  let state: StreakState = initialState(d, rule, times[0]);
  const notes: string[] = [];
  for (const t of times) {
    const step = countEvent(d, state, rule, t);
    state = step.state;
    notes.push(...step.notes.map((n) => `${n.type}:${n.length}`));
  }
  if (until !== undefined) {
    const step = advance(state, rule, until);
    state = step.state;
    notes.push(...step.notes.map((n) => `${n.type}:${n.length}`));
  }
  return { state, notes, rule };
}

describe("streak periods", () => {
  it("a Berlin day runs from local midnight to local midnight", () => {
    const rule = ruleFor(def(), null);
    const p = periodAt(rule, at("2026-01-15T12:00:00Z"));
    expect(iso(p.start)).toBe("2026-01-14T23:00:00.000Z");
    expect(iso(p.end)).toBe("2026-01-15T23:00:00.000Z");
  });

  it("a Berlin day across the spring change is 23 hours, the autumn one 25, none skipped or doubled", () => {
    const rule = ruleFor(def(), null);
    const spring = periodAt(rule, at("2026-03-29T12:00:00Z"));
    expect(iso(spring.start)).toBe("2026-03-28T23:00:00.000Z");
    expect(iso(spring.end)).toBe("2026-03-29T22:00:00.000Z");
    expect(iso(nextBoundary(rule, spring.end))).toBe("2026-03-30T22:00:00.000Z");
    const autumn = periodAt(rule, at("2026-10-25T12:00:00Z"));
    expect(iso(autumn.start)).toBe("2026-10-24T22:00:00.000Z");
    expect(iso(autumn.end)).toBe("2026-10-25T23:00:00.000Z");
  });

  it("weeks start on Monday at the reset time", () => {
    const rule = ruleFor(def({ period: "weekly", resetAtTime: "04:00:00" }), "UTC");
    const p = periodAt(rule, at("2026-01-15T12:00:00Z"));
    expect(iso(p.start)).toBe("2026-01-12T04:00:00.000Z");
    expect(iso(p.end)).toBe("2026-01-19T04:00:00.000Z");
  });

  it("a player's zone decides their days: America/Los_Angeles", () => {
    const rule = ruleFor(def(), "America/Los_Angeles");
    const p = periodAt(rule, at("2026-01-15T12:00:00Z"));
    expect(iso(p.start)).toBe("2026-01-15T08:00:00.000Z");
    expect(iso(p.end)).toBe("2026-01-16T08:00:00.000Z");
  });
});

describe("kept, frozen and lost periods", () => {
  it("three days in a row in Berlin give length 3 and three extensions", () => {
    const { state, notes } = run(def(), null, [
      at("2026-01-10T10:00:00Z"),
      at("2026-01-11T10:00:00Z"),
      at("2026-01-12T10:00:00Z"),
    ]);
    expect(state.length).toBe(3);
    expect(state.longest).toBe(3);
    expect(notes).toEqual(["streak-extended:1", "streak-extended:2", "streak-extended:3"]);
    expect(iso(state.startedAt!)).toBe("2026-01-09T23:00:00.000Z");
  });

  it("two events 30 minutes apart around Berlin midnight count for two days", () => {
    const { state, notes } = run(def(), null, [at("2026-01-10T22:45:00Z"), at("2026-01-10T23:15:00Z")]);
    expect(state.length).toBe(2);
    expect(notes).toEqual(["streak-extended:1", "streak-extended:2"]);
  });

  it("the same two events are one day in Los Angeles", () => {
    const { state, notes } = run(def(), "America/Los_Angeles", [
      at("2026-01-10T22:45:00Z"),
      at("2026-01-10T23:15:00Z"),
    ]);
    expect(state.length).toBe(1);
    expect(state.count).toBe(2);
    expect(notes).toEqual(["streak-extended:1"]);
  });

  it("a day across the daylight-saving change is neither skipped nor doubled", () => {
    // 28, 29 (23 h) and 30 March in Berlin, each once, late in the local day.
    const { state, notes } = run(def(), null, [
      at("2026-03-28T22:30:00Z"),
      at("2026-03-29T21:30:00Z"),
      at("2026-03-30T21:30:00Z"),
    ]);
    expect(state.length).toBe(3);
    expect(notes).toEqual(["streak-extended:1", "streak-extended:2", "streak-extended:3"]);
    // Two events in the 23-hour day: still one day.
    const same = run(def(), null, [at("2026-03-28T23:30:00Z"), at("2026-03-29T21:30:00Z")]);
    expect(same.state.length).toBe(1);
  });

  it("min_count events keep a period; fewer do not", () => {
    const d = def({ minCount: 2 });
    const { state, notes } = run(d, null, [at("2026-01-10T10:00:00Z")]);
    expect([state.length, state.kept, state.count]).toEqual([0, false, 1]);
    expect(notes).toEqual([]);
    const two = run(d, null, [at("2026-01-10T10:00:00Z"), at("2026-01-10T11:00:00Z"), at("2026-01-10T12:00:00Z")]);
    expect([two.state.length, two.state.count]).toEqual([1, 3]);
  });

  it("a missed day with a freeze keeps the length and uses the freeze", () => {
    const d = def({ freezes: { initial: 1, earnEvery: 0, max: 3 } });
    const { state, notes } = run(
      d,
      null,
      [at("2026-01-10T10:00:00Z"), at("2026-01-11T10:00:00Z"), at("2026-01-12T10:00:00Z")],
      at("2026-01-14T00:00:00Z"),
    );
    expect(notes.slice(3)).toEqual(["streak-freeze-used:3"]);
    expect([state.length, state.freezes]).toEqual([3, 0]);
    expect(state.history.map((h) => h.status)).toEqual(["kept", "kept", "kept", "frozen"]);
  });

  it("a missed day without a freeze loses the streak, keeping longest and the lost length", () => {
    const { state, notes } = run(
      def(),
      null,
      [at("2026-01-10T10:00:00Z"), at("2026-01-11T10:00:00Z"), at("2026-01-12T10:00:00Z")],
      at("2026-01-14T00:00:00Z"),
    );
    expect(notes.slice(3)).toEqual(["streak-lost:0"]);
    expect([state.length, state.longest, state.lost?.length]).toEqual([0, 3, 3]);
    expect(iso(state.lost!.at)).toBe("2026-01-13T23:00:00.000Z");
  });

  it("a long absence uses each freeze once, then loses, and skips idle periods", () => {
    const d = def({ freezes: { initial: 2, earnEvery: 0, max: 3 } });
    const { state, notes } = run(d, null, [at("2026-01-10T10:00:00Z")], at("2026-02-10T10:00:00Z"));
    expect(notes).toEqual(["streak-extended:1", "streak-freeze-used:1", "streak-freeze-used:1", "streak-lost:0"]);
    expect(iso(state.periodStart)).toBe("2026-02-09T23:00:00.000Z");
    expect(state.history.map((h) => h.status)).toEqual(["kept", "frozen", "frozen", "missed"]);
  });

  it("the alarm is due only while a streak is alive, past a kept period", () => {
    const { state, rule } = run(def(), null, [at("2026-01-10T10:00:00Z")]);
    expect(iso(nextDecisionAt(state, rule)!)).toBe("2026-01-11T23:00:00.000Z");
    const lost = advance(state, rule, at("2026-01-12T00:00:00Z")).state;
    expect(nextDecisionAt(lost, rule)).toBe(null);
    const open = initialState(def(), rule, at("2026-01-10T10:00:00Z"));
    expect(nextDecisionAt(open, rule)).toBe(null);
  });
});

describe("freezes and milestones", () => {
  it("earn_every 7 earns a freeze after 7 kept days, capped by max", () => {
    const d = def({ freezes: { initial: 0, earnEvery: 7, max: 1 } });
    const days = Array.from({ length: 14 }, (_, i) => at("2026-01-01T10:00:00Z") + i * 86_400_000);
    const { state, notes } = run(d, null, days);
    expect(notes.filter((n) => n.startsWith("streak-freeze-earned"))).toEqual(["streak-freeze-earned:7"]);
    expect(state.freezes).toBe(1);
    expect(grantFreezes(d, state, 5).freezes).toBe(1);
  });

  it("a milestone is reached once per run", () => {
    const d = def({ milestones: [{ length: 2, pointsRewards: [{ system: "xp", amount: 50 }] }] });
    const days = [at("2026-01-01T10:00:00Z"), at("2026-01-02T10:00:00Z"), at("2026-01-03T10:00:00Z")];
    const { state, notes, rule } = run(d, null, days);
    expect(notes.filter((n) => n.startsWith("streak-milestone"))).toEqual(["streak-milestone:2"]);
    // Lost, then a new run reaches it again.
    let s = advance(state, rule, at("2026-01-06T10:00:00Z")).state;
    const again: string[] = [];
    for (const t of [at("2026-01-06T10:00:00Z"), at("2026-01-07T10:00:00Z")]) {
      const step = countEvent(d, s, rule, t);
      s = step.state;
      again.push(...step.notes.map((n) => n.type));
    }
    expect(again).toEqual(["streak-extended", "streak-extended", "streak-milestone"]);
  });
});

describe("restore and zone changes", () => {
  it("restore brings back the lost length, plus a run started since", () => {
    const { state, rule } = run(
      def(),
      null,
      [at("2026-01-10T10:00:00Z"), at("2026-01-11T10:00:00Z"), at("2026-01-12T10:00:00Z")],
      at("2026-01-14T10:00:00Z"),
    );
    const restored = restore(state, rule, at("2026-01-14T10:00:00Z"));
    expect(restored.ok && [restored.state.length, restored.state.lost]).toEqual([3, null]);
    const rerun = countEvent(def(), state, rule, at("2026-01-14T11:00:00Z")).state;
    const plus = restore(rerun, rule, at("2026-01-14T12:00:00Z"));
    expect(plus.ok && plus.state.length).toBe(4);
    expect(restore(restored.ok ? restored.state : state, rule, at("2026-01-14T10:00:00Z"))).toEqual({
      ok: false,
      kind: "conflict",
      message: "The streak has no lost run to restore",
    });
    expect(restore(state, rule, at("2026-01-21T10:00:00Z"))).toEqual({
      ok: false,
      kind: "conflict",
      message: "The streak was lost more than 7 periods ago",
    });
    expect(restore(state, rule, at("2026-01-19T10:00:00Z")).ok).toBe(true);
  });

  it("after a zone change the next period starts at the current one's end and ends at the next boundary there", () => {
    const d = def();
    const berlin = ruleFor(d, null);
    const s = countEvent(d, initialState(d, berlin, at("2026-01-10T10:00:00Z")), berlin, at("2026-01-10T10:00:00Z"));
    const la = ruleFor(d, "America/Los_Angeles");
    const next = advance(s.state, la, at("2026-01-11T00:00:00Z")).state;
    expect(iso(next.periodStart)).toBe("2026-01-10T23:00:00.000Z");
    expect(iso(next.periodEnd)).toBe("2026-01-11T08:00:00.000Z");
    expect(next.length).toBe(1);
  });
});
