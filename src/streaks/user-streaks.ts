import { callUserArea } from "../user/names";
import { appTrust, banInForce, type AppTrust } from "../auth/trust";
import type { CorrectionRequest, CorrectionResult, Staged, UserArea, UserObjectContext } from "../user/area";
import type { UserEvent } from "../user/event";
import { getNow, toIso } from "../shared/clock";
import { localize } from "../shared/localize";
import { matchesEvent } from "../rules/counter";
import { streakChange, streakChangeTarget } from "./core/changes";
import type { StreakDef, StreaksCatalog } from "./core/model";
import {
  advance,
  countEvent,
  grantFreezes,
  initialState,
  nextDecisionAt,
  restore,
  ruleFor,
  type Step,
  type StreakState,
} from "./core/streak";
import { streaksCatalog } from "./catalog";
import {
  dueStreakIds,
  forgetDecision,
  nextDecision,
  readProfile,
  readHistory,
  readState,
  readStates,
  readStored,
  streaksSchema,
  writeProfile,
  writeState,
} from "./user-store";

/** What a transaction of the streaks area reads, loaded before it: the app's streaks and its bans. */
interface Loaded {
  appId: string;
  catalog: StreaksCatalog;
  trust: AppTrust;
}

/** Whether the event qualifies for the streak: its name (any, without one) and every filter. */
const qualifies = (def: StreakDef, event: UserEvent) =>
  (def.eventName === null || def.eventName === event.eventName) &&
  matchesEvent({ eventName: event.eventName, valueField: null, filters: def.filters }, event);

/** A streak of a player as the player API shows it. */
function present(def: StreakDef, state: StreakState, language: string | undefined, defaultLanguage: string) {
  return {
    streak_id: def.streakId,
    key: def.key,
    name: localize(def.name, language, defaultLanguage),
    period: def.period,
    length: state.length,
    longest: state.longest,
    kept_this_period: state.kept,
    count_this_period: state.count,
    min_count: def.minCount,
    period_ends_at: toIso(state.periodEnd),
    freezes: state.freezes,
    started_at: state.startedAt === null ? null : toIso(state.startedAt),
    last_kept_period_start: state.lastKeptPeriodStart === null ? null : toIso(state.lastKeptPeriodStart),
    lost_length: state.lost?.length ?? 0,
  };
}

/**
 * The streaks area of the user's Durable Object (src/user/area.ts): each streak's state next to the
 * player's events, so one writer keeps every count exact. Events keep periods; the object's alarm
 * closes periods that end while a streak is alive (a freeze used, or the streak lost), also for a
 * player who never returns. The player's time zone is kept here too. A banned player's events keep
 * nothing.
 */
export class UserStreaks implements UserArea<Loaded | null> {
  static readonly schema = streaksSchema;

  constructor(private readonly context: UserObjectContext) {}

  private get sql() {
    return this.context.sql;
  }

  private async load(appId: string): Promise<Loaded> {
    const [catalog, trust] = await Promise.all([
      streaksCatalog(this.context.env.DB, appId),
      appTrust(this.context.env.DB, appId),
    ]);
    return { appId, catalog, trust };
  }

  async prepareEvent(event: UserEvent): Promise<Loaded | null> {
    const loaded = await this.load(event.appId);
    return loaded.catalog.streaks.length === 0 ? null : loaded;
  }

  applyEvent(loaded: Loaded | null, event: UserEvent, staged: Staged): void {
    if (!loaded) return;
    const defs = loaded.catalog.streaks.filter((def) => qualifies(def, event));
    if (defs.length === 0) return;
    if (banInForce(loaded.trust, event.userId, event.receivedAt)) return;
    const profile = readProfile(this.sql);
    if (!profile) writeProfile(this.sql, event.appId, event.userId);
    const zone = profile?.timeZone ?? null;
    const stored = readStored(this.sql);
    for (const def of defs) {
      const rule = ruleFor(def, zone);
      const known = stored.get(def.streakId);
      const state = known?.state ?? initialState(def, rule, event.receivedAt);
      // Periods close before the event counts: their calendar is needed then only.
      if (known && event.receivedAt >= state.periodEnd) state.history = readHistory(this.sql, def.streakId);
      const step = countEvent(def, state, rule, event.receivedAt);
      const calendarUnchanged = known !== undefined && step.state.history === state.history;
      this.record(
        loaded,
        event.userId,
        def,
        known?.decideAt ?? null,
        step,
        zone,
        staged,
        event.receivedAt,
        calendarUnchanged,
      );
    }
  }

