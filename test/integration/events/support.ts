import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import worker from "../../../src/index";
import type { BackgroundMessage } from "../../../src/user/messages";
import { callWith, captureSends } from "../helpers";

/**
 * The background queue, keeping what the user's object hands on, so a test sees exactly which
 * events went to analytics (the real queue would deliver them to the consumer at some later moment).
 */
export const capturingBackground = () => ({ sent: captureSends<BackgroundMessage>(env.BACKGROUND), queue: env.BACKGROUND });

/** Calls the Worker's fetch handler with the test env and the capturing background queue. */
export async function callCapturing(background: Queue, method: string, path: string, options: { token?: string; body?: unknown } = {}) {
  const { status, body } = await callWith({ BACKGROUND: background }, method, path, { ...options, headers: { "Content-Type": "application/json" } });
  return { status, body };
}

let nextMessage = 0;

/** Runs the Worker's queue handler on these background messages, as the queue would deliver them. */
export async function consume(bodies: BackgroundMessage[], ids = bodies.map(() => `msg-${++nextMessage}`)) {
  const batch = createMessageBatch<BackgroundMessage>(
    "gamification-background",
    bodies.map((body, i) => ({ id: ids[i], timestamp: new Date(), attempts: 1, body })),
  );
  await worker.queue(batch, env);
  return { ids, result: await getQueueResult(batch, createExecutionContext()) };
}
