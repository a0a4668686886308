-- Privacy and accountability: the audit log, erasure receipts and tombstones, and the player each
-- webhook delivery names (so that erasing a player finds their deliveries by index).
-- Expand-only: new tables, a new nullable column and indexes; nothing existing changes meaning.

-- Who changed what, when and from where: every configuration write and every operator action on a
-- player (src/apps/audit-log.ts). No foreign key to apps: an app's entries outlive the app.
CREATE TABLE audit_log (
  entry_id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- ISO 8601 in UTC as written by toIso(), so that text order is time order.
  at TEXT NOT NULL,
  -- NULL for what is not one app's: apps themselves, console users.
  app_id INTEGER,
  actor_kind TEXT NOT NULL CHECK (actor_kind IN ('admin-token', 'console-user', 'api-key', 'system')),
  -- The console user's or API key's id; NULL for the admin token and the system.
  actor_id TEXT,
  -- The X-Actor name given with the admin token, the console user's email, the key's name, the system task.
  actor_name TEXT,
  channel TEXT NOT NULL CHECK (channel IN ('admin-api', 'console', 'api', 'background')),
  ip TEXT,
  request_id TEXT,
  resource TEXT NOT NULL,
  -- For a player: their user id, replaced by 'erased:<subject>' when they are erased.
  resource_id TEXT,
  action TEXT NOT NULL,
  -- 'refused': an authenticated actor tried what their role does not allow (nothing changed).
  outcome TEXT NOT NULL CHECK (outcome IN ('done', 'refused')),
  -- JSON of the object before and after (secrets redacted); NULL for none.
  before TEXT,
  after TEXT
);
-- One app's log (app_id NULL: the log of what is not one app's), newest first.
CREATE INDEX audit_log_by_app ON audit_log (app_id, entry_id);
-- Filtering by resource, and an erasure finding the entries about its player.
CREATE INDEX audit_log_by_resource ON audit_log (app_id, resource, resource_id, entry_id);
-- Retention removes the oldest entries across apps.
CREATE INDEX audit_log_by_time ON audit_log (at);

-- An erased player, keyed by an HMAC of (app, user id), never the id (src/apps/erasure-tombstones.ts).
-- Refuses access tokens minted before `erased_at` and lets every writer and queue consumer recognise
-- what belongs to a player erased since; kept as long as Cloudflare's backups (`expires_at`).
CREATE TABLE erasure_tombstones (
  subject TEXT PRIMARY KEY,
  app_id INTEGER NOT NULL,
  -- Service time (ms): tokens issued before it are refused, events received before it are dropped.
  erased_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX erasure_tombstones_by_app ON erasure_tombstones (app_id, expires_at);
CREATE INDEX erasure_tombstones_by_expiry ON erasure_tombstones (expires_at);

-- The receipt of one erasure request (src/privacy/receipts.ts); names the player by subject only.
CREATE TABLE erasures (
  -- Random digits: a receipt id reveals nothing about other requests.
  erasure_id INTEGER PRIMARY KEY,
  app_id INTEGER NOT NULL,
  subject TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'completed', 'failed')),
  requested_at TEXT NOT NULL,
  started_at TEXT,
  completed_at TEXT,
  -- The last failure, while retried or once failed.
  error TEXT
);
CREATE INDEX erasures_by_subject ON erasures (app_id, subject, requested_at);
CREATE INDEX erasures_by_age ON erasures (requested_at);

-- The player a delivery's payload names (NULL: none, such as battlepass-expired or a team's
-- ranking), so that erasing a player deletes their deliveries without reading the log.
ALTER TABLE webhook_deliveries ADD COLUMN user_id TEXT;
CREATE INDEX webhook_deliveries_by_user ON webhook_deliveries (app_id, user_id) WHERE user_id IS NOT NULL;

-- Deliveries logged before this migration: the player is where each payload type of the spec puts it.
UPDATE webhook_deliveries SET user_id = COALESCE(
  payload ->> '$.new_challenge.user_id',
  payload ->> '$.new_battle_pass_challenge.user_id',
  payload ->> '$.battle_pass_level_reward_claimed.user_id',
  CASE WHEN payload ->> '$.member_data.member_type' = 'user' THEN payload ->> '$.member_data.member_id' END)
WHERE json_valid(payload) AND webhook_type <> 'battlepass-expired';
