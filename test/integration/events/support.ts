import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import worker from "../../../src/index";
import type { BackgroundMessage } from "../../../src/user/messages";
import { captureSends } from "../helpers";

/**
 * The background queue, keeping what the user's object hands on, so a test sees exactly which
 * events went to analytics (the real queue would deliver them to the consumer at some later moment).
 */
export const capturingBackground = () => ({ sent: captureSends<BackgroundMessage>(env.BACKGROUND), queue: env.BACKGROUND });

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
