import { boundariesBetween, nextBoundary, periodAt, type PeriodRule } from "./periods";
import type { StreakDef } from "./model";

/**
 * A player's streak as a pure state machine over service time (no I/O): periods close when their
 * end has passed (`advance`), a period is kept by `min_count` qualifying events, a period that ends
 * not kept uses a freeze or loses the streak. Every step answers the notes the area turns into
 * webhooks, notifications and rewards.
 */

/** How a closed period of the calendar went. */
export type PeriodStatus = "kept" | "frozen" | "missed";

/** Periods the calendar keeps. */
export const HISTORY_LIMIT = 35;
/** A streak lost this many periods ago or earlier can no longer be restored. */
export const RESTORE_WITHIN_PERIODS = 7;

export interface StreakState {
  length: number;
  longest: number;
  freezes: number;
  /** The period the player is in, as it was opened: [start, end). */
  periodStart: number;
  periodEnd: number;
  count: number;
  kept: boolean;
  /** Start of the first period of the current run; null while there is none. */
  startedAt: number | null;
  lastKeptPeriodStart: number | null;
  /** The highest milestone length credited in the current run. */
  milestoneReached: number;
  /** The run lost last, kept for a restore. */
  lost: { length: number; at: number; startedAt: number | null; milestoneReached: number } | null;
  /** Closed periods, oldest first, at most HISTORY_LIMIT. */
  history: { start: number; status: PeriodStatus }[];
}

export type StreakNoteType =
  | "streak-extended"
  | "streak-freeze-used"
  | "streak-freeze-earned"
  | "streak-lost"
  | "streak-milestone";

/** One thing that happened to the streak, with the streak's numbers right after it. */
export interface StreakNote {
  type: StreakNoteType;
  length: number;
  longest: number;
  freezes: number;
  periodStart: number;
  /** For a milestone: its length and rewards. */
  milestone?: StreakDef["milestones"][number];
}

export interface Step {
  state: StreakState;
  notes: StreakNote[];
}

/** The rule of the streak's periods for a player: their zone, else the streak's. */
export const ruleFor = (def: StreakDef, playerZone: string | null): PeriodRule => ({
  period: def.period,
  resetAtTime: def.resetAtTime,
  timeZone: playerZone ?? def.timeZone,
});

/** A player's first state of a streak: the period holding `now` open, the initial freezes granted. */
export function initialState(def: StreakDef, rule: PeriodRule, now: number): StreakState {
  const { start, end } = periodAt(rule, now);
  return {
    length: 0,
    longest: 0,
    freezes: Math.min(def.freezes.initial, def.freezes.max),
    periodStart: start,
    periodEnd: end,
    count: 0,
    kept: false,
    startedAt: null,
    lastKeptPeriodStart: null,
    milestoneReached: 0,
    lost: null,
    history: [],
  };
}

const remember = (history: StreakState["history"], start: number, status: PeriodStatus) => {
  history.push({ start, status });
  if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT);
};

/**
 * Closes every period that has ended by `now`. A kept period closes as it is; one not kept uses a
 * freeze while the streak is alive, else loses it. The next period starts at the end of the closed
 * one and ends at the next boundary in `rule`'s zone (which may have changed); once no streak is
 * alive, idle periods are skipped to the one holding `now` (so the loop is bounded by the freezes).
 */
export function advance(state: StreakState, rule: PeriodRule, now: number): Step {
  if (now < state.periodEnd) return { state, notes: [] };
  const s: StreakState = { ...state, history: [...state.history] };
  const notes: StreakNote[] = [];
  while (now >= s.periodEnd) {
    const closedStart = s.periodStart;
    const closedEnd = s.periodEnd;
    if (s.kept) remember(s.history, closedStart, "kept");
    else if (s.length > 0 && s.freezes > 0) {
      s.freezes -= 1;
      remember(s.history, closedStart, "frozen");
      notes.push(note("streak-freeze-used", s, closedStart));
    } else {
      remember(s.history, closedStart, "missed");
      if (s.length > 0) {
        s.lost = { length: s.length, at: closedEnd, startedAt: s.startedAt, milestoneReached: s.milestoneReached };
        s.length = 0;
        s.startedAt = null;
        s.milestoneReached = 0;
        notes.push({ ...note("streak-lost", s, closedStart), length: 0 });
      }
    }
    s.count = 0;
    s.kept = false;
    if (s.length > 0) {
      s.periodStart = closedEnd;
      s.periodEnd = nextBoundary(rule, closedEnd);
    } else {
      const next = periodAt(rule, Math.max(now, closedEnd));
      // The first period after the closed one starts at its end, whatever the zone says.
      s.periodStart = Math.max(next.start, closedEnd);
      s.periodEnd = next.end;
    }
  }
  return { state: s, notes };
}

