import {
  applyCounter,
  INITIAL_COUNTER,
  isGoalReached,
  matchesEvent,
  type CounterDef,
  type CounterEvent,
  type CounterState,
} from "../../rules/counter";

/**
 * The battle-pass state machine of one user, pure: it takes `now` and never does I/O.
 *
 * Levels (the spec's table):
 * - The first level is activated when the user unlocks the pass.
 * - `is_unlocked_incrementally`: level n+1 is activated at the moment level n is completed; the
 *   activate endpoint cannot skip ahead (409), and answers OK for a level that is already active.
 * - Otherwise any level may be activated with the activate endpoint, several at a time.
 * - A level is completed when every one of its challenges is completed; its reward may be claimed
 *   once, and only then (409 otherwise).
 *
 * Level challenge `type` (the spec leaves the transitions open; these are ours):
 * - `unlock`: not tracking: the pass is not unlocked, the level is not activated, or the pass has
 *   not started (or is switched off by the admin).
 * - `in-progress`: the level is activated and the pass is between start_date and end_date:
 *   matching events move its counter.
 * - `overtime`: end_date passed while the challenge was in progress of an activated level; the
 *   counter stays as achieved. Derived when read, so it sends no notification of its own (the
 *   battlepass-expired webhook announces the end).
 * - `unclaimed`: the goal was reached (per challenge_goal_condition, tested after a matching
 *   event); final for the counter.
 * - `finished`: the reward of its level was claimed.
 * in-progress -> unclaimed by an event, unclaimed -> finished by the level claim,
 * unlock -> in-progress by unlocking the pass, activating the level (or completing the previous
 * one) or reaching start_date, in-progress -> overtime by reaching end_date.
 */

export type LevelChallengeType = "unlock" | "in-progress" | "overtime" | "unclaimed" | "finished";

export interface ChallengeDef extends CounterDef {
  challengeId: string;
}

export interface LevelDef {
  levelId: string;
  challenges: ChallengeDef[];
}

/** What the machine needs of a pass; levels in position order. */
export interface PassDef {
  battlePassId: string;
  startMs: number;
  endMs: number;
  /** The admin's `is_active` switch: a switched-off pass tracks nothing. */
  enabled: boolean;
  incremental: boolean;
  levels: LevelDef[];
}

export interface ChallengeProgress {
  counter: CounterState;
  completedAt: number | null;
}

export interface LevelProgress {
  /** Only set by the activate endpoint; the first level and incremental levels derive theirs. */
  activatedAt: number | null;
  claimedAt: number | null;
}

/** One user's progress in one pass, from the moment they unlocked it. */
export interface PassProgress {
  unlockedAt: number;
  purchasePrice: number;
  purchaseCurrency: string;
  levels: Record<string, LevelProgress>;
  challenges: Record<string, ChallengeProgress>;
}

export interface ChallengeView {
  challengeId: string;
  index: number;
  score: number;
  type: LevelChallengeType;
}

export interface LevelView {
  levelId: string;
  index: number;
  activatedAt: number | null;
  completed: boolean;
  completedAt: number | null;
  rewardClaimed: boolean;
  challenges: ChallengeView[];
}

export type Outcome<T> = { ok: true; value: T } | { ok: false; conflict: string };

const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const refuse = <T>(conflict: string): Outcome<T> => ({ ok: false, conflict });

export const isTracking = (def: PassDef, at: number) => def.enabled && def.startMs <= at && at < def.endMs;
export const hasEnded = (def: PassDef, at: number) => at >= def.endMs;

/** When a challenge was completed, or null. */
const completedAtOf = (progress: PassProgress | null, challengeId: string) =>
  progress?.challenges[challengeId]?.completedAt ?? null;

/** A level with no challenges is never completed: there is nothing to complete it. */
function levelCompletedAt(level: LevelDef, progress: PassProgress | null): number | null {
  if (level.challenges.length === 0) return null;
  let latest = 0;
  for (const c of level.challenges) {
    const at = completedAtOf(progress, c.challengeId);
    if (at === null) return null;
    latest = Math.max(latest, at);
  }
  return latest;
}

