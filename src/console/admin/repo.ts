import { conflict } from "../../shared/domain-errors";
import { notFound } from "../../shared/domain-errors";
import { parseId } from "../../shared/ids";
import { pageOffset, type Paging } from "../../shared/paging";
import type { ConsoleRole } from "../../kit/console/core/roles";
import type { FailureRecord } from "../core/sign-in-lock";
import { revokeOperatorSessionsStatement } from "../../kit/console/sessions";
import type { OperatorInput, OperatorUpdate } from "./schemas";
import { auditOf, type Actor } from "../../apps/audit-log";
import { writeConfig, writeConfigRow } from "../../apps/config-write";

/** D1 access to console users, shared by the admin API and the console's Users page. */

export interface OperatorRow {
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

type ListedRow = OperatorRow & { active_sessions: number };

export const presentOperator = (row: OperatorRow, activeSessions = 0) => ({
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

export async function insertOperator(
  db: D1Database,
  input: OperatorInput,
  passwordHash: string,
  nowIso: string,
  actor: Actor,
): Promise<OperatorRow> {
  try {
    const statement = db
      .prepare(
        `INSERT INTO console_users (email, display_name, role, password_hash, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?) RETURNING *`,
      )
      .bind(input.email, input.display_name, input.role, passwordHash, nowIso, nowIso);
    return (await writeConfigRow<OperatorRow>(db, null, statement, userAudit(actor).created(input)))!;
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(input.email);
    throw err;
  }
}

const ACTIVE_SESSIONS = `(SELECT COUNT(*) FROM console_sessions s
  WHERE s.console_user_id = u.console_user_id AND s.revoked_at IS NULL AND s.expires_at > ?1)`;

/** A page of users by email; `search` matches a part of the email or the name. */
export async function listOperators(db: D1Database, paging: Paging, search: string, now: number) {
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

export async function requireOperator(db: D1Database, operatorId: string): Promise<OperatorRow> {
  const id = parseId(operatorId);
  const row =
    id === null
      ? null
      : await db.prepare("SELECT * FROM console_users WHERE console_user_id = ?").bind(id).first<OperatorRow>();
  if (!row) throw notFound(`Console user ${operatorId} not found`);
  return row;
}

export async function countActiveSessions(db: D1Database, operatorId: number, now: number): Promise<number> {
  const row = await db
    .prepare(`SELECT ${ACTIVE_SESSIONS} AS n FROM console_users u WHERE u.console_user_id = ?2`)
    .bind(now, operatorId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * Replaces a user's settings; `passwordHash` null keeps the password. A changed role or password
 * revokes the user's sessions in the same batch: nobody keeps rights they just lost.
 */
export async function updateOperator(
  db: D1Database,
  row: OperatorRow,
  input: OperatorUpdate,
  passwordHash: string | null,
  now: number,
  nowIso: string,
  actor: Actor,
): Promise<OperatorRow> {
  const signOut = passwordHash !== null || input.role !== row.role;
  const audit = userAudit(actor).updated(row.console_user_id, presentOperator(row), input);
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
        ...(signOut ? [revokeOperatorSessionsStatement(db, row.console_user_id, now)] : []),
      ],
      [audit],
    );
    return updated.results[0] as OperatorRow;
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(input.email);
    throw err;
  }
}

/** Deletes the user; their sessions go with them (foreign key). */
export async function deleteOperator(db: D1Database, row: OperatorRow, actor: Actor): Promise<void> {
  const statement = db.prepare("DELETE FROM console_users WHERE console_user_id = ?").bind(row.console_user_id);
  await writeConfig(db, [], [statement], [userAudit(actor).deleted(row.console_user_id, presentOperator(row))]);
}

export async function findOperatorByEmail(db: D1Database, email: string): Promise<OperatorRow | null> {
  return db.prepare("SELECT * FROM console_users WHERE email = ?").bind(email.trim()).first<OperatorRow>();
}

export const failureRecord = (row: OperatorRow): FailureRecord => ({
  failedSignIns: row.failed_sign_ins,
  lastFailedAt: row.last_failed_sign_in_at,
});

export async function saveFailureRecord(db: D1Database, operatorId: number, record: FailureRecord): Promise<void> {
  await db
    .prepare("UPDATE console_users SET failed_sign_ins = ?, last_failed_sign_in_at = ? WHERE console_user_id = ?")
    .bind(record.failedSignIns, record.lastFailedAt, operatorId)
    .run();
}
