-- The admin console: its users (with a role), their sessions, and the index its dashboard reads by.

CREATE TABLE console_users (
  console_user_id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The sign-in name; compared without regard to case.
  email TEXT NOT NULL COLLATE NOCASE UNIQUE,
  display_name TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL CHECK (role IN ('owner', 'editor', 'viewer')),
  -- pbkdf2-sha256$<iterations>$<salt, base64>$<derived key, base64>: the cost travels with the hash.
  password_hash TEXT NOT NULL,
  -- Consecutive failed sign-ins since the last success: enough of them lock the account for a while.
  failed_sign_ins INTEGER NOT NULL DEFAULT 0,
  last_failed_sign_in_at INTEGER,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- One row per signed-in browser. The cookie holds a random token; only its SHA-256 is stored, so
-- a copy of the database opens no session. A NULL user is a sign-in with the admin token, as
-- owner; otherwise the user's current role applies to every request.
CREATE TABLE console_sessions (
  session_hash TEXT PRIMARY KEY,
  console_user_id INTEGER REFERENCES console_users (console_user_id) ON DELETE CASCADE,
  -- Sent back by every form and htmx request of this session.
  csrf_token TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX console_sessions_by_user ON console_sessions (console_user_id);
CREATE INDEX console_sessions_by_expiry ON console_sessions (expires_at);

-- The dashboard's webhook health counts one app's deliveries of the last 24 hours by status.
CREATE INDEX webhook_deliveries_by_app_age ON webhook_deliveries (app_id, updated_at, status);
