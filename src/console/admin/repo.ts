import { conflict } from "../../shared/domain-errors";
import { notFound } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { pageOffset, type Paging } from "../../shared/paging";
import type { ConsoleRole } from "../../kit/console/core/roles";
import type { FailureRecord } from "../core/sign-in-lock";
import { revokeUserSessionsStatement } from "../../kit/console/sessions";
import type { ConsoleUserInput, ConsoleUserUpdate } from "./schemas";
import { auditOf, type Actor } from "../../apps/audit-log";
import { writeConfig, writeConfigRow } from "../../apps/config-write";

/** D1 access to console users, shared by the admin API and the console's Users page. */

export interface ConsoleUserRow {
  console_user_id: number;
  email: string;
  display_name: string;
  role: ConsoleRole;
  password_hash: string;
  failed_sign_ins: number;
  last_failed_sign_in_at: number | null;
  created_at: string;
  updated_at: string;
}

type ListedRow = ConsoleUserRow & { active_sessions: number };

export const presentConsoleUser = (row: ConsoleUserRow, activeSessions = 0) => ({
  console_user_id: String(row.console_user_id),
  email: row.email,
  display_name: row.display_name,
  role: row.role,
  active_sessions: activeSessions,
  created_at: row.created_at,
  updated_at: row.updated_at,
});

const emailTaken = (email: string) =>
  conflict(`A console user with the email ${email} already exists`, [
    { field: "email", problem: "is already a console user" },
  ]);
const isUniqueViolation = (err: unknown) => err instanceof Error && /UNIQUE constraint failed/i.test(err.message);

/** Console users are in the log of what is not one app's; their passwords are redacted by the log. */
const userAudit = (actor: Actor) => auditOf(actor, null, "console-user");

export async function insertConsoleUser(
  db: D1Database,
  input: ConsoleUserInput,
  passwordHash: string,
  nowIso: string,
  actor: Actor,
): Promise<ConsoleUserRow> {
  try {
    const statement = db
      .prepare(
        `INSERT INTO console_users (email, display_name, role, password_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .bind(input.email, input.display_name, input.role, passwordHash, nowIso, nowIso);
    return (await writeConfigRow<ConsoleUserRow>(db, null, statement, userAudit(actor).created(input)))!;
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(input.email);
    throw err;
  }
}

const ACTIVE_SESSIONS = `(SELECT COUNT(*) FROM console_sessions s
  WHERE s.console_user_id = u.console_user_id AND s.revoked_at IS NULL AND s.expires_at > ?1)`;

/** A page of users by email; `search` matches a part of the email or the name. */
export async function listConsoleUsers(db: D1Database, paging: Paging, search: string, now: number) {
  const where = "(?2 = '' OR instr(lower(u.email), lower(?2)) > 0 OR instr(lower(u.display_name), lower(?2)) > 0)";
  const [rows, total] = await db.batch<unknown>([
    db
      .prepare(
        `SELECT u.*, ${ACTIVE_SESSIONS} AS active_sessions FROM console_users u WHERE ${where} ORDER BY u.email LIMIT ?3 OFFSET ?4`,
      )
      .bind(now, search, paging.pageSize, pageOffset(paging)),
    // ?1 is unused here but bound, so that both statements share one WHERE clause.
    db.prepare(`SELECT COUNT(*) AS n FROM console_users u WHERE ${where}`).bind(now, search),
  ]);
  return { rows: rows.results as ListedRow[], total: (total.results[0] as { n: number }).n };
}

export async function requireConsoleUser(db: D1Database, consoleUserId: string): Promise<ConsoleUserRow> {
  const id = parseId(consoleUserId);
  const row =
    id === null
      ? null
      : await db.prepare("SELECT * FROM console_users WHERE console_user_id = ?").bind(id).first<ConsoleUserRow>();
  if (!row) throw notFound(`Console user ${consoleUserId} not found`);
  return row;
}

export async function countActiveSessions(db: D1Database, consoleUserId: number, now: number): Promise<number> {
  const row = await db
    .prepare(`SELECT ${ACTIVE_SESSIONS} AS n FROM console_users u WHERE u.console_user_id = ?2`)
    .bind(now, consoleUserId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Replaces a user's settings; `passwordHash` null keeps the password. A changed role or password
 * revokes the user's sessions in the same batch: nobody keeps rights they just lost.
 */
export async function updateConsoleUser(
  db: D1Database,
  row: ConsoleUserRow,
  input: ConsoleUserUpdate,
  passwordHash: string | null,
  now: number,
  nowIso: string,
  actor: Actor,
): Promise<ConsoleUserRow> {
  const signOut = passwordHash !== null || input.role !== row.role;
  const audit = userAudit(actor).updated(row.console_user_id, presentConsoleUser(row), input);
  try {
    const [updated] = await writeConfig(
      db,
      [],
      [
        db
          .prepare(
            `UPDATE console_users SET email = ?, display_name = ?, role = ?, password_hash = COALESCE(?, password_hash),
             failed_sign_ins = CASE WHEN ? IS NULL THEN failed_sign_ins ELSE 0 END, updated_at = ?
           WHERE console_user_id = ? RETURNING *`,
          )
          .bind(input.email, input.display_name, input.role, passwordHash, passwordHash, nowIso, row.console_user_id),
        ...(signOut ? [revokeUserSessionsStatement(db, row.console_user_id, now)] : []),
      ],
      [audit],
    );
    return updated.results[0] as ConsoleUserRow;
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(input.email);
    throw err;
  }
}

/** Deletes the user; their sessions go with them (foreign key). */
export async function deleteConsoleUser(db: D1Database, row: ConsoleUserRow, actor: Actor): Promise<void> {
  const statement = db.prepare("DELETE FROM console_users WHERE console_user_id = ?").bind(row.console_user_id);
  await writeConfig(db, [], [statement], [userAudit(actor).deleted(row.console_user_id, presentConsoleUser(row))]);
}

export async function findConsoleUserByEmail(db: D1Database, email: string): Promise<ConsoleUserRow | null> {
  return db.prepare("SELECT * FROM console_users WHERE email = ?").bind(email.trim()).first<ConsoleUserRow>();
}

export const failureRecord = (row: ConsoleUserRow): FailureRecord => ({
  failedSignIns: row.failed_sign_ins,
  lastFailedAt: row.last_failed_sign_in_at,
});

export async function saveFailureRecord(db: D1Database, consoleUserId: number, record: FailureRecord): Promise<void> {
  await db
    .prepare("UPDATE console_users SET failed_sign_ins = ?, last_failed_sign_in_at = ? WHERE console_user_id = ?")
    .bind(record.failedSignIns, record.lastFailedAt, consoleUserId)
    .run();
}
