import { INITIAL_COUNTER, isGoalReached, stepCounter, type CounterEvent } from "../../rules/counter";
import type { ChallengeDef } from "./model";
import { periodStart } from "../../rules/schedule";

/**
 * The spec's state machine of one challenge for one user, as pure functions. A challenge the user
 * never unlocked has no instance (`null`) and shows as `unlock`; `gone` marks a non-repeatable
 * challenge that timed out or was cancelled and is never offered to that user again.
 */

export type ChallengeType = "unlock" | "unlocked" | "in-progress" | "unclaimed" | "finished";
/** Notifications (MQTT, webhooks) also carry the two terminal events. */
export type NotificationType = ChallengeType | "lost" | "cancelled";
export type StoredType = Exclude<ChallengeType, "unlock"> | "gone";

export interface Instance {
  userChallengeId: string;
  type: StoredType;
  score: number;
  lastSessionId: string | null;
  unlockedAt: number | null;
  activatedAt: number | null;
  /** activatedAt + duration; null when the challenge does not time out or is not active. */
  expiresAt: number | null;
  isClaimed: boolean;
  /** Start of the reset period the instance was started in (periodic automatic challenges). */
  periodStart: number | null;
}

/** What a notification shows of one side of a change. */
export interface Snapshot {
  type: NotificationType;
  instance: Instance | null;
}

export interface Transition {
  challengeId: string;
  before: Snapshot;
  after: Snapshot;
}

export interface Outcome {
  next: Instance | null;
  transitions: Transition[];
  /** Unlocks that count toward the app's monthly usage. */
  unlocks: number;
}

export interface TouchContext {
  now: number;
  newId: () => string;
  /** Offered right now: past its live date and, in the daily category, picked today. */
  available: boolean;
  /** A touch by the user (list, action, event) starts automatic challenges; the alarm does not. */
  autoStart: boolean;
}

/** A wrong-state action: answered 409. */
export class ChallengeStateError extends Error {}

export const snapshotOf = (instance: Instance | null): Snapshot => ({
  type: instance ? (instance.type as ChallengeType) : "unlock",
  instance,
});

const isPeriodic = (def: ChallengeDef) => def.autoActivated && def.period.period !== "never";

const expiryFrom = (def: ChallengeDef, activatedAt: number) =>
  def.durationSeconds > 0 ? activatedAt + def.durationSeconds * 1000 : null;

function started(def: ChallengeDef, ctx: TouchContext, unlockedAt: number | null): Instance {
  return {
    userChallengeId: ctx.newId(),
    type: "in-progress",
    ...INITIAL_COUNTER,
    unlockedAt: unlockedAt ?? ctx.now,
    activatedAt: ctx.now,
    expiresAt: expiryFrom(def, ctx.now),
    isClaimed: false,
    periodStart: isPeriodic(def) ? periodStart(def.period, ctx.now) : null,
  };
}

/** After a time-out or cancel: repeatable ones come back as `unlock`, the others are gone. */
const afterEnd = (def: ChallengeDef, instance: Instance): Instance | null =>
  def.repeatable ? null : { ...instance, type: "gone", expiresAt: null };

function wrongState(def: ChallengeDef, instance: Instance | null, action: string, required: ChallengeType): never {
  const type = instance ? instance.type : "unlock";
  throw new ChallengeStateError(
    `Challenge ${def.challengeId} is ${type === "gone" ? "no longer available" : `in state ${type}`}; only a challenge in state ${required} can be ${action}`,
  );
}

/**
 * Whether `refresh` can change anything: nothing happens by itself to a challenge the user never
 * started unless it starts automatically. Lets a list of 1,000 manual challenges skip 1,000 calls.
 */
export const mayRefresh = (def: ChallengeDef, instance: Instance | null): boolean =>
  instance !== null || def.autoActivated;

