import { describe, expect, it } from "vitest";
import {
  addToTotals,
  defaultAmount,
  earnedByEvent,
  earnedByGrant,
  earnedBySweep,
  metricProgress,
  movedCounters,
  rarityOf,
  requirementCycle,
  revokedWith,
  ZERO_TOTALS,
  type Counter,
  type Totals,
} from "../../../src/achievements/core/earn";
import { indexAchievements, type AchievementDef } from "../../../src/achievements/core/model";
import { presentAchievement } from "../../../src/achievements/core/present";

let nextId = 1;
function def(fields: Partial<AchievementDef> & Pick<AchievementDef, "key" | "kind">): AchievementDef {
  return {
    achievementId: String(nextId++),
    name: { en: fields.key, de: `${fields.key} (de)` },
    description: null,
    hidden: false,
    hiddenDescription: null,
    icon: null,
    status: "active",
    sortOrder: 0,
    pointsRewards: [],
    metric: null,
    requires: [],
    ...fields,
  };
}
const metric = (
  key: string,
  threshold: number,
  extra: Partial<AchievementDef["metric"] & object> = {},
  status: AchievementDef["status"] = "active",
) =>
  def({
    key,
    kind: "metric",
    status,
    metric: { eventName: "slay", filters: [], valueField: null, aggregation: "count", threshold, ...extra },
  });

const sourceOf = (totals: Record<string, Totals>, counters: Map<string, Counter> = new Map()) => ({
  totals: (name: string) => totals[name] ?? ZERO_TOTALS,
  counter: (id: string) => counters.get(id),
});

describe("totals and amounts", () => {
  it("takes amount when the event has one, else 1, and refuses an amount that is not a whole number", () => {
    expect(defaultAmount({ metaData: {} })).toBe(1);
    expect(defaultAmount({ metaData: { amount: 7 } })).toBe(7);
    expect(defaultAmount({ metaData: { amount: "12" } })).toBe(12);
    expect(defaultAmount({ metaData: { amount: "lots" } })).toBeNull();
  });

  it("keeps the count, sum and maximum", () => {
    let t = ZERO_TOTALS;
    for (const amount of [3, -2, 9, 1]) t = addToTotals(t, amount);
    expect(t).toEqual({ count: 4, sum: 11, max: 9 });
    expect(addToTotals(ZERO_TOTALS, -5)).toEqual({ count: 1, sum: -5, max: -5 });
  });
});

