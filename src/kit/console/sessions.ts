import { randomToken, sha256Hex } from "../../shared/crypto";
import type { ConsoleRole } from "./core/roles";

/**
 * Console sessions in D1. The cookie carries a random token and the table only its SHA-256, so
 * the table opens no session. Sessions end at `expires_at`, on sign-out, or when an owner changes
 * the user's role or password or deletes the user.
 */
export const SESSION_LIFETIME_MS = 12 * 3_600_000;

export interface ConsoleSession {
  sessionHash: string;
  /** null: signed in with the admin token. */
  operatorId: number | null;
  role: ConsoleRole;
  /** What the corner of every page shows. */
  label: string;
  /** The console user's sign-in name (the audit log's "who"); null with the admin token. */
  email: string | null;
  csrfToken: string;
  expiresAt: number;
}

interface SessionJoinRow {
  session_hash: string;
  console_user_id: number | null;
  csrf_token: string;
  expires_at: number;
  role: ConsoleRole | null;
  email: string | null;
  display_name: string | null;
}

export const ADMIN_TOKEN_LABEL = "Admin token";

export async function createSession(
  db: D1Database,
  operatorId: number | null,
  now: number,
): Promise<{ token: string; expiresAt: number }> {
  const token = randomToken(32);
  const expiresAt = now + SESSION_LIFETIME_MS;
  // Expired rows are few and cheap to drop here, so no cron job is needed for them.
  await db.batch([
    db.prepare("DELETE FROM console_sessions WHERE expires_at <= ?").bind(now),
    db
      .prepare(
        "INSERT INTO console_sessions (session_hash, console_user_id, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
      )
      .bind(await sha256Hex(token), operatorId, randomToken(32), now, expiresAt),
  ]);
  return { token, expiresAt };
}

/** The live session of a cookie token, with the user's current role; null when unknown, expired or revoked. */
export async function findSession(db: D1Database, token: string, now: number): Promise<ConsoleSession | null> {
  const row = await db
    .prepare(
      `SELECT s.session_hash, s.console_user_id, s.csrf_token, s.expires_at, u.role, u.email, u.display_name
       FROM console_sessions s LEFT JOIN console_users u ON u.console_user_id = s.console_user_id
       WHERE s.session_hash = ? AND s.revoked_at IS NULL AND s.expires_at > ?`,
    )
    .bind(await sha256Hex(token), now)
    .first<SessionJoinRow>();
  if (!row) return null;
  const isAdminToken = row.console_user_id === null;
  return {
    sessionHash: row.session_hash,
    operatorId: row.console_user_id,
    role: isAdminToken ? "owner" : row.role!,
    label: isAdminToken ? ADMIN_TOKEN_LABEL : row.display_name || row.email!,
    email: row.email,
    csrfToken: row.csrf_token,
    expiresAt: row.expires_at,
  };
}

export async function revokeSession(db: D1Database, sessionHash: string, now: number): Promise<void> {
  await db
    .prepare("UPDATE console_sessions SET revoked_at = ? WHERE session_hash = ? AND revoked_at IS NULL")
    .bind(now, sessionHash)
    .run();
}

export const revokeOperatorSessionsStatement = (db: D1Database, operatorId: number, now: number) =>
  db
    .prepare("UPDATE console_sessions SET revoked_at = ? WHERE console_user_id = ? AND revoked_at IS NULL")
    .bind(now, operatorId);

export async function revokeOperatorSessions(db: D1Database, operatorId: number, now: number): Promise<void> {
  await revokeOperatorSessionsStatement(db, operatorId, now).run();
}
