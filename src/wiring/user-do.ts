import { DurableObject } from "cloudflare:workers";
import type { ApplyEventResult, UserEvent } from "../user/event";
import {
  Staged,
  type CorrectionRequest,
  type CorrectionResult,
  type ErasedUser,
  type Receives,
  type UserArea,
} from "../user/area";
import { ObjectTables, type AreaSql } from "../shared/object-tables";
import { getNow, readClock, toIso } from "../shared/clock";
import { recordDevTimer } from "../devtools/dev-timers";
import { eventsTables } from "../events/channel";
import { eventIdsTables, recordProcessed, wasProcessed } from "../events/channel";
import { readRecentEvents, recordRecentEvent } from "../events/channel";
import { archiveUserRef, knownArchiveUserRef } from "../events/channel";
import { eventRateTables, UserEventRate } from "../events/channel";
import type { BackgroundMessage } from "../user/messages";
import type { Change } from "../changes/types";
import { appEndpoints } from "../webhooks/channel";
import { TopicWatchers, watchersTables } from "../realtime/channel";
import type { TopicBatch } from "../realtime/channel";
import { hasReceiver } from "../fanout/receivers";
import { configureLog, describeError, logBackgroundFailure, logLine } from "../shared/log";
import { erasedSince, erasureSubject, tombstoneRetentionMs } from "../apps/erasure-tombstones";
import { erasureTables, UserErasure, type ErasureRequest, type PendingErasure } from "../players/user-erasure";
import { dropPlayerTopics, purgePlayerRows } from "../players/erasure-purge";
import { markCompleted, markFailed, markRunning } from "../players/erasure-receipts";
import { userErasedChange } from "../players/core/erasure-notification";
import { OUTBOX_RETRY_MS, Outbox, outboxTables } from "./outbox";
import { USER_AREA_RPC, USER_OBJECT_TABLES, userAreas, type UserAreas } from "./user-areas";

/** The background message of an applied event, with how the archive names the player and what the areas noted. */
function eventMessage(event: UserEvent, userRef: string, staged: Staged): BackgroundMessage {
  return {
    kind: "event",
    event,
    userRef,
    ...(staged.paceExceeded.length > 0 ? { paceExceeded: [...staged.paceExceeded] } : {}),
    ...(staged.seen ? { seen: staged.seen } : {}),
    ...(staged.activeDay ? { activeDay: staged.activeDay } : {}),
  };
}

/**
 * Resolves once the runtime has run what is already queued: the call's answer, returned right
 * after the flush, goes out before the publish's work (on a runtime that runs the brokers on the
 * same thread, their sends would otherwise come first).
 */
const afterThisTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * One per (app, user), addressed by `userObject` (src/user/names.ts). The single writer of that
 * user's challenge and battle-pass progress: its serial execution is what keeps every increment
 * under concurrent events. Every state change runs through `transact`, which stages what the areas
 * report in the same transaction and hands it on after; areas plug in through src/user/area.ts.
 */
