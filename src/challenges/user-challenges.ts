import { mintAccessToken } from "../auth/access-tokens";
import type { BackgroundMessage } from "../user/messages";
import type {
  CorrectionRequest,
  CorrectionResult,
  ErasedUser,
  Credit,
  Staged,
  UserArea,
  UserObjectContext,
} from "../user/area";
import type { Change } from "../changes/types";
import type { UserEvent } from "../user/event";
import { getNow, toIso } from "../shared/clock";
import { callUserArea, userObjectName } from "../user/names";
import { challengeCatalog } from "./catalog";
import { challengeChange, challengeChangeTarget } from "./core/changes";
import { HolderTally } from "./core/holders";
import { availability } from "./core/availability";
import {
  ChallengeStateError,
  activate,
  cancel,
  claim,
  complete,
  countEvent,
  putBack,
  setCounter,
  mayRefresh,
  refresh,
  snapshotOf,
  unlock,
  type Instance,
  type Outcome,
  type TouchContext,
} from "./core/lifecycle";
import type { ChallengeCatalog, ChallengeDef } from "./core/model";
import { presentChallenge, shortChallenge, type ChallengeView } from "./core/present";
import { categoryJson, challengeJson, listJson } from "./list-json";
import { utcMonthKey } from "../rules/schedule";
import {
  challengeIdOfInstance,
  deleteAllInstances,
  dueInstanceIds,
  nextExpiry,
  deleteInstance,
  readAllInstances,
  readInstance,
  readInstances,
  readOwner,
  writeOwner,
  challengesTables,
  InstanceWrites,
  type Owner,
} from "./user-store";

/**
 * The challenge area of the user's Durable Object (src/user/area.ts): UserDO's challenge RPC
 * methods, its alarm and its events come here. Each operation loads what needs I/O first (catalog,
 * token), then reads and writes the user's rows in the object's transaction, reporting what it
 * changed (notifications, usage, a moved time-out) to be staged with it.
 */

export type ListFilter = "all" | "unresolved" | "in-progress";

export interface ListQuery {
  filter: ListFilter;
  language?: string;
  /** Category slugs or ids; empty: all. */
  include?: string[];
  exclude?: string[];
}

export type ChallengeAction = "unlock" | "activate" | "cancel" | "claim";

export type ActionResult =
  | { ok: true; challenge: ChallengeView | ReturnType<typeof shortChallenge> }
  | { ok: false; kind: "not-found" | "conflict"; message: string };

/** One user's challenge state at one instant, prepared before the synchronous part. */
export interface ChallengeTouch {
  appId: string;
  userId: string;
  now: number;
  catalog: ChallengeCatalog;
  userToken: string;
  isAvailable: (def: ChallengeDef) => boolean;
  /** Whether anybody receives the changes (a webhook endpoint, a subscriber): else none is built. */
  notify: boolean;
  changes: Change[];
  /** The rows the touch writes, flushed at the end of its synchronous step. */
  writes: InstanceWrites;
  unlocks: number;
  /** Users entering and leaving held states (src/challenges/core/holders.ts). */
  holders: HolderTally;
  /** A time-out started, moved or ended: the alarm may need to move. */
  timeoutsChanged: boolean;
  /** The rewards of the challenges the touch claimed, for the points area (src/user/area.ts). */
  credits: Credit[];
}

/** The raw stored state of one challenge of the user, for support (admin API). */
export interface StoredChallengeState {
  challenge_id: string;
  user_challenge_id: string;
  type: string;
  score: number;
  last_session_id: string | null;
  unlocked_at: string | null;
  activated_at: string | null;
  expires_at: string | null;
  is_claimed: boolean;
  period_start: string | null;
}

/** A correction of one challenge: its counter, or a state to move it to. */
export interface ChallengeCorrection {
  challengeId: string;
  counter?: number;
  state?: "unclaimed" | "unlocked";
}

/** One challenge of the player as a correction's audit entry shows it. */
const correctionView = (challengeId: string, instance: Instance | null) => ({
  challenge_id: challengeId,
  state: instance ? (instance.type === "gone" ? "gone" : instance.type) : "unlock",
  counter: instance?.score ?? 0,
});

/** When the instance times out; what the alarm is set from. */
const timeoutOf = (instance: Instance | null) => (instance?.type === "in-progress" ? instance.expiresAt : null);

const isoOrNull = (ms: number | null) => (ms === null ? null : toIso(ms));