  /** Writes a step's state with its next decision, and reports its notes (changes, milestone rewards). */
  private record(
    loaded: Loaded,
    userId: string,
    def: StreakDef,
    beforeAt: number | null,
    step: Step,
    zone: string | null,
    staged: Staged,
    at: number,
    calendarUnchanged = false,
  ): void {
    const decideAt = nextDecisionAt(step.state, ruleFor(def, zone));
    writeState(this.sql, def.streakId, step.state, decideAt, calendarUnchanged);
    if (decideAt !== beforeAt) staged.timersMoved = true;
    for (const n of step.notes) {
      if (n.milestone)
        for (const reward of n.milestone.pointsRewards)
          staged.credit({
            target: "points",
            appId: loaded.appId,
            userId,
            system: reward.system,
            amount: reward.amount,
            source: { kind: "streak-milestone", id: def.streakId },
            reason: `Streak ${def.key} reached ${n.milestone.length}`,
            at,
          });
      if (staged.receives(streakChangeTarget(loaded.appId, userId, n.type)))
        staged.changes.push(streakChange(loaded.appId, userId, def, n));
    }
  }

  nextTimerAt(): number | null {
    return nextDecision(this.sql);
  }

  /** Closes the periods that ended while a streak was alive: a freeze used, or the streak lost. */
  async onAlarm(): Promise<void> {
    const profile = readProfile(this.sql);
    if (!profile) return;
    const now = await getNow(this.context.env);
    if (dueStreakIds(this.sql, now).length === 0) return;
    const loaded = await this.load(profile.appId);
    await this.context.transact((staged) => {
      const zone = readProfile(this.sql)?.timeZone ?? null;
      for (const streakId of dueStreakIds(this.sql, now)) {
        const def = loaded.catalog.byId.get(streakId);
        const state = readState(this.sql, streakId);
        if (!def || !state) {
          forgetDecision(this.sql, streakId);
          staged.timersMoved = true;
          continue;
        }
        const step = advance(state, ruleFor(def, zone), now);
        // Due, so its index entry moves in any case.
        this.record(loaded, profile.userId, def, null, step, zone, staged, now);
      }
      staged.timersMoved = true;
    }, profile.appId);
  }

  /**
   * The player's streaks of the app, each brought up to `now` first (a period that ended is closed,
   * with its webhooks, before the answer shows it). A streak the player never counted for shows
   * its first state.
   */
  async list(appId: string, userId: string, now: number, language?: string) {
    const loaded = await this.load(appId);
    const { catalog } = loaded;
    const states = await this.bringUpToDate(loaded, userId, now);
    return {
      streaks: catalog.streaks.map((def) => present(def, states.get(def.streakId)!, language, catalog.defaultLanguage)),
    };
  }

  /** Every streak's state at `now`, closing ended periods of the stored ones in one transaction. */
  private async bringUpToDate(loaded: Loaded, userId: string, now: number): Promise<Map<string, StreakState>> {
    const zone = readProfile(this.sql)?.timeZone ?? null;
    const stored = readStates(this.sql);
    const stale = loaded.catalog.streaks.filter((def) => {
      const s = stored.get(def.streakId);
      return s !== undefined && now >= s.periodEnd;
    });
    if (stale.length > 0)
      await this.context.transact((staged) => {
        for (const def of stale) {
          const state = readState(this.sql, def.streakId);
          if (state) this.record(loaded, userId, def, null, advance(state, ruleFor(def, zone), now), zone, staged, now);
        }
      }, loaded.appId);
    const fresh = stale.length > 0 ? readStates(this.sql) : stored;
    return new Map(
      loaded.catalog.streaks.map((def) => [
        def.streakId,
        fresh.get(def.streakId) ?? initialState(def, ruleFor(def, zone), now),
      ]),
    );
  }