describe("earning", () => {
  it("a ladder: every rung the totals reached, once; locked and inactive rungs earn nothing", () => {
    const rungs = [metric("r10", 10), metric("r100", 100), metric("r1000", 1000), metric("locked", 5, {}, "locked")];
    const catalog = indexAchievements("en", rungs);
    const held = new Set<string>();
    expect(earnedByEvent(catalog, "slay", sourceOf({ slay: { count: 9, sum: 9, max: 1 } }), held)).toEqual([]);
    expect(
      earnedByEvent(catalog, "slay", sourceOf({ slay: { count: 150, sum: 150, max: 1 } }), held).map((d) => d.key),
    ).toEqual(["r10", "r100"]);
    expect(earnedByEvent(catalog, "slay", sourceOf({ slay: { count: 151, sum: 151, max: 1 } }), held)).toEqual([]);
    expect(earnedByEvent(catalog, "other", sourceOf({ slay: { count: 5000, sum: 0, max: 0 } }), held)).toEqual([]);
  });

  it("composites follow in the same step, also through another composite", () => {
    const a = metric("a", 1);
    const b = def({ key: "b", kind: "manual" });
    const ab = def({ key: "ab", kind: "composite", requires: ["a", "b"] });
    const top = def({ key: "top", kind: "composite", requires: ["ab", "b"] });
    const inactive = def({ key: "off", kind: "composite", requires: ["a", "b"], status: "inactive" });
    const catalog = indexAchievements("en", [a, b, ab, top, inactive]);
    const held = new Set([b.achievementId]);
    expect(
      earnedByEvent(catalog, "slay", sourceOf({ slay: { count: 1, sum: 1, max: 1 } }), held).map((d) => d.key),
    ).toEqual(["a", "ab", "top"]);
    const fresh = new Set([a.achievementId]);
    expect(earnedByGrant(catalog, b.achievementId, fresh).map((d) => d.key)).toEqual(["ab", "top"]);
    expect(fresh.has(b.achievementId)).toBe(true);
  });

  it("a sweep awards every active achievement already reached (backdating), metrics then composites", () => {
    const sum = metric("sum-20", 20, { aggregation: "sum", eventName: "win" });
    const max = metric("max-9", 9, { aggregation: "max", eventName: "win" });
    const far = metric("sum-21", 21, { aggregation: "sum", eventName: "win" });
    const both = def({ key: "both", kind: "composite", requires: ["sum-20", "max-9"] });
    const catalog = indexAchievements("en", [sum, max, far, both]);
    const held = new Set<string>();
    const earned = earnedBySweep(catalog, sourceOf({ win: { count: 3, sum: 20, max: 9 } }), held);
    expect(earned.map((d) => d.key)).toEqual(["sum-20", "max-9", "both"]);
    expect(earnedBySweep(catalog, sourceOf({ win: { count: 3, sum: 20, max: 9 } }), held)).toEqual([]);
  });

  it("counters of their own: filters and value fields, from zero, again from zero when what they count changes", () => {
    const gold = metric("gold", 10, {
      filters: [{ field: "item", op: "eq", value: "gold" }],
      valueField: "weight",
      aggregation: "sum",
    });
    const catalog = indexAchievements("en", [gold]);
    const counters = new Map<string, Counter>();
    const event = (meta: Record<string, string | number>) => ({
      eventName: "slay",
      eventType: "single" as const,
      sessionId: "s",
      metaData: meta,
    });
    const metas: Record<string, string | number>[] = [
      { item: "gold", weight: 4 },
      { item: "wood", weight: 100 },
      { item: "gold" },
      { item: "gold", weight: 5 },
    ];
    for (const meta of metas)
      for (const [id, c] of movedCounters(catalog, event(meta), (id) => counters.get(id))) counters.set(id, c);
    expect(metricProgress(gold, sourceOf({}, counters))).toBe(9);
    const changed = { ...gold, metric: { ...gold.metric!, valueField: "size" } };
    expect(metricProgress(changed, sourceOf({}, counters))).toBe(0);
    const moved = movedCounters(indexAchievements("en", [changed]), event({ item: "gold", size: 2 }), (id) =>
      counters.get(id),
    );
    expect(moved.get(gold.achievementId)?.value).toBe(2);
  });

  it("the catalog's signature moves when what earns changes, not with names", () => {
    const a = metric("a", 10);
    const sig = indexAchievements("en", [a]).signature;
    expect(indexAchievements("en", [{ ...a, name: "renamed" }]).signature).toBe(sig);
    expect(indexAchievements("en", [{ ...a, metric: { ...a.metric!, threshold: 9 } }]).signature).not.toBe(sig);
    expect(indexAchievements("en", [{ ...a, status: "locked" }]).signature).not.toBe(sig);
  });
});

describe("revoking, cycles and rarity", () => {
  it("revoking takes the held composites that require it, directly or not", () => {
    const a = def({ key: "a", kind: "manual" });
    const b = def({ key: "b", kind: "manual" });
    const ab = def({ key: "ab", kind: "composite", requires: ["a", "b"] });
    const top = def({ key: "top", kind: "composite", requires: ["ab", "b"], status: "locked" });
    const other = def({ key: "other", kind: "composite", requires: ["b", "ab"] });
    const catalog = indexAchievements("en", [a, b, ab, top, other]);
    const held = new Set([a, b, ab, top].map((d) => d.achievementId));
    expect(revokedWith(catalog, a.achievementId, held)).toEqual([a.achievementId, ab.achievementId, top.achievementId]);
    expect(revokedWith(catalog, ab.achievementId, new Set([ab.achievementId]))).toEqual([ab.achievementId]);
  });

  it("finds a cycle of requirements, as the path that closes it", () => {
    expect(
      requirementCycle(
        new Map([
          ["c", ["a", "b"]],
          ["d", ["c", "a"]],
        ]),
      ),
    ).toBeNull();
    expect(
      requirementCycle(
        new Map([
          ["c", ["d", "b"]],
          ["d", ["c", "a"]],
        ]),
      ),
    ).toEqual(["c", "d", "c"]);
    expect(
      requirementCycle(
        new Map([
          ["x", ["y"]],
          ["y", ["z"]],
          ["z", ["x"]],
        ]),
      ),
    ).toEqual(["x", "y", "z", "x"]);
  });

  it("rarity: a percentage with one decimal, 0 without players", () => {
    expect(rarityOf(3, 10)).toBe(30);
    expect(rarityOf(1, 3)).toBe(33.3);
    expect(rarityOf(2, 3)).toBe(66.7);
    expect(rarityOf(5, 0)).toBe(0);
    expect(rarityOf(12, 10)).toBe(100);
  });
});