export class UserDO extends DurableObject<Env> {
  /** Which areas have tables; each part below reads and writes through its area's view of it. */
  private readonly tables: ObjectTables;
  /** The events area's tables: recent events, the archive's name of the player. */
  private readonly events: AreaSql;
  /** The ids of applied events (src/events/processed-events.ts), made at the first event that has one. */
  private readonly eventIds: AreaSql;
  private outbox!: Outbox;
  private watchers!: TopicWatchers;
  private rate!: UserEventRate;
  private area!: UserAreas;
  /** Every area, in the order an event applies to them. */
  private areas!: UserArea[];
  /**
   * How the archive names the player (src/events/archive-identity.ts), once read or made: every
   * event's background message carries it. Forgotten when a transaction fails (it may have made
   * it) and when an erasure empties the object (the player gets a new one).
   */
  private userRef: string | null = null;
  /** The player's erasure: requests, its time, completions to report (src/players/user-erasure.ts). */
  private readonly erasure: UserErasure;
  /** The flush under way: flushes run one after the other so that changes go out in order. */
  private delivery: Promise<unknown> = Promise.resolve();
  /** The MQTT publishes under way, one after the other: each topic's messages keep their order. */
  private publishing: Promise<void> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    configureLog(env);
    this.tables = new ObjectTables(ctx.storage.sql, USER_OBJECT_TABLES);
    this.events = this.tables.sqlFor(eventsTables);
    this.eventIds = this.tables.sqlFor(eventIdsTables);
    this.erasure = new UserErasure(this.tables.sqlFor(erasureTables));
    this.open();
  }

  /** The object's parts over its storage, none holding anything yet; made again when an erasure emptied it. */
  private open(): void {
    this.watchers = new TopicWatchers(this.tables.sqlFor(watchersTables));
    this.rate = new UserEventRate(this.tables.sqlFor(eventRateTables));
    this.outbox = new Outbox(this.tables.sqlFor(outboxTables), (env, changes) => this.publishAfter(env, changes));
    this.area = userAreas(this.tables, { env: this.env, transact: (work, appId) => this.transact(work, appId) });
    this.areas = Object.values(this.area);
    this.userRef = null;
  }

  /**
   * Runs one state change: `work` reports into a fresh `Staged` inside one synchronous transaction,
   * which also stages what somebody receives (of the app's changes, when `appId` is given); then
   * hands it on, and moves the alarm when a timer moved.
   */
  private async transact<T>(work: (staged: Staged) => T, appId?: string): Promise<T> {
    const staged = new Staged(appId === undefined ? undefined : await this.receivers(appId));
    if (appId !== undefined) for (const area of this.areas) await area.prepareCredits?.(appId);
    const result = this.inTransaction(() => {
      const value = work(staged);
      // Rewards the areas handed each other land in the same transaction (src/user/area.ts).
      if (staged.credits.length > 0) {
        const credits = staged.takeCredits();
        for (const area of this.areas) area.acceptCredits?.(credits, staged);
      }
      this.outbox.stage(staged.changes.filter(staged.receives), staged.background);
      return value;
    });
    await this.deliver();
    if (staged.timersMoved) await this.reschedule();
    return result;
  }

  /** One synchronous transaction; when it fails, the tables it created went with it. */
  private inTransaction<T>(work: () => T): T {
    try {
      return this.ctx.storage.transactionSync(work);
    } catch (err) {
      this.tables.reload();
      this.userRef = null;
      throw err;
    }
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

  /** The earliest timer last written to the development clock's list (undefined: not yet, since the object started). */
  private devTimerRecorded: number | null | undefined = undefined;

  /** The one alarm serves the areas' timers (in service time) and the retry of a failed flush. */
  private async reschedule(): Promise<void> {
    const wallNow = Date.now();
    const timers = this.areas.map((area) => area.nextTimerAt?.() ?? null).filter((t): t is number => t !== null);
    const clock = timers.length > 0 ? await readClock(this.env) : null;
    const times = timers.map((t) => Math.max(clock!.toWall(t), wallNow));
    if (this.env.DEV_CLOCK === "on") {
      const earliest = timers.length > 0 ? Math.min(...timers) : null;
      // Written when it moves only: most reschedules (an event without a timer) leave it as it was.
      if (earliest !== this.devTimerRecorded) {
        await recordDevTimer(this.env.DB, this.ctx.id.toString(), timers);
        this.devTimerRecorded = earliest;
      }
    }
    if (this.outbox.hasStaged()) times.push(wallNow + OUTBOX_RETRY_MS);
    const erasure = this.erasure.nextAt(wallNow, OUTBOX_RETRY_MS);
    if (erasure !== null) times.push(Math.max(erasure, wallNow));
    if (times.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.min(...times));
  }

  /**
   * Applies one validated event: every area prepares (its catalog) before the transaction and
   * applies inside it, between the idempotency check and the record of the event id, so that a
   * retried event is applied exactly once or, on any error, not at all. What nobody receives is
   * neither built nor staged (src/fanout/receivers.ts). An event received before the player's
   * erasure belongs to the erased player: it is dropped.
   *
   * The player's rate limit (`perMinute` events in any 60 seconds) is counted here, in the same
   * transaction, so that it is exact; an event past it is refused before any work (nothing applied).
   * Duplicates are not counted.
   */
  async applyEvent(event: UserEvent, perMinute: number): Promise<ApplyEventResult> {
    const sql = this.events;
    if (erasedSince(this.erasure.erasedAt(), event.receivedAt)) return this.droppedForErasure(event);
    // A retry of an applied event is answered as a duplicate (OK) even past the limit.
    const retried = event.eventId !== null && wasProcessed(this.eventIds, event.eventId);
    const early = retried ? null : this.rate.refusal(event.receivedAt, perMinute);
    if (early !== null) return { limited: { retryAfterMs: early } };
    const prepared: unknown[] = [];
    for (const area of this.areas) prepared.push(await area.prepareEvent(event));
    let erased = false;
    try {
      // Also after a duplicate the outbox is flushed: a retried event hands on what a failed send of the first left
      // staged.
      const result = await this.transact((staged): ApplyEventResult => {
        // Checked in the transaction: the erasure may have run while the areas prepared.
        if (erasedSince(this.erasure.erasedAt(), event.receivedAt)) {
          erased = true;
          return { duplicate: false };
        }
        if (event.eventId !== null && wasProcessed(this.eventIds, event.eventId)) return { duplicate: true };
        const retryAfterMs = this.rate.takeEvent(event.receivedAt, perMinute);
        if (retryAfterMs !== null) return { limited: { retryAfterMs } };
        this.areas.forEach((area, i) => {
          area.applyEvent(prepared[i], event, staged);
        });
        staged.background.unshift(eventMessage(event, (this.userRef ??= archiveUserRef(sql)), staged));
        if (event.eventId !== null) recordProcessed(this.eventIds, event.eventId, event.receivedAt);
        recordRecentEvent(sql, event);
        return { duplicate: false };
      }, event.appId);
      return erased ? this.droppedForErasure(event) : result;
    } catch (err) {
      // The transaction rolled back what it counted.
      this.rate.forget();
      throw err;
    }
  }

  private droppedForErasure(event: UserEvent): ApplyEventResult {
    logLine("info", "event received before its player's erasure dropped", {
      app_id: event.appId,
      event_name: event.eventName,
    });
    return { duplicate: false };
  }

  /** From a broker: these topics of the user gained their first subscriber there, or lost their last. */
  async watchTopics(broker: string, topics: string[], watching: boolean): Promise<void> {
    this.watchers.update(broker, topics, watching, Date.now());
  }

  /**
   * Messages for the user's topics from elsewhere (src/realtime/publish.ts): on to the broker shards that have
   * subscribers.
   */
  async publishTopics(batches: TopicBatch[]): Promise<void> {
    await this.watchers.publishBatches(this.env, batches);
  }

  /** The last events applied, newest first (the console's player page, the player export). */
  async recentEvents(limit: number) {
    return readRecentEvents(this.events, limit);
  }

  /** How the raw event archive names the player, or null before their first event (the player export). */
  async archiveUserRef() {
    return knownArchiveUserRef(this.events);
  }

  /**
   * A method of one area of the object (src/user/names.ts `callUserArea`): only those its plugin
   * lists as `rpc` (src/kit/area.ts).
   */
  async callArea(name: string, method: string, args: unknown[]): Promise<unknown> {
    const area = this.area[name] as unknown as Record<string, (...args: unknown[]) => unknown> | undefined;
    if (!area || !USER_AREA_RPC.get(name)?.has(method)) throw new Error(`No method ${method} of area ${name}`);
    return area[method](...args);
  }

  /**
   * An operator's correction of the player's state, by its name among the areas' corrections
   * (src/players/corrections.ts).
   */
  async correct(name: string, request: CorrectionRequest): Promise<CorrectionResult> {
    const correction = this.areas.find((area) => area.corrections?.[name])?.corrections?.[name];
    if (!correction) return { ok: false, kind: "not-found", message: `No correction named ${name}` };
    return correction(request);
  }

  /** From the Worker (src/players/erasure.ts): the player is erased by the alarm once ERASURE_DELAY_MS has passed. */
  async requestErasure(request: ErasureRequest): Promise<void> {
    this.erasure.request(request, Date.now());
    await this.reschedule();
  }

  /** The erasures whose time has come, then the receipts and notifications of those done. */
  private async eraseWhenDue(): Promise<void> {
    const due = this.erasure.due(Date.now());
    if (due.length > 0) await this.erase(due);
    try {
      await this.reportErasures();
    } catch (err) {
      logBackgroundFailure("alarm", "reporting a completed erasure failed; retried later", err, {
        object: this.ctx.id.toString(),
      });
    }
  }

  /**
   * Erases the player: their rows in D1 and their MQTT subscriptions, then every table of this
   * object in one transaction, while no other call of the object runs. Each step can run again; a
   * failed attempt is retried by the alarm, later each time, and its receipt fails after the last.
   */
  private async erase(requests: PendingErasure[]): Promise<void> {
    const ids = requests.map((r) => r.erasureId);
    const { appId, userId, lastError } = requests[0];
    // blockConcurrencyWhile resets the object when its callback throws: failures come back as values.
    const failure = await this.ctx.blockConcurrencyWhile(async () => {
      try {
        const erasedAt = await getNow(this.env);
        await markRunning(this.env.DB, ids, toIso(erasedAt), lastError);
        const subject = await erasureSubject(this.env, appId, userId);
        const player = { appId: Number(appId), userId, subject };
        await purgePlayerRows(this.env.DB, player, erasedAt, erasedAt + tombstoneRetentionMs(this.env));
        await dropPlayerTopics(this.env, this.ctx.id.toString(), this.watchers.byBroker());
        this.inTransaction(() => this.wipe({ appId, userId }, erasedAt));
        return null;
      } catch (err) {
        return err;
      }
    });
    if (failure === null) return this.deliver();
    logBackgroundFailure("alarm", "erasing a player failed; retried later", failure, {
      object: this.ctx.id.toString(),
      erasure_ids: ids,
    });
    const { message } = describeError(failure);
    if (!this.erasure.failed(ids, message, Date.now()))
      await markFailed(this.env.DB, ids, toIso(await getNow(this.env)), message);
  }

  /** Inside the erasure's transaction: what leaving takes from the app's totals is staged on the emptied object. */
  private wipe(player: ErasedUser, erasedAt: number): void {
    const staged = new Staged();
    for (const area of this.areas) area.onErase?.(player, staged);
    this.erasure.wipe(erasedAt);
    this.open();
    this.outbox.stage([], staged.background);
  }

  /**
   * Receipts to `completed`, then the `user-erased` notifications, staged with the end of the object's record of them.
   */
  private async reportErasures(): Promise<void> {
    const done = this.erasure.completions();
    if (done.length === 0) return;
    const ids = done.map((d) => d.erasureId);
    await markCompleted(this.env.DB, ids, toIso(Math.max(...done.map((d) => d.completedAt))));
    await this.transact((staged) => {
      staged.changes.push(...done.map(userErasedChange));
      this.erasure.reported(ids);
    });
  }

  /**
   * From the development clock (src/devtools/clock-routes.ts), after it moved forward: applies the
   * areas' timers the move made due now, as the alarm would once the runtime fired it.
   */
  async runDueTimers(): Promise<void> {
    if (this.env.DEV_CLOCK !== "on") return;
    await this.deliver();
    for (const area of this.areas) await area.onAlarm?.();
    await this.reschedule();
  }

  /**
   * Erases the player when due; retries a failed flush, and applies the areas' due timers (`lost` even when the user
   * never comes back).
   */
  override async alarm() {
    try {
      await this.eraseWhenDue();
      await this.deliver();
      for (const area of this.areas) await area.onAlarm?.();
      await this.reschedule();
    } catch (err) {
      logBackgroundFailure("alarm", "user object alarm failed; the runtime retries it", err, {
        object: this.ctx.id.toString(),
      });
      throw err;
    }
  }
}