/**
 * Everything that happens by itself, applied lazily on each touch: the time-out (a `lost`
 * notification), the periodic reset of automatic challenges, and the automatic unlock and
 * activation of automatic challenges.
 */
export function refresh(def: ChallengeDef, instance: Instance | null, ctx: TouchContext): Outcome {
  const transitions: Transition[] = [];
  let current = instance;
  let unlocks = 0;

  if (current?.type === "in-progress" && current.expiresAt !== null && current.expiresAt <= ctx.now) {
    transitions.push({
      challengeId: def.challengeId,
      before: snapshotOf(current),
      after: { type: "lost", instance: current },
    });
    current = afterEnd(def, current);
  }

  let resetFrom: Snapshot | null = null;
  if (current && current.type !== "gone" && isPeriodic(def)) {
    const start = periodStart(def.period, ctx.now);
    if (start !== null && (current.periodStart ?? -Infinity) < start) {
      resetFrom = snapshotOf(current);
      current = null;
    }
  }

  const startable = def.autoActivated && ctx.autoStart && ctx.available;
  if (startable && current === null) {
    current = started(def, ctx, null);
    unlocks++;
    transitions.push({
      challengeId: def.challengeId,
      before: resetFrom ?? snapshotOf(null),
      after: snapshotOf(current),
    });
  } else if (startable && current?.type === "unlocked") {
    // Unlocked by hand before the challenge was made automatic: the spec's "unlock / unlocked" row.
    const before = current;
    current = { ...started(def, ctx, before.unlockedAt), userChallengeId: before.userChallengeId };
    transitions.push({ challengeId: def.challengeId, before: snapshotOf(before), after: snapshotOf(current) });
  } else if (resetFrom) {
    transitions.push({ challengeId: def.challengeId, before: resetFrom, after: snapshotOf(null) });
  }
  return { next: current, transitions, unlocks };
}

const changed = (def: ChallengeDef, before: Instance | null, next: Instance | null, unlocks = 0): Outcome => ({
  next,
  transitions: [{ challengeId: def.challengeId, before: snapshotOf(before), after: snapshotOf(next) }],
  unlocks,
});

/** unlock → unlocked. */
export function unlock(def: ChallengeDef, instance: Instance | null, ctx: TouchContext): Outcome {
  if (instance !== null) wrongState(def, instance, "unlocked", "unlock");
  const next: Instance = {
    userChallengeId: ctx.newId(),
    type: "unlocked",
    ...INITIAL_COUNTER,
    unlockedAt: ctx.now,
    activatedAt: null,
    expiresAt: null,
    isClaimed: false,
    periodStart: null,
  };
  return changed(def, instance, next, 1);
}

/** unlocked → in-progress; the time-out runs from now. */
export function activate(def: ChallengeDef, instance: Instance | null, ctx: TouchContext): Outcome {
  if (instance?.type !== "unlocked") wrongState(def, instance, "activated", "unlocked");
  const next: Instance = { ...started(def, ctx, instance.unlockedAt), userChallengeId: instance.userChallengeId };
  return changed(def, instance, next);
}

/** in-progress → a `cancelled` notification; repeatable: back to unlock, else gone. */
export function cancel(def: ChallengeDef, instance: Instance | null): Outcome {
  if (instance?.type !== "in-progress") wrongState(def, instance, "cancelled", "in-progress");
  return {
    next: afterEnd(def, instance),
    transitions: [
      { challengeId: def.challengeId, before: snapshotOf(instance), after: { type: "cancelled", instance } },
    ],
    unlocks: 0,
  };
}

/** unclaimed → finished; a repeatable manual challenge is then offered again as unlock. */
export function claim(def: ChallengeDef, instance: Instance | null): Outcome {
  if (instance?.type !== "unclaimed") wrongState(def, instance, "claimed", "unclaimed");
  const finished: Instance = { ...instance, type: "finished", isClaimed: true, expiresAt: null };
  return {
    next: def.repeatable && !isPeriodic(def) ? null : finished,
    transitions: [{ challengeId: def.challengeId, before: snapshotOf(instance), after: snapshotOf(finished) }],
    unlocks: 0,
  };
}

