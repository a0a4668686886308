import type { Change } from "../changes/types";
import { publishChanges } from "../realtime/channel";
import { enqueueWebhooks } from "../webhooks/channel";

/** Pushes changes over MQTT; never throws. */
export type Publisher = (env: Env, changes: Change[]) => Promise<void>;

/**
 * The change hook: every area hands what it changed here. Webhooks are queued durably before this
 * resolves; realtime pushes are best effort (MQTT QoS 0 semantics for a client that is offline).
 * A user's object publishes through its own watchers (src/realtime/watchers.ts), after the flush
 * that its response waits for (src/wiring/user-do.ts).
 */
export async function dispatchChanges(env: Env, changes: Change[], publish: Publisher = publishChanges): Promise<void> {
  if (changes.length === 0) return;
  await Promise.all([enqueueWebhooks(env, changes), publish(env, changes)]);
}
