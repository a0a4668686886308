import { z } from "@hono/zod-openapi";
import { recordAudit, type Actor } from "../apps/audit-log";
import type { Correction, CorrectionTarget } from "../kit/area";
import { userObject } from "../user/names";
import { DomainError } from "../shared/domain-errors";

/**
 * Corrections of a player's progress by support and live ops: a challenge completed that a bug
 * left at 9/10, a counter set, a battle-pass level granted, a score fixed. Every correction
 *  - needs a reason (the input schemas take it through `withReason`; without one: 400),
 *  - runs as the change the player's own play would have made, so it sends the same webhooks and
 *    MQTT messages (a player's state through their object's `transact`, a score through the
 *    board's apply),
 *  - answers 409 saying why when the state does not allow it,
 *  - is written to the audit log with the state before and after and the reason.
 *
 * An area adds each of its corrections to CORRECTIONS (src/players/correction-list.ts): its name
 * and how it runs; the admin API's routes and the console's player page make them through
 * `applyCorrection`. A correction of a player's object state is named the same in the area's
 * `corrections` (src/user/area.ts): `userObjectCorrection` runs it there.
 */

/** The reason every correction takes: shown in the audit log. */
export const Reason = z
  .string()
  .trim()
  .min(1, "is required: say why the player's state is corrected")
  .max(500)
  .openapi({
    description: "Why the correction is made; kept in the audit log with the state before and after",
    example: "a bug left the challenge at 9/10",
  });

export const withReason = <T extends z.ZodRawShape>(shape: T) => z.object({ ...shape, reason: Reason });

export type { Correction, CorrectionTarget };

/** A correction of the player's object state, run by the area that registered it under `name` there. */
export const userObjectCorrection = <Input extends Record<string, unknown>>(name: string): Correction<Input> => ({
  name,
  run: (env, target, input, now) =>
    userObject(env, target.appId, target.resourceId).correct(name, {
      appId: target.appId,
      userId: target.resourceId,
      now,
      input,
    }),
});

/**
 * Makes a correction: runs it, then writes its audit entry (state before, after and the reason).
 * Answers the state after; a correction refused by the state throws its 400, 404 or 409.
 */
export async function applyCorrection<Input extends { reason: string }>(
  env: Env,
  correction: Correction<Omit<Input, "reason">>,
  target: CorrectionTarget,
  input: Input,
  now: number,
  actor: Actor,
): Promise<{ before: Record<string, unknown>; after: Record<string, unknown>; reason: string }> {
  const { reason, ...rest } = input;
  const result = await correction.run(env, target, rest, now);
  if (!result.ok) throw new DomainError(result.kind, result.message);
  await recordAudit(env.DB, [
    {
      actor,
      appId: target.appId,
      resource: target.resource,
      resourceId: target.resourceId,
      action: `correct-${correction.name}`,
      before: result.before,
      after: { ...result.after, reason },
    },
  ]);
  return { before: result.before, after: result.after, reason };
}