const note = (type: StreakNoteType, s: StreakState, periodStart: number): StreakNote => ({
  type,
  length: s.length,
  longest: s.longest,
  freezes: s.freezes,
  periodStart,
});

/**
 * One qualifying event at `now`: closes ended periods, counts it, and keeps the period at
 * `min_count`: the streak rises by one, may earn a freeze (every `earn_every` of its length, up to
 * `max`) and reach milestones not yet credited in this run.
 */
export function countEvent(def: StreakDef, state: StreakState, rule: PeriodRule, now: number): Step {
  const advanced = advance(state, rule, now);
  const s: StreakState = { ...advanced.state };
  const notes = [...advanced.notes];
  s.count += 1;
  if (s.kept || s.count < def.minCount) return { state: s, notes };
  s.kept = true;
  if (s.length === 0) s.startedAt = s.periodStart;
  s.length += 1;
  s.longest = Math.max(s.longest, s.length);
  s.lastKeptPeriodStart = s.periodStart;
  notes.push(note("streak-extended", s, s.periodStart));
  const { earnEvery, max } = def.freezes;
  if (earnEvery > 0 && s.length % earnEvery === 0 && s.freezes < max) {
    s.freezes += 1;
    notes.push(note("streak-freeze-earned", s, s.periodStart));
  }
  for (const milestone of def.milestones) {
    if (milestone.length > s.milestoneReached && milestone.length <= s.length) {
      s.milestoneReached = milestone.length;
      notes.push({ ...note("streak-milestone", s, s.periodStart), milestone });
    }
  }
  return { state: s, notes };
}

/**
 * When the object needs its alarm for this streak: at the end of the first period that can end
 * not kept while the streak is alive (a kept period's end decides nothing); null when no streak is
 * alive, so that a player who never returns costs at most freezes + 1 alarms.
 */
export function nextDecisionAt(state: StreakState, rule: PeriodRule): number | null {
  if (state.length === 0) return null;
  return state.kept ? nextBoundary(rule, state.periodEnd) : state.periodEnd;
}

export type CorrectionStep = { ok: true; state: StreakState } | { ok: false; kind: "conflict"; message: string };

/**
 * Back to the length lost last, when it was lost within the last RESTORE_WITHIN_PERIODS periods;
 * a run started since then is added to it.
 */
export function restore(state: StreakState, rule: PeriodRule, now: number): CorrectionStep {
  const lost = state.lost;
  if (!lost) return { ok: false, kind: "conflict", message: "The streak has no lost run to restore" };
  if (boundariesBetween(rule, lost.at, now, RESTORE_WITHIN_PERIODS) >= RESTORE_WITHIN_PERIODS)
    return {
      ok: false,
      kind: "conflict",
      message: `The streak was lost more than ${RESTORE_WITHIN_PERIODS} periods ago`,
    };
  const length = lost.length + state.length;
  return {
    ok: true,
    state: {
      ...state,
      length,
      longest: Math.max(state.longest, length),
      startedAt: lost.startedAt ?? state.startedAt ?? state.periodStart,
      milestoneReached: Math.max(state.milestoneReached, lost.milestoneReached),
      lost: null,
    },
  };
}

/** Adds freezes, capped by the streak's `max`. */
export function grantFreezes(def: StreakDef, state: StreakState, amount: number): StreakState {
  return { ...state, freezes: Math.min(def.freezes.max, state.freezes + amount) };
}
