import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { vi } from "vitest";
import worker from "../../../src/index";
import type { DeliveryMessage } from "../../../src/webhooks/messages";
import { ADMIN, call } from "../helpers";

export const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

export async function createEndpoint(appId: string, body: { webhook_type: string; url: string; secret_key?: string }) {
  const r = await admin("POST", `/apps/${appId}/webhooks`, body);
  if (r.status !== 201) throw new Error(`endpoint creation failed: ${JSON.stringify(r.body)}`);
  return r.body as { webhook_id: string; secret_key: string; url: string; webhook_type: string };
}

/** A queue that keeps what is sent to it instead of delivering it. */
export interface ReceivedCall {
  url: URL;
  method: string;
  headers: Headers;
  body: string;
}

/**
 * Replaces outbound fetch with a receiver: `answer` decides the response of each call (or throws,
 * as a refused connection does). `ours` picks the calls the test sent for; others are answered 200.
 */
export function stubReceiver(
  answer: (call: ReceivedCall, index: number) => Response | Promise<Response>,
  ours: (url: URL) => boolean = () => true,
) {
  const calls: ReceivedCall[] = [];
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    const received = {
      url: new URL(request.url),
      method: request.method,
      headers: request.headers,
      body: await request.text(),
    };
    // Files share the runtime: a delivery another file left retrying is let through, not recorded.
    if (!ours(received.url)) return new Response("ok");
    calls.push(received);
    return answer(received, calls.length - 1);
  });
  return calls;
}

let nextId = 0;

/** Runs the Worker's queue handler on one batch; answers what it acked and retried. */
export async function runQueue(
  queueName: string,
  messages: { body: unknown; attempts?: number }[],
  overrides: Partial<Record<keyof Env, unknown>> = {},
) {
  const batch = createMessageBatch(
    queueName,
    messages.map((m) => ({ id: `m${++nextId}`, timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  );
  // getQueueResult does not report retry delays: the spies keep them.
  const retried: { msgId: string; delaySeconds?: number }[] = [];
  for (const m of batch.messages) {
    const retry = m.retry.bind(m);
    m.retry = (options?: QueueRetryOptions) => {
      retried.push({ msgId: m.id, delaySeconds: options?.delaySeconds });
      retry(options);
    };
  }
  const ctx = createExecutionContext();
  await worker.queue(batch, { ...env, ...overrides } as Env);
  const result = await getQueueResult(batch, ctx);
  return { ids: batch.messages.map((m) => m.id), result: { ...result, retryMessages: retried } };
}

export const deliver = (
  messages: { body: unknown; attempts?: number }[],
  overrides: Partial<Record<keyof Env, unknown>> = {},
) => runQueue("gamification-webhooks", messages, overrides);

export const deadLetter = (messages: { body: unknown }[]) => runQueue("gamification-webhooks-dlq", messages);

export async function deliveryLog(appId: string, query = "") {
  const r = await admin("GET", `/apps/${appId}/webhook-deliveries?pageSize=100${query}`);
  if (r.status !== 200) throw new Error(`log read failed: ${JSON.stringify(r.body)}`);
  return r.body as { items: any[]; total: number };
}

export async function deliveryByMessage(appId: string, messageId: string) {
  const { items } = await deliveryLog(appId, `&message_id=${messageId}`);
  if (items.length !== 1) throw new Error(`no delivery for ${messageId}`);
  const r = await admin("GET", `/apps/${appId}/webhook-deliveries/${items[0].delivery_id}`);
  return r.body;
}

export function message(appId: string, webhookId: string, overrides: Partial<DeliveryMessage> = {}): DeliveryMessage {
  return {
    messageId: `msg_test${++nextId}`,
    appId,
    webhookId,
    webhookType: "challenge-changed",
    overrideUrl: null,
    body: JSON.stringify({ webhook_type: "challenge-changed", n: nextId }),
    createdAt: Date.parse("2025-01-01T00:00:00Z"),
    ...overrides,
  };
}

/** Waits for the real queue to hand messages to the consumer (no timing is asserted). */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("condition not reached");
}
