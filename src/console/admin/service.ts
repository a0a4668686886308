import { toIso } from "../../shared/clock";
import { hashPassword } from "../auth/passwords";
import { countActiveSessions, insertOperator, presentOperator, updateOperator, type OperatorRow } from "./repo";
import type { OperatorInput, OperatorUpdate } from "./schemas";
import type { Actor } from "../../apps/audit-log";

/** Console-user writes that hash a password first: the admin API and the Users page both call these. */

export async function createOperator(db: D1Database, input: OperatorInput, now: number, actor: Actor) {
  return presentOperator(await insertOperator(db, input, await hashPassword(input.password), toIso(now), actor));
}

export async function replaceOperator(
  db: D1Database,
  row: OperatorRow,
  input: OperatorUpdate,
  now: number,
  actor: Actor,
) {
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  const updated = await updateOperator(db, row, input, hash, now, toIso(now), actor);
  return presentOperator(updated, await countActiveSessions(db, updated.console_user_id, now));
}
