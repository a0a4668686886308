import { recordAudit, PLAYER_RESOURCE, type Actor } from "../apps/audit-log";
import { DomainError } from "../shared/domain-errors";
import type { CorrectionResult } from "../user/area";
import { userObject } from "../user/names";

/** The correction's name among the areas' corrections (src/user/area.ts) and in the audit log (`correct-<name>`). */
export const ADJUST_CORRECTION = "points-adjust";

/**
 * An operator's adjustment of a player's balance, made like every correction of a player's state
 * (src/players/corrections.ts): run by the player's object as its own change (same webhooks and
 * MQTT message), refused with 404/409 saying why, and written to the audit log with the balance
 * before and after and the reason.
 */
export async function adjustPoints(
  env: Env,
  appId: string,
  userId: string,
  systemKey: string,
  input: { amount: number; reason: string },
  now: number,
  actor: Actor,
) {
  // The RPC stub's answer type adds Disposable to each member of the union, which defeats narrowing.
  const result = (await userObject(env, appId, userId).correct(ADJUST_CORRECTION, {
    appId,
    userId,
    now,
    input: { systemKey, amount: input.amount, reason: input.reason },
  })) as unknown as CorrectionResult;
  if (!result.ok) throw new DomainError(result.kind, result.message);
  const { before, after } = result;
  await recordAudit(env.DB, [
    {
      actor,
      appId,
      resource: PLAYER_RESOURCE,
      resourceId: userId,
      action: `correct-${ADJUST_CORRECTION}`,
      before,
      after: { ...after, reason: input.reason },
    },
  ]);
  return { before, after, reason: input.reason };
}