/** Activation times of every level, in order: derived for the first and incremental levels. */
function activationTimes(def: PassDef, progress: PassProgress | null): (number | null)[] {
  if (!progress) return def.levels.map(() => null);
  return def.levels.map((level, i) => {
    if (i === 0) return progress.unlockedAt;
    if (def.incremental) return levelCompletedAt(def.levels[i - 1], progress);
    return progress.levels[level.levelId]?.activatedAt ?? null;
  });
}

function challengeType(
  def: PassDef,
  activatedAt: number | null,
  completedAt: number | null,
  claimed: boolean,
  now: number,
): LevelChallengeType {
  if (completedAt !== null) return claimed ? "finished" : "unclaimed";
  if (activatedAt === null) return "unlock";
  if (hasEnded(def, now)) return "overtime";
  return isTracking(def, now) ? "in-progress" : "unlock";
}

/** The user's levels as the endpoints and the notifications show them; `progress` null: not unlocked. */
export function viewLevels(def: PassDef, progress: PassProgress | null, now: number): LevelView[] {
  const activated = activationTimes(def, progress);
  return def.levels.map((level, index) => {
    const claimedAt = progress?.levels[level.levelId]?.claimedAt ?? null;
    const completedAt = levelCompletedAt(level, progress);
    return {
      levelId: level.levelId,
      index,
      activatedAt: activated[index],
      completed: completedAt !== null,
      completedAt,
      rewardClaimed: claimedAt !== null,
      challenges: level.challenges.map((c, ci) => ({
        challengeId: c.challengeId,
        index: ci,
        score: progress?.challenges[c.challengeId]?.counter.score ?? 0,
        type: challengeType(def, activated[index], completedAtOf(progress, c.challengeId), claimedAt !== null, now),
      })),
    };
  });
}

/** True when every level is completed (and there is at least one). */
export const isPassCompleted = (def: PassDef, progress: PassProgress | null) =>
  def.levels.length > 0 && def.levels.every((level) => levelCompletedAt(level, progress) !== null);

export interface Purchase {
  price: number;
  currency: string;
}

/** Unlocking again changes nothing and is not an error; a pass that ended cannot be bought any more. */
export function unlockPass(
  def: PassDef,
  progress: PassProgress | null,
  purchase: Purchase,
  now: number,
): Outcome<PassProgress> {
  if (progress) return ok(progress);
  if (!def.enabled) return refuse(`Battle pass ${def.battlePassId} is not active`);
  if (hasEnded(def, now)) return refuse(`Battle pass ${def.battlePassId} has ended`);
  return ok({
    unlockedAt: now,
    purchasePrice: purchase.price,
    purchaseCurrency: purchase.currency,
    levels: {},
    challenges: {},
  });
}

export function activateLevel(
  def: PassDef,
  progress: PassProgress | null,
  levelId: string,
  now: number,
): Outcome<PassProgress> {
  const index = def.levels.findIndex((l) => l.levelId === levelId);
  if (index < 0) throw new Error(`level ${levelId} is not in pass ${def.battlePassId}`);
  if (!progress) return refuse(`Battle pass ${def.battlePassId} is not unlocked`);
  if (activationTimes(def, progress)[index] !== null) return ok(progress);
  if (def.incremental)
    return refuse(
      "The levels of this battle pass are activated one after the other: complete the previous level first",
    );
  if (hasEnded(def, now)) return refuse(`Battle pass ${def.battlePassId} has ended`);
  const current = progress.levels[levelId] ?? { activatedAt: null, claimedAt: null };
  return ok({ ...progress, levels: { ...progress.levels, [levelId]: { ...current, activatedAt: now } } });
}

export function claimLevel(
  def: PassDef,
  progress: PassProgress | null,
  levelId: string,
  now: number,
): Outcome<PassProgress> {
  const level = def.levels.find((l) => l.levelId === levelId);
  if (!level) throw new Error(`level ${levelId} is not in pass ${def.battlePassId}`);
  if (!progress || levelCompletedAt(level, progress) === null) return refuse(`Level ${levelId} is not completed`);
  const current = progress.levels[levelId] ?? { activatedAt: null, claimedAt: null };
  if (current.claimedAt !== null) return refuse(`The reward of level ${levelId} was already claimed`);
  return ok({ ...progress, levels: { ...progress.levels, [levelId]: { ...current, claimedAt: now } } });
}

