import { DurableObject } from "cloudflare:workers";
import type { ApplyEventResult, UserEvent } from "../events/types";
import { eventsSchema, recordProcessed, wasProcessed } from "../events/processed-events";
import type { Change } from "../changes/types";
import { dispatchChanges } from "../changes/dispatch";
import { migrateUserStorage } from "./schema";

/**
 * One per (app, user), addressed by `userObjectName`. The single writer of that user's challenge
 * and battle-pass progress: its serial execution is what keeps every increment under concurrent
 * events. Areas add their RPC methods and schemas here.
 */
export class UserDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => migrateUserStorage(ctx.storage.sql, [eventsSchema]));
  }

  /**
   * Applies one validated event. Areas load what they need (their catalog) before the transaction
   * and apply synchronously inside it, between the idempotency check and the record of the
   * event id, so that a retried event is applied exactly once or, on any error, not at all.
   */
  async applyEvent(event: UserEvent): Promise<ApplyEventResult> {
    const sql = this.ctx.storage.sql;
    const changes: Change[] = [];
    const duplicate = this.ctx.storage.transactionSync(() => {
      if (event.eventId !== null && wasProcessed(sql, event.eventId)) return true;
      // Each area applies the event here and appends what it changed to `changes`.
      if (event.eventId !== null) recordProcessed(sql, event.eventId, event.receivedAt);
      return false;
    });
    await dispatchChanges(this.env, changes);
    return { duplicate };
  }
}

export const userObjectName = (appId: string, userId: string) => `${appId}:${userId}`;

export function userObject(env: Env, appId: string, userId: string) {
  return env.USER.get(env.USER.idFromName(userObjectName(appId, userId)));
}
