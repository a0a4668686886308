import { Configuration } from "@scillgame/scill-js";
import { inject } from "vitest";
import { TEST_SECRETS } from "../support/secrets";

/** The `wrangler dev` server started by global-setup.ts. */
export const baseUrl = () => inject("baseUrl");
export const ADMIN_TOKEN = TEST_SECRETS.ADMIN_TOKEN;

/** A JSON request against the running server; answers status and parsed body. */
export async function http(method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: any;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}

/** As a new studio would: an app and an API key through the admin API, and tokens for its users. */
export async function newStudioApp(name = "E2E studio") {
  const app = await http("POST", "/api/v1/admin/apps", { token: ADMIN_TOKEN, body: { name } });
  if (app.status !== 201) throw new Error(`create app: ${app.status} ${JSON.stringify(app.body)}`);
  const key = await http("POST", `/api/v1/admin/apps/${app.body.app_id}/api-keys`, {
    token: ADMIN_TOKEN,
    body: { name: "e2e" },
  });
  if (key.status !== 201) throw new Error(`create key: ${key.status} ${JSON.stringify(key.body)}`);
  const apiKey: string = key.body.key;
  return {
    appId: app.body.app_id as string,
    apiKey,
    async tokenFor(userId: string): Promise<string> {
      const r = await http("POST", "/api/v1/auth/access-token", { token: apiKey, body: { user_id: userId } });
      if (r.status !== 200) throw new Error(`mint token: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body.token;
    },
  };
}

/** Polls `probe` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${last}` : ""}`);
}

/**
 * A SCILL SDK configuration for this server. `apiKey` is how the SDK picks `?auth=`: access tokens
 * are longer than 64 characters, API keys are not (the SDK's own rule).
 */
export const sdkConfiguration = (credential: string) =>
  new Configuration({
    accessToken: credential,
    apiKey: credential.length > 64 ? "access_token" : "api_key",
    basePath: baseUrl(),
  });

/** What the SDK throws for a non-2xx answer is the fetch Response itself. */
export async function sdkFailure(promise: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await promise;
  } catch (err) {
    const response = err as Response;
    return { status: response.status, body: await response.json() };
  }
  throw new Error("expected the SDK call to fail");
}

/** Creates an admin resource; fails the test when the answer is not 201. */
export async function adminCreate(path: string, body: unknown) {
  const r = await http("POST", path, { token: ADMIN_TOKEN, body });
  if (r.status !== 201) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