  /** The player's stored time zone, or null. */
  timeZone(): { time_zone: string | null } {
    return { time_zone: readProfile(this.sql)?.timeZone ?? null };
  }

  /**
   * Stores the player's zone: the current periods keep their ends, the following ones end at the
   * boundaries of the new zone (the next decision of a kept period moves with it).
   */
  async setTimeZone(appId: string, userId: string, timeZone: string): Promise<{ time_zone: string }> {
    const { catalog } = await this.load(appId);
    await this.context.transact((staged) => {
      writeProfile(this.sql, appId, userId, timeZone);
      for (const [streakId, state] of readStates(this.sql)) {
        const def = catalog.byId.get(streakId);
        if (def) writeState(this.sql, streakId, state, nextDecisionAt(state, ruleFor(def, timeZone)));
      }
      staged.timersMoved = true;
    }, appId);
    return { time_zone: timeZone };
  }

  /**
   * Everything the area holds of the player (the admin's view, the export), with the calendar of
   * the last closed periods; ended periods are shown closed without writing.
   */
  async stored(appId: string, now: number) {
    const { catalog } = await this.load(appId);
    const zone = readProfile(this.sql)?.timeZone ?? null;
    const states = readStates(this.sql);
    return {
      time_zone: zone,
      streaks: catalog.streaks.flatMap((def) => {
        const state = states.get(def.streakId);
        if (!state) return [];
        const rule = ruleFor(def, zone);
        const current = advance(state, rule, now).state;
        return [
          {
            ...present(def, current, undefined, catalog.defaultLanguage),
            freezes_max: def.freezes.max,
            restorable: current.lost !== null,
            calendar: current.history.map((h) => ({ period_start: toIso(h.start), status: h.status })),
          },
        ];
      }),
    };
  }

  /** The operator's corrections: restore a lost run, grant freezes. */
  readonly corrections = {
    "streak-restore": (request: CorrectionRequest) => this.correct(request, "restore"),
    "streak-freezes": (request: CorrectionRequest) => this.correct(request, "freezes"),
  };

  private async correct(
    { appId, userId, now, input }: CorrectionRequest,
    kind: "restore" | "freezes",
  ): Promise<CorrectionResult> {
    const { streakId, amount } = input as { streakId: string; amount?: number };
    const loaded = await this.load(appId);
    const def = loaded.catalog.byId.get(streakId);
    if (!def) return { ok: false, kind: "not-found", message: `Streak ${streakId} not found` };
    return this.context.transact((staged): CorrectionResult => {
      writeProfile(this.sql, appId, userId);
      const zone = readProfile(this.sql)?.timeZone ?? null;
      const rule = ruleFor(def, zone);
      const storedRow = readState(this.sql, def.streakId);
      const current = advance(storedRow ?? initialState(def, rule, now), rule, now);
      let after: StreakState;
      if (kind === "restore") {
        const restored = restore(current.state, rule, now);
        if (!restored.ok) return restored;
        after = restored.state;
      } else after = grantFreezes(def, current.state, amount ?? 0);
      this.record(loaded, userId, def, null, { state: after, notes: current.notes }, zone, staged, now);
      const view = (s: StreakState) => ({
        streak_id: def.streakId,
        key: def.key,
        length: s.length,
        longest: s.longest,
        freezes: s.freezes,
        lost_length: s.lost?.length ?? 0,
      });
      return { ok: true, before: view(current.state), after: view(after) };
    }, appId);
  }
}

/** The streaks area's name: its part of the user's object. */
export const STREAKS = "streaks";

/** The streaks part of a user's object, over RPC. */
export const userStreaks = (env: Env, appId: string, userId: string) =>
  callUserArea<UserStreaks>(env, appId, userId, STREAKS);
