import { toIso } from "../../shared/clock";
import { hashPassword } from "../auth/passwords";
import { countActiveSessions, insertConsoleUser, presentConsoleUser, updateConsoleUser, type ConsoleUserRow } from "./repo";
import type { ConsoleUserInput, ConsoleUserUpdate } from "./schemas";

/** Console-user writes that hash a password first: the admin API and the Users page both call these. */

export async function createConsoleUser(db: D1Database, input: ConsoleUserInput, now: number) {
  return presentConsoleUser(await insertConsoleUser(db, input, await hashPassword(input.password), toIso(now)));
}

export async function replaceConsoleUser(db: D1Database, row: ConsoleUserRow, input: ConsoleUserUpdate, now: number) {
  const hash = input.password === undefined ? null : await hashPassword(input.password);
  const updated = await updateConsoleUser(db, row, input, hash, now, toIso(now));
  return presentConsoleUser(updated, await countActiveSessions(db, updated.console_user_id, now));
}