describe("the player's view", () => {
  it("a hidden one not held gives nothing away; held, it shows all; composites show held of required", () => {
    const secret = def({
      key: "secret",
      kind: "metric",
      hidden: true,
      icon: "x.png",
      description: "Found it",
      hiddenDescription: { en: "Look around", de: "Schau dich um" },
      metric: { eventName: "slay", filters: [], valueField: null, aggregation: "sum", threshold: 5 },
    });
    const manual = def({ key: "m", kind: "manual" });
    const both = def({ key: "both", kind: "composite", requires: ["secret", "m"] });
    const catalog = indexAchievements("en", [secret, manual, both]);
    const source = sourceOf({ slay: { count: 9, sum: 9, max: 1 } });
    expect(presentAchievement(catalog, secret, source, new Map(), 12.5, "de")).toEqual({
      achievement_id: secret.achievementId,
      key: "secret",
      name: "Verborgener Erfolg",
      description: "Schau dich um",
      icon: null,
      hidden: true,
      achieved: false,
      achieved_at: null,
      progress: null,
      threshold: null,
      rarity: 12.5,
    });
    const held = new Map([[secret.achievementId, Date.UTC(2026, 0, 2)]]);
    expect(presentAchievement(catalog, secret, source, held, 12.5, "de")).toMatchObject({
      name: "secret (de)",
      description: "Found it",
      icon: "x.png",
      achieved: true,
      achieved_at: "2026-01-02T00:00:00.000Z",
      progress: 5,
      threshold: 5,
    });
    expect(presentAchievement(catalog, both, source, held, 0, undefined)).toMatchObject({ progress: 1, threshold: 2 });
    expect(presentAchievement(catalog, manual, source, held, 0, undefined)).toMatchObject({
      progress: null,
      threshold: null,
    });
  });
});

describe("the list as JSON text", () => {
  it("is what JSON.stringify of the presented list gives, as holdings and progress change", async () => {
    const { listJson } = await import("../../../src/achievements/list-json");
    const a = metric("a", 3);
    const m = def({ key: "m", kind: "manual", hidden: true });
    const both = def({ key: "both", kind: "composite", requires: ["a", "m"] });
    const catalog = indexAchievements("en", [a, m, both]);
    const rarity = { players: 4, holders: new Map([[a.achievementId, 1]]) };
    const text = (held: Map<string, number>, count: number) => {
      const source = sourceOf({ slay: { count, sum: count, max: 1 } });
      const state = {
        achievedAt: (d: AchievementDef) => held.get(d.achievementId),
        progressKey: (d: AchievementDef) =>
          d.metric
            ? metricProgress(d, source)
            : d.requires.filter((k) => held.has(catalog.byKey.get(k)!.achievementId)).length,
        present: (d: AchievementDef) => presentAchievement(catalog, d, source, held, d === a ? 25 : 0, undefined),
      };
      const expected = JSON.stringify({
        achievements: catalog.achievements.map((d) => state.present(d)),
      });
      expect(listJson(catalog, catalog.achievements, undefined, rarity, state)).toBe(expected);
    };
    text(new Map(), 0);
    text(new Map(), 0);
    text(new Map(), 2);
    text(new Map([[a.achievementId, 5]]), 3);
    text(
      new Map([
        [a.achievementId, 5],
        [m.achievementId, 6],
      ]),
      3,
    );
    text(new Map([[m.achievementId, 6]]), 1);
  });
});
