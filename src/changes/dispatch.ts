import type { Change } from "./types";
import { publishChanges } from "../realtime/publish";
import { enqueueWebhooks } from "../webhooks/enqueue";

/**
 * The change hook: every area hands what it changed here. Webhooks are queued durably before this
 * resolves; realtime pushes are best effort (MQTT QoS 0 semantics for a client that is offline).
 */
export async function dispatchChanges(env: Env, changes: Change[]): Promise<void> {
  if (changes.length === 0) return;
  await Promise.all([enqueueWebhooks(env, changes), publishChanges(env, changes)]);
}