/** Each unlock counts once toward the app's monthly usage; a state change moves the holder counts. */
function backgroundMessages(touch: ChallengeTouch): BackgroundMessage[] {
  const messages: BackgroundMessage[] = [];
  if (touch.unlocks > 0) {
    messages.push({
      kind: "usage",
      appId: touch.appId,
      metric: "unlocked_challenges",
      month: utcMonthKey(touch.now),
      count: touch.unlocks,
    });
  }
  const deltas = touch.holders.deltas();
  if (deltas.length > 0) messages.push({ kind: "holders", appId: touch.appId, deltas });
  return messages;
}

/** Hands what a touch changed to the object's staging: notifications, usage, holders, a moved time-out. */
function report(touch: ChallengeTouch, staged: Staged): void {
  staged.changes.push(...touch.changes);
  staged.background.push(...backgroundMessages(touch));
  if (touch.timeoutsChanged) staged.timersMoved = true;
  for (const credit of touch.credits.splice(0)) staged.credit(credit);
}

/**
 * A challenge's rewards, credited when it is claimed (by the player, or by the service for an
 * automatic one): its challenge_xp to the app's points system with credits_challenge_xp, its
 * points_rewards to theirs. SCILL's answers and payloads do not change.
 */
function claimCredits(touch: ChallengeTouch, def: ChallengeDef): Credit[] {
  const base = {
    target: "points",
    appId: touch.appId,
    userId: touch.userId,
    source: { kind: "challenge", id: def.challengeId },
    reason: `Challenge ${def.key} claimed`,
    at: touch.now,
  };
  const credits: Credit[] = def.xp > 0 ? [{ ...base, system: null, amount: def.xp }] : [];
  for (const reward of def.pointsRewards) credits.push({ ...base, system: reward.system, amount: reward.amount });
  return credits;
}

/** The users' tokens that notifications carry, minted lately in this isolate, by user object name. */
const recentTokens = new Map<string, { value: string; mintedAt: number }>();
const RECENT_TOKENS_MAX = 10_000;

export class UserChallenges implements UserArea<ChallengeTouch> {
  static readonly tables = challengesTables;
  private owner: Owner | null = null;
  /**
   * The owner row changed (a new object's owner, the counter of user challenge ids) and is not
   * written yet: it is written once at the end of the touch, inside its transaction, so that an
   * event dropped for its player's erasure leaves nothing behind.
   */
  private ownerUnsaved = false;

  constructor(private readonly context: UserObjectContext) {}

  private get sql() {
    return this.context.sql;
  }

  private get env() {
    return this.context.env;
  }

  /**
   * Runs `work` in the object's transaction and reports what the touch changed with it. After a
   * failure the owner is read again: the transaction may have rolled back what it holds in memory.
   */
  private run<T>(touch: ChallengeTouch, work: () => T): Promise<T> {
    return this.context
      .transact((staged) => {
        this.begin(touch, staged);
        const result = work();
        this.finish(touch, staged);
        return result;
      }, touch.appId)
      .catch((err: unknown) => {
        this.owner = null;
        this.ownerUnsaved = false;
        throw err;
      });
  }

  /** Inside the transaction, before the touch's work: holder counts of old objects, and who listens. */
  private begin(touch: ChallengeTouch, staged: Staged): void {
    this.countHoldersOnce(touch);
    touch.notify = staged.receives(challengeChangeTarget(touch));
  }

  /** Inside the transaction, after the touch's work: its rows written, what it changed reported. */
  private finish(touch: ChallengeTouch, staged: Staged): void {
    touch.writes.flush(this.sql);
    if (this.ownerUnsaved) {
      writeOwner(this.sql, this.owner!);
      this.ownerUnsaved = false;
    }
    report(touch, staged);
  }

  prepareEvent(event: UserEvent): Promise<ChallengeTouch> {
    return this.prepare(event.appId, event.userId, event.receivedAt, event.eventName);
  }

  /**
   * Loads the catalog and a user token; call before the synchronous part. For an event
   * (`eventName`), the token is only needed when some challenge listens to that name.
   */
  async prepare(appId: string, userId: string, now: number, eventName?: string): Promise<ChallengeTouch> {
    this.owner ??= readOwner(this.sql);
    if (!this.owner) {
      // A new object holds nothing yet: every instance it makes is counted as it changes.
      this.owner = { appId, userId, lastUserChallengeId: 0, holdersCounted: true };
      this.ownerUnsaved = true;
    }
    const catalog = await challengeCatalog(this.env.DB, appId);
    return {
      appId,
      userId,
      now,
      catalog,
      userToken:
        eventName === undefined || catalog.byEventName.has(eventName) ? await this.userToken(appId, userId, now) : "",
      isAvailable: availability(catalog, now),
      notify: true,
      changes: [],
      writes: new InstanceWrites(),
      unlocks: 0,
      holders: new HolderTally(),
      timeoutsChanged: false,
      credits: [],
    };
  }

