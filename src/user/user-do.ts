import { DurableObject } from "cloudflare:workers";
import type { ApplyEventResult, UserEvent } from "../events/types";
import { eventsSchema, recordProcessed, wasProcessed } from "../events/processed-events";
import type { Change } from "../changes/types";
import { hasReceiver } from "../changes/receivers";
import { appEndpoints } from "../webhooks/endpoints-repo";
import { OUTBOX_RETRY_MS, Outbox, outboxSchema } from "./outbox";
import { TopicWatchers, watchersSchema } from "../realtime/watchers";
import type { TopicBatch } from "../realtime/broker-do";
import { userObjectName } from "./names";
import { migrateUserStorage } from "./schema";
import { battlePassSchema, hasUnlockedPasses, readProgress } from "../battlepasses/user-store";
import { applyBattlePassEvent, runBattlePassAction, type BattlePassAction } from "../battlepasses/user-progress";
import { battlePassCatalog, type CatalogPass } from "../battlepasses/catalog";
import { challengesSchema } from "../challenges/user-store";
import { UserChallenges, usageMessages, type ChallengeAction, type ListQuery } from "../challenges/user-challenges";

/**
 * One per (app, user), addressed by `userObjectName`. The single writer of that user's challenge
 * and battle-pass progress: its serial execution is what keeps every increment under concurrent
 * events. Areas add their RPC methods and schemas here.
 */
export class UserDO extends DurableObject<Env> {
  private readonly challenges: UserChallenges;
  private readonly outbox: Outbox;
  private readonly watchers: TopicWatchers;
  /** Whether the user unlocked a battle pass: only this object unlocks them, so it is read once. */
  private passesUnlocked: boolean | undefined;
  /** The flush under way: flushes run one after the other so that changes go out in order. */
  private delivery: Promise<unknown> = Promise.resolve();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.watchers = new TopicWatchers(ctx.storage.sql);
    this.outbox = new Outbox(ctx.storage.sql, (env, changes) => this.watchers.publish(env, changes));
    this.challenges = new UserChallenges(ctx.storage, env, {
      stage: (changes, background) => this.outbox.stage(changes, background),
      deliver: () => this.deliver(),
      reschedule: () => this.reschedule(),
    });
    ctx.blockConcurrencyWhile(async () =>
      migrateUserStorage(ctx.storage.sql, [eventsSchema, battlePassSchema, challengesSchema, outboxSchema, watchersSchema]),
    );
  }

  /** Hands on what is staged; after a failure the alarm retries. */
  private async deliver(): Promise<void> {
    const run = this.delivery.then(() => this.outbox.flush(this.env));
    this.delivery = run.catch(() => false);
    if (!(await run)) await this.reschedule();
  }

  /** The one alarm serves challenge time-outs and the retry of a failed flush. */
  private async reschedule(): Promise<void> {
    const retry = this.outbox.hasStaged() ? Date.now() + OUTBOX_RETRY_MS : null;
    const times = [await this.challenges.nextAlarmAt(), retry].filter((t): t is number => t !== null);
    if (times.length === 0) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.min(...times));
  }

  /**
   * Applies one validated event. Areas load what they need (their catalog) before the transaction
   * and apply synchronously inside it, between the idempotency check and the record of the
   * event id, so that a retried event is applied exactly once or, on any error, not at all. What
   * it changed that somebody receives (src/changes/receivers.ts), and the event itself for
   * analytics and leaderboards, are staged in the same transaction and handed on after it.
   */
  async applyEvent(event: UserEvent): Promise<ApplyEventResult> {
    const sql = this.ctx.storage.sql;
    const changes: Change[] = [];
    this.passesUnlocked ??= hasUnlockedPasses(sql);
    const battlePasses = this.passesUnlocked ? await battlePassCatalog(this.env.DB, event.appId) : null;
    const challenges = await this.challenges.prepare(event.appId, event.userId, event.receivedAt, event.eventName);
    const endpoints = await appEndpoints(this.env.DB, event.appId);
    const duplicate = this.ctx.storage.transactionSync(() => {
      if (event.eventId !== null && wasProcessed(sql, event.eventId)) return true;
      // Each area applies the event here and appends what it changed to `changes`.
      changes.push(...applyBattlePassEvent(sql, battlePasses, event));
      changes.push(...this.challenges.applyEvent(challenges, event));
      if (event.eventId !== null) recordProcessed(sql, event.eventId, event.receivedAt);
      // Events are the hot path, so what nobody receives is not even written; the rarer state
      // changes (actions, time-outs) stage everything, and their flush finds no receiver for it.
      const received = changes.filter((change) => hasReceiver(change, endpoints, this.watchers.any));
      this.outbox.stage(received, [{ kind: "event", event }, ...usageMessages(challenges)]);
      return false;
    });
    // Also after a duplicate: a retried event hands on what a failed send of the first left staged.
    await this.deliver();
    await this.challenges.settle(challenges);
    return { duplicate };
  }

  /** From a broker: these topics of the user gained their first subscriber there, or lost their last. */
  async watchTopics(broker: string, topics: string[], watching: boolean): Promise<void> {
    this.watchers.update(broker, topics, watching, Date.now());
  }

  /** Messages for the user's topics from elsewhere (src/realtime/publish.ts): on to the broker shards that have subscribers. */
  async publishTopics(batches: TopicBatch[]): Promise<void> {
    await this.watchers.publishBatches(this.env, batches);
  }

  /** The user's progress in every battle pass they unlocked, by battle_pass_id. */
  async battlePassProgress() {
    return readProgress(this.ctx.storage.sql);
  }

  /** Unlock a pass, activate or claim a level (src/battlepasses/user-progress.ts). */
  async battlePassAction(pass: CatalogPass, userId: string, action: BattlePassAction, now: number) {
    const outcome = runBattlePassAction(this.ctx.storage.sql, this.outbox, pass, userId, action, now);
    if (action.kind === "unlock") this.passesUnlocked = undefined;
    await this.deliver();
    return outcome;
  }

  /** Personal challenges (src/challenges/user-challenges.ts). Lists start automatic challenges. */
  async listChallenges(appId: string, userId: string, now: number, query: ListQuery) {
    return this.challenges.list(appId, userId, now, query);
  }

  async getChallenge(appId: string, userId: string, now: number, challengeId: string, language?: string) {
    return this.challenges.get(appId, userId, now, challengeId, language);
  }

  /** Unlock, activate, cancel or claim; a wrong state answers `{ok: false, status: 409}`. */
  async challengeAction(appId: string, userId: string, now: number, action: ChallengeAction, cid: string, language?: string) {
    return this.challenges.act(appId, userId, now, action, cid, language);
  }

  async resetChallenges(appId: string, userId: string, now: number) {
    return this.challenges.reset(appId, userId, now);
  }

  /** The stored challenge rows, read-only (admin view of a user). */
  async challengeState() {
    return this.challenges.state();
  }

  /** Retries a failed flush, and applies challenge time-outs: `lost` even when the user never comes back. */
  override async alarm() {
    await this.deliver();
    await this.challenges.alarm();
    await this.reschedule();
  }
}

export function userObject(env: Env, appId: string, userId: string) {
  return env.USER.get(env.USER.idFromName(userObjectName(appId, userId)));
}
