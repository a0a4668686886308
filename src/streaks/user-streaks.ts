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
import { nextDecision, PlayerStreaks, readPlayer, streaksTables } from "./user-store";

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
  static readonly tables = streaksTables;

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
    const player = PlayerStreaks.read(this.sql);
    const at = event.receivedAt;
    for (const def of defs) {
      const rule = ruleFor(def, player.timeZone);
      const known = player.get(def.streakId);
      // Periods close before the event counts: the calendar is read then only.
      const state = !known
        ? initialState(def, rule, at)
        : at >= known.state.periodEnd
          ? player.withHistory(def.streakId)!
          : known.state;
      this.record(loaded, player, event.userId, def, countEvent(def, state, rule, at), staged, at, state.history);
    }
    player.save(event.appId, event.userId);
  }

  /**
   * Keeps a step's state with its next decision, and reports its notes (changes, milestone
   * rewards). `calendarBefore`: the calendar the step started from (written again when it changed).
   */
  private record(
    loaded: Loaded,
    player: PlayerStreaks,
    userId: string,
    def: StreakDef,
    step: Step,
    staged: Staged,
    at: number,
    calendarBefore: StreakState["history"] | null,
  ): void {
    const decideAt = nextDecisionAt(step.state, ruleFor(def, player.timeZone));
    if (decideAt !== (player.get(def.streakId)?.decideAt ?? null)) staged.timersMoved = true;
    player.set(def.streakId, step.state, decideAt, step.state.history !== calendarBefore);
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
    const who = readPlayer(this.sql);
    if (!who) return;
    const now = await getNow(this.context.env);
    const next = nextDecision(this.sql);
    if (next === null || next > now) return;
    const loaded = await this.load(who.appId);
    await this.context.transact((staged) => {
      const player = PlayerStreaks.read(this.sql);
      for (const streakId of player.due(now)) {
        const def = loaded.catalog.byId.get(streakId);
        const state = player.withHistory(streakId)!;
        if (!def) {
          // A deleted streak decides nothing any more.
          player.set(streakId, state, null, false);
          continue;
        }
        this.record(
          loaded,
          player,
          who.userId,
          def,
          advance(state, ruleFor(def, player.timeZone), now),
          staged,
          now,
          state.history,
        );
      }
      player.save(who.appId, who.userId);
      staged.timersMoved = true;
    }, who.appId);
  }

  /**
   * The player's streaks of the app, each brought up to `now` first (a period that ended is closed,
   * with its webhooks, before the answer shows it). A streak the player never counted for shows
   * its first state.
   */
  async list(appId: string, userId: string, now: number, language?: string) {
    const loaded = await this.load(appId);
    const { catalog } = loaded;
    const read = PlayerStreaks.read(this.sql);
    const stale = catalog.streaks.filter((def) => {
      const known = read.get(def.streakId);
      return known !== undefined && now >= known.state.periodEnd;
    });
    const player =
      stale.length === 0
        ? read
        : await this.context.transact((staged) => {
            const p = PlayerStreaks.read(this.sql);
            for (const def of stale) {
              const state = p.withHistory(def.streakId)!;
              this.record(
                loaded,
                p,
                userId,
                def,
                advance(state, ruleFor(def, p.timeZone), now),
                staged,
                now,
                state.history,
              );
            }
            p.save(appId, userId);
            return p;
          }, appId);
    return {
      streaks: catalog.streaks.map((def) =>
        present(
          def,
          player.get(def.streakId)?.state ?? initialState(def, ruleFor(def, player.timeZone), now),
          language,
          catalog.defaultLanguage,
        ),
      ),
    };
  }

  /** The player's stored time zone, or null. */
  timeZone(): { time_zone: string | null } {
    return { time_zone: readPlayer(this.sql)?.timeZone ?? null };
  }

  /**
   * Stores the player's zone: the current periods keep their ends, the following ones end at the
   * boundaries of the new zone (the next decision of a kept period moves with it).
   */
  async setTimeZone(appId: string, userId: string, timeZone: string): Promise<{ time_zone: string }> {
    const { catalog } = await this.load(appId);
    await this.context.transact((staged) => {
      const player = PlayerStreaks.read(this.sql);
      player.setTimeZone(timeZone);
      for (const streakId of player.ids()) {
        const def = catalog.byId.get(streakId);
        const { state } = player.get(streakId)!;
        if (def) player.set(streakId, state, nextDecisionAt(state, ruleFor(def, timeZone)), false);
      }
      player.save(appId, userId);
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
    const player = PlayerStreaks.read(this.sql);
    return {
      time_zone: player.timeZone,
      streaks: catalog.streaks.flatMap((def) => {
        const state = player.withHistory(def.streakId);
        if (!state) return [];
        const current = advance(state, ruleFor(def, player.timeZone), now).state;
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
      const player = PlayerStreaks.read(this.sql);
      const rule = ruleFor(def, player.timeZone);
      const start = player.withHistory(def.streakId) ?? initialState(def, rule, now);
      const current = advance(start, rule, now);
      let after: StreakState;
      if (kind === "restore") {
        const restored = restore(current.state, rule, now);
        if (!restored.ok) return restored;
        after = restored.state;
      } else after = grantFreezes(def, current.state, amount ?? 0);
      const calendarBefore = player.get(def.streakId) ? start.history : null;
      this.record(loaded, player, userId, def, { state: after, notes: current.notes }, staged, now, calendarBefore);
      player.save(appId, userId);
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
