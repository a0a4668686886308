/** The secrets and development switches every test run uses (never the deployed values). */
export const TEST_SECRETS = {
  // Development: outside it, the short test values below would close the admin API (503).
  ENVIRONMENT: "development",
  ADMIN_TOKEN: "test-admin-token",
  JWT_SIGNING_KEYS: JSON.stringify([
    { kid: "test-2", secret: "test-signing-secret-two-0123456789abcdef" },
    { kid: "test-1", secret: "test-signing-secret-one-0123456789abcdef" },
  ]),
  TOPIC_SECRET: "test-topic-secret",
  DEV_CLOCK: "on",
  ALLOW_LOOPBACK_WEBHOOKS: "on",
  // Structured lines, which the log tests read, whatever a developer's .dev.vars says.
  LOG_FORMAT: "json",
};
