import { describe, expect, it } from "vitest";
import {
  adjust,
  applyTriggers,
  credit,
  levelOf,
  nextLevelOf,
  presentLevel,
  spend,
  triggerUnits,
} from "../../../src/points/core/balance";
import { foldDue, LEDGER_MAX_ENTRIES, LEDGER_RETENTION_MS } from "../../../src/points/core/ledger";
import { indexPointsCatalog, type PointsSystemDef, type PointsTrigger } from "../../../src/points/core/model";
import { pointsChange } from "../../../src/points/core/changes";

const system = (over: Partial<PointsSystemDef> = {}): PointsSystemDef => ({
  systemId: "1",
  key: "xp",
  name: "XP",
  description: null,
  icon: null,
  spendable: false,
  maxBalance: null,
  creditsChallengeXp: false,
  levels: [
    { level: 1, name: "Rookie", points: 0 },
    { level: 2, name: { en: "Apprentice", de: "Lehrling" }, points: 100 },
    { level: 3, name: "Veteran", points: 500 },
  ],
  triggers: [],
  ...over,
});

const event = (eventName: string, metaData: Record<string, number | string> = {}) => ({
  eventName,
  eventType: "single" as const,
  sessionId: "s",
  metaData,
});

const trigger = (over: Partial<PointsTrigger> = {}): PointsTrigger => ({
  eventName: "run",
  filters: [],
  valueField: null,
  every: 1,
  points: 1,
  ...over,
});

describe("levels", () => {
  it("follow the points earned: the highest threshold reached, and the next one", () => {
    const xp = system();
    expect(levelOf(xp, 0)).toEqual({ level: 1, name: "Rookie", points: 0 });
    expect(levelOf(xp, 99)?.level).toBe(1);
    expect(levelOf(xp, 100)?.level).toBe(2);
    expect(levelOf(xp, 10_000)?.level).toBe(3);
    expect(nextLevelOf(xp, 99)?.level).toBe(2);
    expect(nextLevelOf(xp, 500)).toBeNull();
    expect(levelOf(system({ levels: [{ level: 1, name: "One", points: 10 }] }), 9)).toBeNull();
    expect(presentLevel(levelOf(xp, 150), "en", "de")).toEqual({ level: 2, name: "Lehrling", points: 100 });
  });
});

describe("movements of a balance", () => {
  it("a credit adds to balance and earned, capped by max_balance", () => {
    expect(credit(system(), { balance: 5, earned: 5 }, 10)).toEqual({
      ok: true,
      amount: 10,
      after: { balance: 15, earned: 15 },
    });
    const capped = system({ maxBalance: 100 });
    expect(credit(capped, { balance: 90, earned: 300 }, 50)).toEqual({
      ok: true,
      amount: 10,
      after: { balance: 100, earned: 310 },
    });
    expect(credit(capped, { balance: 100, earned: 300 }, 50)).toEqual({
      ok: true,
      amount: 0,
      after: { balance: 100, earned: 300 },
    });
  });

  it("a spend takes from the balance only, never below zero, on a spendable system", () => {
    const coins = system({ spendable: true });
    expect(spend(coins, { balance: 50, earned: 80 }, 50)).toEqual({
      ok: true,
      amount: -50,
      after: { balance: 0, earned: 80 },
    });
    expect(spend(coins, { balance: 49, earned: 80 }, 50)).toEqual({ ok: false, reason: "short", balance: 49 });
    expect(spend(system(), { balance: 49, earned: 80 }, 1)).toEqual({ ok: false, reason: "not-spendable" });
  });

  it("an adjustment credits, or takes from balance and earned, never below zero", () => {
    expect(adjust(system(), { balance: 10, earned: 40 }, -10)).toEqual({
      ok: true,
      amount: -10,
      after: { balance: 0, earned: 30 },
    });
    expect(adjust(system(), { balance: 10, earned: 40 }, -11)).toEqual({ ok: false, reason: "short", balance: 10 });
    expect(adjust(system({ maxBalance: 20 }), { balance: 10, earned: 40 }, 50)).toMatchObject({ amount: 10 });
  });
});

