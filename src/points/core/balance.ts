import { matchesEvent, type CounterEvent, type MetaValue } from "../../rules/counter";
import { localize } from "../../shared/localize";
import type { PointsCatalog, PointsLevel, PointsSystemDef, PointsTrigger } from "./model";

/**
 * The arithmetic of a player's points, as pure functions: what a credit or a spend does to a
 * balance, the level that the points earned reach, what an event's triggers give.
 */

export interface Balance {
  balance: number;
  /** Everything ever credited; spends never lower it (levels follow it). */
  earned: number;
}

export const ZERO_BALANCE: Balance = { balance: 0, earned: 0 };

/** The highest level whose threshold `earned` reached, or null below the first. */
export function levelOf(system: Pick<PointsSystemDef, "levels">, earned: number): PointsLevel | null {
  let reached: PointsLevel | null = null;
  for (const level of system.levels) if (level.points <= earned) reached = level;
  return reached;
}

/** The first level above `earned`, or null at the top. */
export function nextLevelOf(system: Pick<PointsSystemDef, "levels">, earned: number): PointsLevel | null {
  return system.levels.find((level) => level.points > earned) ?? null;
}

export type Movement =
  | { ok: true; amount: number; after: Balance }
  | { ok: false; reason: "short"; balance: number }
  | { ok: false; reason: "not-spendable" };

/**
 * A credit of `amount` (> 0): the balance grows by it up to the system's cap, and `earned` by what
 * was actually credited (a capped credit shows its capped amount; at the cap it is 0).
 */
export function credit(system: Pick<PointsSystemDef, "maxBalance">, before: Balance, amount: number): Movement {
  const room = system.maxBalance === null ? amount : Math.max(0, system.maxBalance - before.balance);
  const credited = Math.min(amount, room);
  return {
    ok: true,
    amount: credited,
    after: { balance: before.balance + credited, earned: before.earned + credited },
  };
}

/** A spend of `amount` (> 0) on a spendable system: never below zero, `earned` unchanged. */
export function spend(system: Pick<PointsSystemDef, "spendable">, before: Balance, amount: number): Movement {
  if (!system.spendable) return { ok: false, reason: "not-spendable" };
  if (before.balance < amount) return { ok: false, reason: "short", balance: before.balance };
  return { ok: true, amount: -amount, after: { balance: before.balance - amount, earned: before.earned } };
}

/**
 * An operator's adjustment (≠ 0) on any system: a positive one is a credit (capped); a negative one
 * takes from the balance and from `earned` (a correction undoes what should not have been credited),
 * and answers `short` when the balance would go below zero.
 */
export function adjust(system: Pick<PointsSystemDef, "maxBalance">, before: Balance, amount: number): Movement {
  if (amount > 0) return credit(system, before, amount);
  if (before.balance + amount < 0) return { ok: false, reason: "short", balance: before.balance };
  return {
    ok: true,
    amount,
    after: { balance: before.balance + amount, earned: Math.max(0, before.earned + amount) },
  };
}

function asCount(value: MetaValue | undefined): number | null {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : null;
  if (typeof value === "string" && /^-?\d{1,15}$/.test(value.trim())) return Number(value);
  return null;
}

/** A field no event sends: what the counter rules' matcher reads as the amount when only the filters matter. */
const UNIT_FIELD = "\u0000unit";

/** The event as the matcher reads it when only a trigger's name and filters matter (made once per event). */
const forMatching = (event: CounterEvent): CounterEvent => ({
  ...event,
  metaData: { ...event.metaData, [UNIT_FIELD]: 1 },
});

function unitsOf(trigger: PointsTrigger, event: CounterEvent, matching: CounterEvent): number | null {
  const matcher = { eventName: trigger.eventName, valueField: UNIT_FIELD, filters: trigger.filters };
  if (!matchesEvent(matcher, matching)) return null;
  if (trigger.valueField === null) return 1;
  const units = asCount(event.metaData[trigger.valueField]);
  return units !== null && units > 0 ? units : null;
}

/** The units an event brings to a trigger: its value field's (a positive integer), else one event; null: none. */
export const triggerUnits = (trigger: PointsTrigger, event: CounterEvent): number | null =>
  unitsOf(trigger, event, forMatching(event));

/** What an event gives: per system, the points of its triggers; per trigger, the units carried to the next event. */
export interface TriggerOutcome {
  points: Map<string, number>;
  /** `${systemKey}/${index}` → units left over (below `every`), for the triggers with `every` > 1 the event moved. */
  carried: Map<string, number>;
}

export const triggerKey = (systemKey: string, index: number) => `${systemKey}/${index}`;

/**
 * Applies an event to the app's triggers: each matching trigger adds the event's units to what it
 * carried from earlier events, and every full `every` of them gives its `points`. A trigger of
 * every unit carries nothing (`carriedBefore` is asked only for the others).
 */
export function applyTriggers(
  catalog: PointsCatalog,
  event: CounterEvent,
  carriedBefore: (key: string) => number,
): TriggerOutcome {
  const points = new Map<string, number>();
  const carried = new Map<string, number>();
  const listeners = catalog.byEventName.get(event.eventName);
  if (!listeners) return { points, carried };
  const matching = forMatching(event);
  for (const { system, trigger, index } of listeners) {
    const units = unitsOf(trigger, event, matching);
    if (units === null) continue;
    let times = units;
    if (trigger.every > 1) {
      const key = triggerKey(system.key, index);
      const total = (carried.get(key) ?? carriedBefore(key)) + units;
      times = Math.floor(total / trigger.every);
      carried.set(key, total - times * trigger.every);
    }
    if (times > 0) points.set(system.key, (points.get(system.key) ?? 0) + times * trigger.points);
  }
  return { points, carried };
}

/** A level as answers and payloads show it: its name in the language asked, else the app's default. */
export const presentLevel = (level: PointsLevel | null, defaultLanguage: string, language?: string) =>
  level === null
    ? null
    : { level: level.level, name: localize(level.name, language, defaultLanguage), points: level.points };
