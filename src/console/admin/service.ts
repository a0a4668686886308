import { toIso } from "../../shared/clock";
import { hashPassword } from "../auth/passwords";
import {
  countActiveSessions,
  insertConsoleUser,
  presentConsoleUser,
  updateConsoleUser,
  type ConsoleUserRow,
} from "./repo";
import type { ConsoleUserInput, ConsoleUserUpdate } from "./schemas";
import type { Actor } from "../../apps/audit-log";

/** Console-user writes that hash a password first: the admin API and the Users page both call these. */

export async function createConsoleUser(db: D1Database, input: ConsoleUserInput, now: number, actor: Actor) {
  return presentConsoleUser(await insertConsoleUser(db, input, await hashPassword(input.password), toIso(now), actor));
}

export async function replaceConsoleUser(
  db: D1Database,
  row: ConsoleUserRow,
  input: ConsoleUserUpdate,
  now: number,
  actor: Actor,
) {
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  const updated = await updateConsoleUser(db, row, input, hash, now, toIso(now), actor);
  return presentConsoleUser(updated, await countActiveSessions(db, updated.console_user_id, now));
}
