import { DurableObject } from "cloudflare:workers";
import type { ApplyEventResult, UserEvent } from "../events/types";
import { migrateUserStorage } from "./schema";

/**
 * One per (app, user), addressed by `userObjectName`. The single writer of that user's challenge
 * and battle-pass progress: its serial execution is what keeps every increment under concurrent
 * events. Areas add their RPC methods and schemas here.
 */
export class UserDO extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => migrateUserStorage(ctx.storage.sql, []));
  }

  async applyEvent(_event: UserEvent): Promise<ApplyEventResult> {
    return { duplicate: false };
  }
}

export const userObjectName = (appId: string, userId: string) => `${appId}:${userId}`;

export function userObject(env: Env, appId: string, userId: string) {
  return env.USER.get(env.USER.idFromName(userObjectName(appId, userId)));
}