  /**
   * An object older than the holder counts (D1 migration 0010) reports what it holds, once, in its
   * first state change after; from then on each change reports its own +1/-1.
   */
  private countHoldersOnce(touch: ChallengeTouch): void {
    const owner = this.owner!;
    if (owner.holdersCounted) return;
    for (const [challengeId, instance] of readAllInstances(this.sql))
      touch.holders.move(challengeId, null, instance.type);
    owner.holdersCounted = true;
    writeOwner(this.sql, owner);
  }

  /**
   * Re-minted when half its lifetime is gone, so a notification never carries a stale token. Kept
   * in the isolate, not the object: an object evicted while idle finds it again when it comes back.
   */
  private async userToken(appId: string, userId: string, now: number): Promise<string> {
    const key = userObjectName(appId, userId);
    const halfLife = (Number(this.env.ACCESS_TOKEN_TTL_SECONDS) * 1000) / 2;
    const known = recentTokens.get(key);
    if (known && now - known.mintedAt <= halfLife && now >= known.mintedAt) return known.value;
    const value = await mintAccessToken(this.env, { appId, userId }, now);
    if (recentTokens.size >= RECENT_TOKENS_MAX) recentTokens.clear();
    recentTokens.set(key, { value, mintedAt: now });
    return value;
  }

  /**
   * Ids of user challenges: increasing, and far above any catalog id so `cid` is never ambiguous.
   * The owner row is written once at the end of the touch, however many ids it took.
   */
  private newId(now: number): string {
    const owner = this.owner!;
    owner.lastUserChallengeId = Math.max(owner.lastUserChallengeId + 1, now * 1000);
    this.ownerUnsaved = true;
    return String(owner.lastUserChallengeId);
  }

  private touchContext(touch: ChallengeTouch, def: ChallengeDef, autoStart = true): TouchContext {
    return { now: touch.now, newId: () => this.newId(touch.now), available: touch.isAvailable(def), autoStart };
  }

  /** Stores an outcome over the instance it started from and records what it changed. */
  private record(
    touch: ChallengeTouch,
    def: ChallengeDef,
    previous: Instance | null,
    outcome: Outcome,
  ): Instance | null {
    touch.writes.save(def.challengeId, previous, outcome.next);
    touch.unlocks += outcome.unlocks;
    touch.holders.move(def.challengeId, previous?.type ?? null, outcome.next?.type ?? null);
    if (timeoutOf(previous) !== timeoutOf(outcome.next)) touch.timeoutsChanged = true;
    for (const transition of outcome.transitions)
      if (transition.after.type === "finished" && transition.before.type !== "finished")
        touch.credits.push(...claimCredits(touch, def));
    if (touch.notify)
      for (const transition of outcome.transitions) touch.changes.push(challengeChange(touch, transition));
    return outcome.next;
  }

  private touchOne(
    touch: ChallengeTouch,
    def: ChallengeDef,
    instance: Instance | null,
    autoStart = true,
  ): Instance | null {
    if (!mayRefresh(def, instance)) return instance;
    const outcome = refresh(def, instance, this.touchContext(touch, def, autoStart));
    return outcome.transitions.length > 0 || outcome.next !== instance
      ? this.record(touch, def, instance, outcome)
      : instance;
  }

  /** The service time of the next time-out, or null. */
  nextTimerAt(): number | null {
    return nextExpiry(this.sql);
  }

  /**
   * The challenge part of one event, inside the event's transaction. The event touches the
   * challenges that listen to its name: time-outs and resets are applied, automatic ones start,
   * and every `in-progress` one that is offered counts the event.
   */
  applyEvent(touch: ChallengeTouch, event: UserEvent, staged: Staged): void {
    const listeners = touch.catalog.byEventName.get(event.eventName) ?? [];
    if (listeners.length === 0) return;
    this.begin(touch, staged);
    const stored = readInstances(
      this.sql,
      listeners.map((def) => def.challengeId),
    );
    for (const def of listeners) {
      const instance = this.touchOne(touch, def, stored.get(def.challengeId) ?? null);
      if (instance?.type !== "in-progress" || !touch.isAvailable(def)) continue;
      this.record(touch, def, instance, countEvent(def, instance, event));
    }
    this.finish(touch, staged);
  }

