import { recordAudit, PLAYER_RESOURCE, type Actor } from "../apps/audit-log";
import { DomainError } from "../shared/domain-errors";
import type { CorrectionResult } from "../user/area";
import { userObject } from "../user/names";

export type StreakCorrection = "streak-restore" | "streak-freezes";

/**
 * An operator's correction of a player's streak (restore a lost run, grant freezes), made like every
 * correction of a player's state: run by the player's object, refused with 404/409 saying why, and
 * written to the audit log (`correct-<name>`) with the state before and after and the reason.
 */
export async function correctStreak(
  env: Env,
  name: StreakCorrection,
  target: { appId: string; userId: string; streakId: string },
  input: { amount?: number; reason: string },
  now: number,
  actor: Actor,
) {
  const { appId, userId, streakId } = target;
  // The RPC stub's answer type adds Disposable to each member of the union, which defeats narrowing.
  const result = (await userObject(env, appId, userId).correct(name, {
    appId,
    userId,
    now,
    input: { streakId, amount: input.amount },
  })) as unknown as CorrectionResult;
  if (!result.ok) throw new DomainError(result.kind, result.message);
  const { before, after } = result;
  await recordAudit(env.DB, [
    {
      actor,
      appId,
      resource: PLAYER_RESOURCE,
      resourceId: userId,
      action: `correct-${name}`,
      before,
      after: { ...after, reason: input.reason },
    },
  ]);
  return { before, after, reason: input.reason };
}
