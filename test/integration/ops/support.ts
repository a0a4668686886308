/** A deployment's secrets that pass every check outside development. */
export const SAFE_SECRETS = {
  ADMIN_TOKEN: "a".repeat(40),
  JWT_SIGNING_KEYS: JSON.stringify([{ kid: "prod-1", secret: "s".repeat(48) }]),
  TOPIC_SECRET: "t".repeat(40),
};

/** A production deployment with safe secrets and the development switches off. */
export const PRODUCTION: Partial<Env> = {
  ...SAFE_SECRETS,
  ENVIRONMENT: "production",
  DEV_CLOCK: "off",
  ALLOW_LOOPBACK_WEBHOOKS: "off",
};