  /**
   * The user's categories with their challenges (the spec's ChallengeCategory array), as JSON text:
   * the text is what the route answers, and one string leaves the object far cheaper than a
   * thousand presented challenges (list-json.ts).
   */
  async list(appId: string, userId: string, now: number, query: ListQuery): Promise<string> {
    const touch = await this.prepare(appId, userId, now);
    const lang = { language: query.language, defaultLanguage: touch.catalog.defaultLanguage };
    const wanted = (slug: string, id: string) =>
      (!query.include?.length || query.include.includes(slug) || query.include.includes(id)) &&
      !(query.exclude?.includes(slug) || query.exclude?.includes(id));
    return this.run(touch, () => {
      const rows = readAllInstances(this.sql);
      // Indexes are taken before filtering: a category answers the same position in every list
      // and payload, whatever include/exclude a request names.
      const categories = [...touch.catalog.categories.entries()]
        .filter(([, category]) => wanted(category.slug, category.categoryId))
        .map(([index, category]) => {
          const texts: string[] = [];
          for (const def of category.challenges) {
            const instance = this.touchOne(touch, def, rows.get(def.challengeId) ?? null);
            if (!touch.isAvailable(def) || instance?.type === "gone") continue;
            const snapshot = snapshotOf(instance);
            if (query.filter === "unresolved" && snapshot.type === "finished") continue;
            if (query.filter === "in-progress" && snapshot.type !== "in-progress") continue;
            texts.push(challengeJson(touch.catalog, def, snapshot, lang));
          }
          return categoryJson(category, index, texts, lang);
        });
      return listJson(touch.catalog, categories, lang);
    });
  }

  /** Finds a challenge by challenge_id, or by the user_challenge_id of the user's instance. */
  private resolve(touch: ChallengeTouch, cid: string): ChallengeDef | null {
    const direct = touch.catalog.byId.get(cid);
    if (direct) return direct.challenge;
    const viaInstance = challengeIdOfInstance(this.sql, cid);
    return viaInstance ? (touch.catalog.byId.get(viaInstance)?.challenge ?? null) : null;
  }

  async get(appId: string, userId: string, now: number, cid: string, language?: string): Promise<ChallengeView | null> {
    const touch = await this.prepare(appId, userId, now);
    return this.run(touch, () => {
      const def = this.resolve(touch, cid);
      if (!def) return null;
      const instance = this.touchOne(touch, def, readInstance(this.sql, def.challengeId));
      if (!touch.isAvailable(def) || instance?.type === "gone") return null;
      const lang = { language, defaultLanguage: touch.catalog.defaultLanguage };
      return presentChallenge(def, snapshotOf(instance), lang);
    });
  }

  async act(
    appId: string,
    userId: string,
    now: number,
    action: ChallengeAction,
    cid: string,
    language?: string,
  ): Promise<ActionResult> {
    const touch = await this.prepare(appId, userId, now);
    return this.run(touch, (): ActionResult => {
      const def = this.resolve(touch, cid);
      if (!def) return { ok: false, kind: "not-found", message: `Challenge ${cid} not found` };
      const instance = this.touchOne(touch, def, readInstance(this.sql, def.challengeId));
      if (!touch.isAvailable(def) || instance?.type === "gone") {
        return { ok: false, kind: "not-found", message: `Challenge ${cid} is not available for this user` };
      }
      let outcome: Outcome;
      try {
        const ctx = this.touchContext(touch, def);
        outcome =
          action === "unlock"
            ? unlock(def, instance, ctx)
            : action === "activate"
              ? activate(def, instance, ctx)
              : action === "cancel"
                ? cancel(def, instance)
                : claim(def, instance);
      } catch (err) {
        if (err instanceof ChallengeStateError) return { ok: false, kind: "conflict", message: err.message };
        throw err;
      }
      this.record(touch, def, instance, outcome);
      const view = presentChallenge(def, outcome.transitions[0].after, {
        language,
        defaultLanguage: touch.catalog.defaultLanguage,
      });
      return { ok: true, challenge: action === "unlock" || action === "activate" ? shortChallenge(view) : view };
    });
  }

  /** The operator's corrections (src/players/corrections.ts). */
  readonly corrections = { challenge: (request: CorrectionRequest) => this.correct(request) };