/**
 * One event on an `in-progress` challenge. Reaching the goal makes a manual challenge
 * `unclaimed`; an automatic one is claimed by the service and `finished` (repeatable ones without
 * a period start again at the next touch; periodic ones wait for the next period).
 */
export function countEvent(def: ChallengeDef, instance: Instance | null, event: CounterEvent): Outcome {
  if (instance?.type !== "in-progress") return { next: instance, transitions: [], unlocks: 0 };
  const step = stepCounter(instance, def.counter, event);
  const counted: Instance = { ...instance, score: step.state.score, lastSessionId: step.state.lastSessionId };
  if (step.goalReached) {
    const done: Instance = def.autoActivated
      ? { ...counted, type: "finished", isClaimed: true, expiresAt: null }
      : { ...counted, type: "unclaimed", expiresAt: null };
    const next = def.autoActivated && def.repeatable && !isPeriodic(def) ? null : done;
    return {
      next,
      transitions: [{ challengeId: def.challengeId, before: snapshotOf(instance), after: snapshotOf(done) }],
      unlocks: 0,
    };
  }
  if (counted.score === instance.score) return { next: counted, transitions: [], unlocks: 0 };
  return changed(def, instance, counted);
}

/**
 * An operator's corrections (src/players/corrections.ts), each the change the player's own play
 * would have made, with the same notification: the counter set on an `in-progress` challenge (the
 * goal reached completes it as an event would), a challenge completed, or put back to `unlocked`.
 */

/** The goal reached as by an event: manual → unclaimed; automatic → claimed by the service, finished. */
function completed(def: ChallengeDef, instance: Instance, score: number): Outcome {
  const counted: Instance = { ...instance, score };
  const done: Instance = def.autoActivated
    ? { ...counted, type: "finished", isClaimed: true, expiresAt: null }
    : { ...counted, type: "unclaimed", expiresAt: null };
  const next = def.autoActivated && def.repeatable && !isPeriodic(def) ? null : done;
  return {
    next,
    transitions: [{ challengeId: def.challengeId, before: snapshotOf(instance), after: snapshotOf(done) }],
    unlocks: 0,
  };
}

/** in-progress → its counter set to `score` (0..goal); reaching the goal completes it. */
export function setCounter(def: ChallengeDef, instance: Instance | null, score: number): Outcome {
  if (instance?.type !== "in-progress") wrongState(def, instance, "given a counter", "in-progress");
  if (isGoalReached(def.counter, score)) return completed(def, instance, score);
  if (score === instance.score) return { next: instance, transitions: [], unlocks: 0 };
  return changed(def, instance, { ...instance, score });
}

/** in-progress → completed, the counter at the goal. */
export function complete(def: ChallengeDef, instance: Instance | null): Outcome {
  if (instance?.type !== "in-progress") wrongState(def, instance, "completed", "in-progress");
  return completed(def, instance, def.goal);
}

/**
 * Any state but `unlocked` → unlocked, the counter at zero (a challenge never unlocked is unlocked; a gone one is
 * offered again).
 */
export function putBack(def: ChallengeDef, instance: Instance | null, ctx: TouchContext): Outcome {
  if (instance?.type === "unlocked") {
    throw new ChallengeStateError(`Challenge ${def.challengeId} is already in state unlocked`);
  }
  const next: Instance = {
    userChallengeId: instance?.userChallengeId ?? ctx.newId(),
    type: "unlocked",
    ...INITIAL_COUNTER,
    unlockedAt: instance?.unlockedAt ?? ctx.now,
    activatedAt: null,
    expiresAt: null,
    isClaimed: false,
    periodStart: null,
  };
  return changed(def, instance?.type === "gone" ? null : instance, next, instance === null ? 1 : 0);
}
