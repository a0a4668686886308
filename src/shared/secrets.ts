import { type DomainError, unavailable } from "./domain-errors";

/**
 * The secrets of .dev.vars.example: fine on a laptop, an open door anywhere else, since they are
 * published with the code. A test checks that this list matches that file.
 */
export const DEVELOPMENT_SECRET_VALUES = {
  ADMIN_TOKEN: "dev-admin-token",
  JWT_SIGNING_SECRET: "dev-signing-secret-change-me-0123456789abcdef",
  TOPIC_SECRET: "dev-topic-secret-change-me",
} as const;

/** Shortest admin token and topic secret accepted outside development: 32 random characters. */
export const MIN_SECRET_LENGTH = 32;

export type SecretName = "ADMIN_TOKEN" | "JWT_SIGNING_KEYS" | "TOPIC_SECRET";

/**
 * Only an explicit `ENVIRONMENT=development` (.dev.vars) relaxes the checks: a deployment that
 * lost or never had the variable is treated as production.
 */
export const isDevelopment = (env: { ENVIRONMENT?: string }): boolean => env.ENVIRONMENT === "development";

/**
 * The answer of a path that cannot work without `name`: 503 (the service, not the caller, is at
 * fault; never a 500 and never open), naming the secret and how to set it.
 */
export function secretNotConfigured(name: SecretName, problem: string): DomainError {
  return unavailable(
    `Service not configured: ${name} ${problem}. Set it with \`wrangler secret put ${name}\` (or run \`npm run deploy\`, which generates the missing secrets).`,
  );
}

/** What is wrong with ADMIN_TOKEN, or null: outside development it must be long and not the published one. */
export function adminTokenProblem(env: { ADMIN_TOKEN?: string; ENVIRONMENT?: string }): string | null {
  const token = env.ADMIN_TOKEN;
  if (!token) return "is not set";
  if (isDevelopment(env)) return null;
  if (token === DEVELOPMENT_SECRET_VALUES.ADMIN_TOKEN) return "is the development value";
  if (token.length < MIN_SECRET_LENGTH) return `is shorter than ${MIN_SECRET_LENGTH} characters`;
  return null;
}

/**
 * The topic secret: without it no topic can be named or checked. A development or short value
 * outside development still works (rotating it would invalidate every topic handed out), and
 * `GET /api/v1/admin/status` warns about it.
 */
export function topicSecret(env: { TOPIC_SECRET?: string }): string {
  if (!env.TOPIC_SECRET) throw secretNotConfigured("TOPIC_SECRET", "is not set");
  return env.TOPIC_SECRET;
}

export function weakTopicSecret(env: { TOPIC_SECRET?: string; ENVIRONMENT?: string }): string | null {
  const secret = env.TOPIC_SECRET;
  if (!secret || isDevelopment(env)) return null;
  if (secret === DEVELOPMENT_SECRET_VALUES.TOPIC_SECRET)
    return "TOPIC_SECRET is the development value: topics handed out are guessable by anyone who reads the code";
  if (secret.length < MIN_SECRET_LENGTH) return `TOPIC_SECRET is shorter than ${MIN_SECRET_LENGTH} characters`;
  return null;
}