  /**
   * Sets a challenge's counter (0..goal), completes it (`unclaimed`) or puts it back (`unlocked`),
   * as the player's play would have: time-outs and resets are applied first, and the change is
   * notified as an event's would be. A state that does not allow it answers 409 saying why.
   */
  private async correct({ appId, userId, now, input }: CorrectionRequest): Promise<CorrectionResult> {
    const { challengeId, counter, state } = input as unknown as ChallengeCorrection;
    const touch = await this.prepare(appId, userId, now);
    return this.run(touch, (): CorrectionResult => {
      const def = touch.catalog.byId.get(challengeId)?.challenge;
      if (!def) return { ok: false, kind: "not-found", message: `Challenge ${challengeId} not found` };
      if (counter !== undefined && counter > def.goal) {
        return {
          ok: false,
          kind: "invalid",
          message: `Invalid body: counter must be between 0 and the challenge's goal, ${def.goal}`,
        };
      }
      const instance = this.touchOne(touch, def, readInstance(this.sql, def.challengeId));
      let outcome: Outcome;
      try {
        outcome =
          state === "unclaimed"
            ? complete(def, instance)
            : state === "unlocked"
              ? putBack(def, instance, this.touchContext(touch, def))
              : setCounter(def, instance, counter!);
      } catch (err) {
        if (err instanceof ChallengeStateError) return { ok: false, kind: "conflict", message: err.message };
        throw err;
      }
      const before = correctionView(def.challengeId, instance);
      this.record(touch, def, instance, outcome);
      const shown = outcome.transitions.at(-1)?.after.instance ?? outcome.next;
      const after =
        outcome.transitions.length > 0
          ? { challenge_id: def.challengeId, state: outcome.transitions.at(-1)!.after.type, counter: shown?.score ?? 0 }
          : before;
      return { ok: true, before, after };
    });
  }

  /** Every challenge of the user in this app back to its initial state (API-key reset). */
  async reset(appId: string, userId: string, now: number): Promise<void> {
    const touch = await this.prepare(appId, userId, now);
    await this.run(touch, () => {
      for (const [challengeId, instance] of readAllInstances(this.sql)) {
        touch.holders.move(challengeId, instance.type, null);
        if (instance.type === "gone" || !touch.catalog.byId.has(challengeId) || !touch.notify) continue;
        touch.changes.push(
          challengeChange(touch, { challengeId, before: snapshotOf(instance), after: snapshotOf(null) }),
        );
      }
      deleteAllInstances(this.sql);
      touch.timeoutsChanged = true;
    });
  }

  /** The stored rows as they are: nothing is refreshed or started by looking. */
  state(): StoredChallengeState[] {
    return [...readAllInstances(this.sql)].map(([challengeId, i]) => ({
      challenge_id: challengeId,
      user_challenge_id: i.userChallengeId,
      type: i.type,
      score: i.score,
      last_session_id: i.lastSessionId,
      unlocked_at: isoOrNull(i.unlockedAt),
      activated_at: isoOrNull(i.activatedAt),
      expires_at: isoOrNull(i.expiresAt),
      is_claimed: i.isClaimed,
      period_start: isoOrNull(i.periodStart),
    }));
  }

  /** The player's held challenges leave the holder counts; the token minted for their notifications is forgotten. */
  onErase(player: ErasedUser, staged: Staged): void {
    recentTokens.delete(userObjectName(player.appId, player.userId));
    const owner = (this.owner ??= readOwner(this.sql));
    if (!owner?.holdersCounted) return;
    const tally = new HolderTally();
    for (const [challengeId, instance] of readAllInstances(this.sql)) tally.move(challengeId, instance.type, null);
    const deltas = tally.deltas();
    if (deltas.length > 0) staged.background.push({ kind: "holders", appId: player.appId, deltas });
  }

  /** Time-outs of users who may never come back: `lost` notifications without a touch. */
  async onAlarm(): Promise<void> {
    const owner = (this.owner ??= readOwner(this.sql));
    if (!owner) return;
    const touch = await this.prepare(owner.appId, owner.userId, await getNow(this.env));
    await this.run(touch, () => {
      for (const challengeId of dueInstanceIds(this.sql, touch.now)) {
        const def = touch.catalog.byId.get(challengeId)?.challenge;
        // A challenge deleted from the catalog has nobody to notify about.
        if (!def) deleteInstance(this.sql, challengeId);
        else this.touchOne(touch, def, readInstance(this.sql, challengeId), false);
      }
      touch.timeoutsChanged = true;
    });
  }
}

/** The area's name in the user's object (its plugin, src/challenges/plugin.ts). */
export const CHALLENGES = "challenges";

/** The challenge part of a user's object, over RPC. */
export const userChallenges = (env: Env, appId: string, userId: string) =>
  callUserArea<UserChallenges>(env, appId, userId, CHALLENGES);
