import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../src/index";

/** A deployment's secrets that pass every check outside development. */
export const SAFE_SECRETS = {
  ADMIN_TOKEN: "a".repeat(40),
  JWT_SIGNING_KEYS: JSON.stringify([{ kid: "prod-1", secret: "s".repeat(48) }]),
  TOPIC_SECRET: "t".repeat(40),
};

/** A production deployment with safe secrets and the development switches off. */
export const PRODUCTION: Partial<Env> = { ...SAFE_SECRETS, ENVIRONMENT: "production", DEV_CLOCK: "off", ALLOW_LOOPBACK_WEBHOOKS: "off" };

/** Calls the Worker with `overrides` on top of the test bindings, as a deployment with those settings. */
export async function fetchWith(overrides: Partial<Env>, method: string, path: string, options: { token?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const request = new Request(`https://gamification.test${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const ctx = createExecutionContext();
  const response = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}
