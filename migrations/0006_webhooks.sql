-- Webhook endpoints of an app (configuration: reads go through the catalog cache) and the
-- delivery log (one row per message, one row per HTTP attempt), kept 30 days by the cron.
CREATE TABLE webhooks (
  webhook_id INTEGER PRIMARY KEY AUTOINCREMENT,
  app_id INTEGER NOT NULL REFERENCES apps (app_id) ON DELETE CASCADE,
  webhook_type TEXT NOT NULL,
  url TEXT NOT NULL,
  -- Needed in plain text: sent as ?secret_key= (spec) and used as the signing key.
  secret_key TEXT NOT NULL,
  -- Set when the receiver answered 410 Gone; a PUT of the endpoint clears it.
  disabled_at TEXT,
  disabled_reason TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhooks_by_app ON webhooks (app_id, webhook_type, webhook_id);

-- No foreign keys to apps or webhooks: the log is history and outlives deleted endpoints; the
-- consumer must be able to record a message whose endpoint or app is gone.
CREATE TABLE webhook_deliveries (
  delivery_id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- The Standard Webhooks `webhook-id`: the same on every attempt and on manual redelivery.
  message_id TEXT NOT NULL UNIQUE,
  app_id INTEGER NOT NULL,
  webhook_id INTEGER,
  webhook_type TEXT NOT NULL,
  -- A per-level reward URL that replaced the endpoint's URL, else NULL.
  override_url TEXT,
  -- The URL of the last attempt, without the secret; NULL before any attempt.
  url TEXT,
  -- The exact JSON body sent.
  payload TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempt_count INTEGER NOT NULL DEFAULT 0,
  last_status_code INTEGER,
  last_error TEXT,
  last_attempt_at TEXT,
  next_attempt_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_by_app ON webhook_deliveries (app_id, delivery_id);
CREATE INDEX webhook_deliveries_by_status ON webhook_deliveries (app_id, status, delivery_id);
CREATE INDEX webhook_deliveries_by_age ON webhook_deliveries (updated_at);

CREATE TABLE webhook_attempts (
  attempt_id INTEGER PRIMARY KEY AUTOINCREMENT,
  delivery_id INTEGER NOT NULL REFERENCES webhook_deliveries (delivery_id) ON DELETE CASCADE,
  attempt_number INTEGER NOT NULL,
  attempted_at TEXT NOT NULL,
  -- NULL when no HTTP answer arrived (timeout, connection refused).
  status_code INTEGER,
  latency_ms INTEGER,
  error TEXT,
  outcome TEXT NOT NULL CHECK (outcome IN ('succeeded', 'failed'))
);
CREATE INDEX webhook_attempts_by_delivery ON webhook_attempts (delivery_id, attempt_number);
