import { DurableObject } from "cloudflare:workers";
import type { ApplyEventResult, UserEvent } from "../user/event";
import { Staged, type Receives, type UserArea } from "../user/area";
import { migrateUserStorage } from "../user/schema";
import { readClock } from "../shared/clock";
import { recordProcessed, wasProcessed } from "../events/processed-events";
import { readRecentEvents, recordRecentEvent } from "../events/recent-events";
import { UserEventRate } from "../events/user-rate";
import type { BackgroundMessage } from "../user/messages";
import type { Change } from "../changes/types";
import { appEndpoints } from "../webhooks/endpoints-repo";
import { TopicWatchers } from "../realtime/watchers";
import type { TopicBatch } from "../realtime/broker-do";
import { hasReceiver } from "../fanout/receivers";
import type { BattlePassAction } from "../battlepasses/user-progress";
import type { CatalogPass } from "../battlepasses/catalog";
import type { ChallengeAction, ListQuery } from "../challenges/user-challenges";
import { logBackgroundFailure } from "../shared/log";
import { OUTBOX_RETRY_MS, Outbox } from "./outbox";
import { USER_OBJECT_SCHEMAS, userAreas, type UserAreas } from "./user-areas";

/** The background message of an applied event, with what the areas noted about it. */
function eventMessage(event: UserEvent, staged: Staged): BackgroundMessage {
  return staged.paceExceeded.length > 0 ? { kind: "event", event, paceExceeded: [...staged.paceExceeded] } : { kind: "event", event };
}

/**
 * One per (app, user), addressed by `userObject` (src/user/names.ts). The single writer of that
 * user's challenge and battle-pass progress: its serial execution is what keeps every increment
 * under concurrent events. Every state change runs through `transact`, which stages what the areas
 * report in the same transaction and hands it on after; areas plug in through src/user/area.ts.
 */
/**
 * Resolves once the runtime has run what is already queued: the call's answer, returned right
 * after the flush, goes out before the publish's work (on a runtime that runs the brokers on the
 * same thread, their sends would otherwise come first).
 */
const afterThisTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export class UserDO extends DurableObject<Env> {
  private readonly outbox: Outbox;
  private readonly watchers: TopicWatchers;
  private readonly rate: UserEventRate;
  private readonly area: UserAreas;
  /** Every area, in the order an event applies to them. */
  private readonly areas: UserArea[];
  /** The flush under way: flushes run one after the other so that changes go out in order. */
  private delivery: Promise<unknown> = Promise.resolve();
  /** The MQTT publishes under way, one after the other: each topic's messages keep their order. */
  private publishing: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.watchers = new TopicWatchers(ctx.storage.sql);
    this.rate = new UserEventRate(ctx.storage.sql);
    this.outbox = new Outbox(ctx.storage.sql, (env, changes) => this.publishAfter(env, changes));
    this.area = userAreas({ storage: ctx.storage, env, transact: (work, appId) => this.transact(work, appId) });
    this.areas = Object.values(this.area);
    ctx.blockConcurrencyWhile(async () => migrateUserStorage(ctx.storage.sql, USER_OBJECT_SCHEMAS));
  }

  /**
   * Runs one state change: `work` reports into a fresh `Staged` inside one synchronous transaction,
   * which also stages what somebody receives (of the app's changes, when `appId` is given); then
   * hands it on, and moves the alarm when a timer moved.
   */
  private async transact<T>(work: (staged: Staged) => T, appId?: string): Promise<T> {
    const staged = new Staged(appId === undefined ? undefined : await this.receivers(appId));
    const result = this.ctx.storage.transactionSync(() => {
      const value = work(staged);
      this.outbox.stage(staged.changes.filter(staged.receives), staged.background);
      return value;
    });
    await this.deliver();
    if (staged.timersMoved) await this.reschedule();
    return result;
  }

  /**
   * Who receives the user's changes (src/fanout/receivers.ts): the app's webhook endpoints, from
   * the catalog cache, and the user's MQTT subscribers as they are when the change is staged.
   */
  private async receivers(appId: string): Promise<Receives> {
    const endpoints = await appEndpoints(this.env.DB, appId);
    return (change) => hasReceiver(change, endpoints, this.watchers.any);
  }

  /**
   * MQTT is best effort (QoS 0 for a client that is offline), so the flush that a response waits
   * for does not wait for it: the publish goes out after, chained behind the earlier ones so that
   * every topic's messages keep their order, and its time grows with the subscribers, not the
   * response's. Never rejects (the watchers log failures).
   */
  private publishAfter(env: Env, changes: Change[]): Promise<void> {
    this.publishing = this.publishing.then(afterThisTurn).then(() => this.watchers.publish(env, changes));
    this.ctx.waitUntil(this.publishing);
    return Promise.resolve();
  }

  /** Hands on what is staged; after a failure the alarm retries. */
  private async deliver(): Promise<void> {
    const run = this.delivery.then(() => this.outbox.flush(this.env));
    this.delivery = run.catch(() => false);
    if (!(await run)) await this.reschedule();
  }

  /** The one alarm serves the areas' timers (in service time) and the retry of a failed flush. */
  private async reschedule(): Promise<void> {
    const wallNow = Date.now();
    const timers = this.areas.map((area) => area.nextTimerAt?.() ?? null).filter((t): t is number => t !== null);
    const clock = timers.length > 0 ? await readClock(this.env) : null;
    const times = timers.map((t) => Math.max(clock!.toWall(t), wallNow));
    if (this.outbox.hasStaged()) times.push(wallNow + OUTBOX_RETRY_MS);
    if (times.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.min(...times));
  }

  /**
   * Applies one validated event: every area prepares (its catalog) before the transaction and
   * applies inside it, between the idempotency check and the record of the event id, so that a
   * retried event is applied exactly once or, on any error, not at all. What nobody receives is
   * neither built nor staged (src/fanout/receivers.ts).
   *
   * The player's rate limit (`perMinute` events in any 60 seconds) is counted here, in the same
   * transaction, so that it is exact; an event past it is refused before any work (nothing applied).
   * Duplicates are not counted.
   */
  async applyEvent(event: UserEvent, perMinute: number): Promise<ApplyEventResult> {
    const sql = this.ctx.storage.sql;
    // A retry of an applied event is answered as a duplicate (OK) even past the limit.
    const retried = event.eventId !== null && wasProcessed(sql, event.eventId);
    const early = retried ? null : this.rate.refusal(event.receivedAt, perMinute);
    if (early !== null) return { limited: { retryAfterMs: early } };
    const prepared: unknown[] = [];
    for (const area of this.areas) prepared.push(await area.prepareEvent(event));
    try {
      // Also after a duplicate the outbox is flushed: a retried event hands on what a failed send of the first left staged.
      return await this.transact(
        (staged): ApplyEventResult => {
          if (event.eventId !== null && wasProcessed(sql, event.eventId)) return { duplicate: true };
          const retryAfterMs = this.rate.takeEvent(event.receivedAt, perMinute);
          if (retryAfterMs !== null) return { limited: { retryAfterMs } };
          this.areas.forEach((area, i) => area.applyEvent(prepared[i], event, staged));
          staged.background.unshift(eventMessage(event, staged));
          if (event.eventId !== null) recordProcessed(sql, event.eventId, event.receivedAt);
          recordRecentEvent(sql, event);
          return { duplicate: false };
        },
        event.appId,
      );
    } catch (err) {
      // The transaction rolled back what it counted.
      this.rate.forget();
      throw err;
    }
  }

  /** From a broker: these topics of the user gained their first subscriber there, or lost their last. */
  async watchTopics(broker: string, topics: string[], watching: boolean): Promise<void> {
    this.watchers.update(broker, topics, watching, Date.now());
  }

  /** Messages for the user's topics from elsewhere (src/realtime/publish.ts): on to the broker shards that have subscribers. */
  async publishTopics(batches: TopicBatch[]): Promise<void> {
    await this.watchers.publishBatches(this.env, batches);
  }

  /** The last events applied, newest first (the console's player page, the player export). */
  async recentEvents(limit: number) {
    return readRecentEvents(this.ctx.storage.sql, limit);
  }

  /** The user's progress in every battle pass they unlocked, by battle_pass_id. */
  async battlePassProgress() {
    return this.area.battlePasses.progress();
  }

  /** Unlock a pass, activate or claim a level (src/battlepasses/user-progress.ts). */
  async battlePassAction(pass: CatalogPass, userId: string, action: BattlePassAction, now: number) {
    return this.area.battlePasses.act(pass, userId, action, now);
  }

  /** Personal challenges (src/challenges/user-challenges.ts). Lists start automatic challenges. */
  async listChallenges(appId: string, userId: string, now: number, query: ListQuery) {
    return this.area.challenges.list(appId, userId, now, query);
  }

  async getChallenge(appId: string, userId: string, now: number, challengeId: string, language?: string) {
    return this.area.challenges.get(appId, userId, now, challengeId, language);
  }

  /** Unlock, activate, cancel or claim; a wrong state answers `{ok: false, status: 409}`. */
  async challengeAction(appId: string, userId: string, now: number, action: ChallengeAction, cid: string, language?: string) {
    return this.area.challenges.act(appId, userId, now, action, cid, language);
  }

  async resetChallenges(appId: string, userId: string, now: number) {
    return this.area.challenges.reset(appId, userId, now);
  }

  /** The stored challenge rows, read-only (admin view of a user). */
  async challengeState() {
    return this.area.challenges.state();
  }

  /** Retries a failed flush, and applies the areas' due timers (`lost` even when the user never comes back). */
  override async alarm() {
    try {
      await this.deliver();
      for (const area of this.areas) await area.onAlarm?.();
      await this.reschedule();
    } catch (err) {
      logBackgroundFailure("alarm", "user object alarm failed; the runtime retries it", err, { object: this.ctx.id.toString() });
      throw err;
    }
  }
}
