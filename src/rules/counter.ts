/**
 * The spec's "Rules for events" as pure functions, shared by personal challenges and battle-pass
 * level challenges. The caller decides which counters are live (only `in-progress` ones count)
 * and when to test the goal (after an applied event).
 */

/** A value of an event's meta data. */
export type MetaValue = number | string;

export const FILTER_OPS = ["eq", "ne", "gt", "gte", "lt", "lte", "in"] as const;
export type FilterOp = (typeof FILTER_OPS)[number];

/** A condition on one meta data field; `in` takes a list, every other op one value. */
export interface CounterFilter {
  field: string;
  op: FilterOp;
  value: MetaValue | MetaValue[];
}

export type GoalCondition = 0 | 1;
export type CounterScope = "session" | "total";

/** What a challenge listens to and how its counter moves. */
export interface CounterDef {
  eventName: string;
  /** The meta field that holds the amount; null: `amount` when the event has one, else 1. */
  valueField: string | null;
  filters: CounterFilter[];
  goal: number;
  goalCondition: GoalCondition;
  /** `session` (the spec): a new session resets the counter. `total`: sessions do not matter. */
  counterScope: CounterScope;
}

/** The part of an event the counter rules read; a UserEvent fits. */
export interface CounterEvent {
  eventName: string;
  eventType: "single" | "group";
  sessionId: string;
  metaData: Record<string, MetaValue>;
}

export interface CounterState {
  score: number;
  /** Session of the last event of this challenge's event name; null before the first one. */
  lastSessionId: string | null;
}

export const INITIAL_COUNTER: CounterState = { score: 0, lastSessionId: null };

const DEFAULT_VALUE_FIELD = "amount";

function asNumber(value: MetaValue | undefined): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^-?\d+$/.test(value.trim())) return Number(value);
  return null;
}

function filterPasses(filter: CounterFilter, meta: Record<string, MetaValue>): boolean {
  const actual = meta[filter.field];
  if (filter.op === "ne") return actual === undefined || String(actual) !== String(filter.value);
  if (actual === undefined) return false;
  switch (filter.op) {
    case "eq":
      return String(actual) === String(filter.value);
    case "in":
      return Array.isArray(filter.value) && filter.value.some((v) => String(v) === String(actual));
    default: {
      const a = asNumber(actual);
      const b = asNumber(filter.value as MetaValue);
      if (a === null || b === null) return false;
      if (filter.op === "gt") return a > b;
      if (filter.op === "gte") return a >= b;
      if (filter.op === "lt") return a < b;
      return a <= b;
    }
  }
}

/**
 * The amount an event brings: the configured value field, else `amount` when present, else 1.
 * Null when a configured field is missing or not an integer: such an event does not count.
 */
export function eventAmount(def: Pick<CounterDef, "valueField">, event: Pick<CounterEvent, "metaData">): number | null {
  if (def.valueField) return asNumber(event.metaData[def.valueField]);
  if (event.metaData[DEFAULT_VALUE_FIELD] === undefined) return 1;
  return asNumber(event.metaData[DEFAULT_VALUE_FIELD]);
}

/** What decides whether an event counts; leaderboards match events with it too. */
export type EventMatcher = Pick<CounterDef, "eventName" | "valueField" | "filters">;

/** True when the event counts for this definition: same name, every filter passes, an amount. */
export function matchesEvent(def: EventMatcher, event: CounterEvent): boolean {
  return (
    event.eventName === def.eventName &&
    def.filters.every((f) => filterPasses(f, event.metaData)) &&
    eventAmount(def, event) !== null
  );
}

/**
 * The counter after one event of any name. An event of the definition's name in a new session
 * resets a session-scoped counter even when the filters reject it (the session changed for that
 * user and event name); a matching event then adds (`single`) or replaces (`group`) its amount.
 */
export function applyCounter(state: CounterState, def: CounterDef, event: CounterEvent): CounterState {
  if (event.eventName !== def.eventName) return state;
  const newSession = state.lastSessionId !== null && state.lastSessionId !== event.sessionId;
  let score = def.counterScope === "session" && newSession ? 0 : state.score;
  if (matchesEvent(def, event)) {
    const amount = eventAmount(def, event)!;
    score = event.eventType === "group" ? amount : score + amount;
  }
  return { score, lastSessionId: event.sessionId };
}

/**
 * Condition 0: the counter reached the goal. Condition 1: the counter is at or below it (test after an applied event).
 */
export function isGoalReached(def: Pick<CounterDef, "goal" | "goalCondition">, score: number): boolean {
  return def.goalCondition === 1 ? score <= def.goal : score >= def.goal;
}

export interface CounterStep {
  state: CounterState;
  /** The event counted (its amount was added or replaced the counter). */
  applied: boolean;
  /** The goal is reached by this event; only an applied event can reach it. */
  goalReached: boolean;
}

/** One event on one live counter: the new state and whether this event completed the goal. */
export function stepCounter(state: CounterState, def: CounterDef, event: CounterEvent): CounterStep {
  const next = applyCounter(state, def, event);
  const applied = matchesEvent(def, event);
  return { state: next, applied, goalReached: applied && isGoalReached(def, next.score) };
}
