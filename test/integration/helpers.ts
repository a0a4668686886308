import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { onTestFinished, vi } from "vitest";
import worker from "../../src/index";
import { TEST_SECRETS } from "../support/secrets";
import { systemActor } from "../../src/apps/audit-log";
import { ObjectTables, type AreaTables, type AreaSql } from "../../src/shared/object-tables";
import { USER_OBJECT_TABLES } from "../../src/wiring/user-areas";

export const ADMIN = TEST_SECRETS.ADMIN_TOKEN;

/** Who a test acts as when it calls a service function directly (the audit log's "who"). */
export const TEST_ACTOR = systemActor("test");

export interface CallOptions {
  token?: string;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
}

/** The request a client would send. */
function clientRequest(method: string, path: string, options: CallOptions): Request {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] = "application/json";
  } else if (body !== undefined) headers["Content-Type"] ??= "application/json";
  return new Request(`https://gamification.test${path}`, { method, headers, body });
}

/** The status, the parsed JSON body (the text when it is not JSON) and the headers. */
async function answerOf(response: Response) {
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = text;
  }
  return { status: response.status, body: json, headers: response.headers };
}

/** Calls the Worker as a client would; answers the status and the parsed JSON body. */
export async function call(method: string, path: string, options: CallOptions = {}) {
  return answerOf(await SELF.fetch(clientRequest(method, path, options)));
}

/**
 * The same through the Worker's fetch handler with `overrides` on top of the test bindings: a
 * deployment with other settings, or a queue replaced by a capturing one.
 */
export async function callWith(overrides: Partial<Env>, method: string, path: string, options: CallOptions = {}) {
  const ctx = createExecutionContext();
  const request = clientRequest(method, path, options) as Request<unknown, IncomingRequestCfProperties>;
  const response = await worker.fetch(request, { ...env, ...overrides } as Env, ctx);
  await waitOnExecutionContext(ctx);
  return answerOf(response);
}

/** A new app with one API key, and a way to mint access tokens for its users. */
export async function createTestApp(name = "Test app") {
  const app = await call("POST", "/api/v1/admin/apps", { token: ADMIN, body: { name, default_language: "en" } });
  if (app.status !== 201) throw new Error(`app creation failed: ${JSON.stringify(app.body)}`);
  const appId: string = app.body.app_id;
  const key = await call("POST", `/api/v1/admin/apps/${appId}/api-keys`, { token: ADMIN, body: { name: "test" } });
  const apiKey: string = key.body.key;
  return {
    appId,
    apiKey,
    keyId: key.body.key_id as string,
    async tokenFor(userId: string): Promise<string> {
      const minted = await call("POST", "/api/v1/auth/access-token", { token: apiKey, body: { user_id: userId } });
      if (minted.status !== 200) throw new Error(`token mint failed: ${JSON.stringify(minted.body)}`);
      return minted.body.token;
    },
  };
}

export const HOUR = 3600_000;
export const DAY = 24 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();

/** The service clock now, as the dev clock reports it. */
export async function serviceNow(): Promise<number> {
  const r = await call("GET", "/api/v1/admin/dev/clock", { token: ADMIN });
  return Date.parse(r.body.now);
}

/** Moves the service's development clock forward. */
export async function advanceClock(seconds: number) {
  const r = await call("POST", "/api/v1/admin/dev/clock/advance", { token: ADMIN, body: { advance_seconds: seconds } });
  if (r.status !== 200) throw new Error(`clock advance failed: ${JSON.stringify(r.body)}`);
  return r.body as { now: string };
}

/** Sends one event for a user from the customer's backend. */
export async function sendEvent(
  apiKey: string,
  userId: string,
  eventName: string,
  meta: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
) {
  const r = await call("POST", "/api/v1/events", {
    token: apiKey,
    body: { user_id: userId, event_name: eventName, meta_data: meta, ...extra },
  });
  if (r.status !== 200) throw new Error(`event: ${r.status} ${JSON.stringify(r.body)}`);
}

/**
 * A queue that keeps what is sent to it, so a test sees exactly what a producer sent: each body
 * (through `read`, a copy by default) in `sent`, and each send call's bodies in `batches`.
 */
export function capturingQueue<T = unknown>(read: (body: any) => T = (body) => structuredClone(body)) {
  const sent: T[] = [];
  const batches: T[][] = [];
  const keep = (bodies: T[]) => {
    batches.push(bodies);
    sent.push(...bodies);
  };
  const queue = {
    async send(body: unknown) {
      keep([read(body)]);
    },
    async sendBatch(messages: Iterable<{ body: unknown }>) {
      keep([...messages].map((m) => read(m.body)));
    },
  } as unknown as Queue;
  return { sent, batches, queue };
}

/**
 * Records, instead of sending, what anything in this isolate sends to a queue binding until the
 * test ends: the Worker and the Durable Objects share their bindings with the test here.
 */
export function captureSends<T = unknown>(
  binding: Queue,
  read: (body: any) => T = (body) => structuredClone(body),
): T[] {
  const sent: T[] = [];
  // What a queue answers about itself; nothing in the service reads it.
  const answer = {
    metadata: { metrics: { backlogCount: 0, backlogBytes: 0, oldestMessageTimestamp: undefined } },
  } as never;
  const send = vi.spyOn(binding, "send").mockImplementation(async (body: unknown) => {
    sent.push(read(body));
    return answer;
  });
  const sendBatch = vi
    .spyOn(binding, "sendBatch")
    .mockImplementation(async (messages: Iterable<MessageSendRequest<unknown>>) => {
      for (const m of messages) sent.push(read(m.body));
      return answer;
    });
  onTestFinished(() => {
    send.mockRestore();
    sendBatch.mockRestore();
  });
  return sent;
}

/**
 * One area's view of a user object's storage, as UserDO gives it: the area's tables are made at its
 * first write. The view reads which areas exist when it is made, as an object does when it starts:
 * tables it makes are unknown to the object's own running instance.
 */
export function areaTables(storage: DurableObjectStorage, area: AreaTables): AreaSql {
  return new ObjectTables(storage.sql, USER_OBJECT_TABLES).sqlFor(area);
}