/**
 * One event, received at `at`, on one pass. Only the in-progress challenges of levels activated
 * before the event count: a level that this event's completion activates starts with the next one.
 * Answers the same object when nothing changed.
 */
export function applyEvent(
  def: PassDef,
  progress: PassProgress | null,
  event: CounterEvent,
  at: number,
): PassProgress | null {
  if (!progress || !isTracking(def, at)) return progress;
  const activated = activationTimes(def, progress);
  let challenges: Record<string, ChallengeProgress> | null = null;
  def.levels.forEach((level, index) => {
    if (activated[index] === null) return;
    for (const c of level.challenges) {
      if (c.eventName !== event.eventName) continue;
      const current = progress.challenges[c.challengeId] ?? { counter: INITIAL_COUNTER, completedAt: null };
      if (current.completedAt !== null) continue;
      const counter = applyCounter(current.counter, c, event);
      const completedAt = matchesEvent(c, event) && isGoalReached(c, counter.score) ? at : null;
      challenges ??= { ...progress.challenges };
      challenges[c.challengeId] = { counter, completedAt };
    }
  });
  return challenges ? { ...progress, challenges } : progress;
}

export interface ChallengeChange {
  level: LevelView;
  old: ChallengeView;
  new: ChallengeView;
}

/** The challenges whose counter or type differ between two views of the same pass definition. */
export function changedChallenges(before: LevelView[], after: LevelView[]): ChallengeChange[] {
  const changes: ChallengeChange[] = [];
  after.forEach((level, li) => {
    level.challenges.forEach((next, ci) => {
      const prev = before[li]?.challenges[ci];
      if (prev && (prev.score !== next.score || prev.type !== next.type)) changes.push({ level, old: prev, new: next });
    });
  });
  return changes;
}

/** An operator's correction of one level challenge (src/players/corrections.ts): its counter set, or completed. */
export interface LevelChallengeCorrection {
  challengeId: string;
  /** 0..goal; reaching the goal completes the challenge, as an event would. */
  counter?: number;
  complete?: boolean;
}

/**
 * Sets the counter of an in-progress level challenge or completes it, as the player's events would
 * have: its level completes with its last challenge, and in an incremental pass the next level
 * activates. Any other state is refused, saying why.
 */
export function correctLevelChallenge(
  def: PassDef,
  progress: PassProgress | null,
  correction: LevelChallengeCorrection,
  now: number,
): Outcome<PassProgress> {
  const index = def.levels.findIndex((l) => l.challenges.some((c) => c.challengeId === correction.challengeId));
  if (index < 0) throw new Error(`challenge ${correction.challengeId} is not in pass ${def.battlePassId}`);
  if (!progress) return refuse(`Battle pass ${def.battlePassId} is not unlocked by this player: unlock it first`);
  const level = def.levels[index];
  const challenge = level.challenges.find((c) => c.challengeId === correction.challengeId)!;
  const type = viewLevels(def, progress, now)[index].challenges.find(
    (c) => c.challengeId === correction.challengeId,
  )!.type;
  if (type !== "in-progress") {
    const why =
      type === "unlock"
        ? activationTimes(def, progress)[index] === null
          ? "its level is not activated"
          : "the pass is not running"
        : `it is ${type}`;
    return refuse(
      `Challenge ${correction.challengeId} of level ${level.levelId} cannot be ${correction.complete ? "completed" : "given a counter"}: ${why}; only an in-progress challenge can`,
    );
  }
  const score = correction.complete ? challenge.goal : correction.counter!;
  const current = progress.challenges[challenge.challengeId] ?? { counter: INITIAL_COUNTER, completedAt: null };
  const counter = { ...current.counter, score };
  const completedAt = isGoalReached(challenge, score) ? now : null;
  return ok({ ...progress, challenges: { ...progress.challenges, [challenge.challengeId]: { counter, completedAt } } });
}