describe("triggers", () => {
  it("count events, or the value field's positive integers, where every filter passes", () => {
    expect(triggerUnits(trigger(), event("run", { amount: "lots" }))).toBe(1);
    expect(triggerUnits(trigger(), event("walk"))).toBeNull();
    const distance = trigger({ valueField: "distance" });
    expect(triggerUnits(distance, event("run", { distance: 70 }))).toBe(70);
    expect(triggerUnits(distance, event("run", { distance: "12" }))).toBe(12);
    expect(triggerUnits(distance, event("run", { distance: -5 }))).toBeNull();
    expect(triggerUnits(distance, event("run", { distance: 1.5 }))).toBeNull();
    expect(triggerUnits(distance, event("run"))).toBeNull();
    const moon = trigger({ filters: [{ field: "realm", op: "eq", value: "moon" }] });
    expect(triggerUnits(moon, event("run", { realm: "moon" }))).toBe(1);
    expect(triggerUnits(moon, event("run", { realm: "mars" }))).toBeNull();
    const amount = trigger({ filters: [{ field: "amount", op: "gte", value: 3 }] });
    expect(triggerUnits(amount, event("run", { amount: 3 }))).toBe(1);
    expect(triggerUnits(amount, event("run", { amount: 2 }))).toBeNull();
  });

  it("give points for every full `every` units, carrying the rest, summed per system", () => {
    const catalog = indexPointsCatalog("en", [
      system({
        triggers: [trigger({ valueField: "distance", every: 100, points: 5 }), trigger({ points: 1 })],
      }),
      system({ systemId: "2", key: "coins", triggers: [trigger({ every: 3, points: 10 })] }),
    ]);
    const carried = new Map([
      ["xp/0", 90],
      ["coins/0", 2],
    ]);
    const outcome = applyTriggers(catalog, event("run", { distance: 215 }), (key) => carried.get(key) ?? 0);
    expect(outcome.points).toEqual(
      new Map([
        ["xp", 16],
        ["coins", 10],
      ]),
    );
    expect(outcome.carried).toEqual(
      new Map([
        ["xp/0", 5],
        ["coins/0", 0],
      ]),
    );
    expect(applyTriggers(catalog, event("jump"), () => 0).points.size).toBe(0);
  });
});

describe("the ledger's bounds", () => {
  it("fold past the newest entries, or entries older than the retention (with slack)", () => {
    const now = 10 * LEDGER_RETENTION_MS;
    expect(foldDue({ entries: LEDGER_MAX_ENTRIES + 100, oldestAt: now }, now)).toBe(false);
    expect(foldDue({ entries: LEDGER_MAX_ENTRIES + 101, oldestAt: now }, now)).toBe(true);
    expect(foldDue({ entries: 2, oldestAt: now - LEDGER_RETENTION_MS - 24 * 3600_000 }, now)).toBe(false);
    expect(foldDue({ entries: 2, oldestAt: now - LEDGER_RETENTION_MS - 24 * 3600_000 - 1 }, now)).toBe(true);
    expect(foldDue({ entries: 1, oldestAt: null }, now)).toBe(false);
  });
});

describe("points-changed", () => {
  it("names the system, the movement, the balance and the level before and after", () => {
    const change = pointsChange({
      appId: "3",
      userId: "ann",
      system: system(),
      amount: 60,
      before: { balance: 50, earned: 50 },
      after: { balance: 110, earned: 110 },
      source: { kind: "grant", id: "k1" },
      defaultLanguage: "en",
    });
    expect(change).toEqual({
      appId: "3",
      userId: "ann",
      webhookType: "points-changed",
      topic: { kind: "user-notifications", appId: "3", userId: "ann" },
      payload: {
        webhook_type: "points-changed",
        app_id: "3",
        user_id: "ann",
        system: "xp",
        amount: 60,
        balance: 110,
        earned: 110,
        level: { level: 2, name: "Apprentice", points: 100 },
        previous_level: { level: 1, name: "Rookie", points: 0 },
        source: { kind: "grant", id: "k1" },
      },
    });
  });
});
