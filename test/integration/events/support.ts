import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { expect } from "vitest";
import worker from "../../../src/index";
import type { BackgroundMessage } from "../../../src/user/messages";
import { callWith, captureSends } from "../helpers";

/**
 * The background queue, keeping what the user's object hands on, so a test sees exactly which
 * events went to analytics (the real queue would deliver them to the consumer at some later moment).
 */
export const capturingBackground = () => ({
  sent: captureSends<BackgroundMessage>(env.BACKGROUND),
  queue: env.BACKGROUND,
});

/** Calls the Worker's fetch handler with the test env and the capturing background queue. */
export async function callCapturing(
  background: Queue,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
) {
  const { status, body } = await callWith({ BACKGROUND: background }, method, path, {
    ...options,
    headers: { "Content-Type": "application/json" },
  });
  return { status, body };
}

let nextMessage = 0;

/**
 * Runs the Worker's queue handler on these background messages, as the queue would deliver them:
 * new messages, or with `ids` given, a redelivery of earlier ones (a second attempt).
 */
export async function consume(bodies: BackgroundMessage[], ids?: string[]) {
  const attempts = ids ? 2 : 1;
  ids ??= bodies.map(() => `msg-${++nextMessage}`);
  const batch = createMessageBatch<BackgroundMessage>(
    "gamification-background",
    bodies.map((body, i) => ({ id: ids[i], timestamp: new Date(), attempts, body })),
  );
  await worker.queue(batch, env);
  return { ids, result: await getQueueResult(batch, createExecutionContext()) };
}

/** An archive object's events, decompressed and parsed (one JSON object per line). */
export async function archivedLines(key: string): Promise<Record<string, unknown>[]> {
  const object = await env.EVENTS_ARCHIVE.get(key);
  if (!object) throw new Error(`no archive object ${key}`);
  const text = await new Response(object.body.pipeThrough(new DecompressionStream("gzip"))).text();
  expect(text.endsWith("\n")).toBe(true);
  return text
    .trimEnd()
    .split("\n")
    .map((line) => JSON.parse(line));
}

/** Every archive object of an app: its key, its event count (metadata) and its events. */
export async function archiveOf(appId: string) {
  const listed = await env.EVENTS_ARCHIVE.list({ prefix: `events/app=${appId}/`, include: ["customMetadata"] });
  return Promise.all(
    listed.objects.map(async (o) => ({
      key: o.key,
      events: o.customMetadata?.events,
      lines: await archivedLines(o.key),
    })),
  );
}
