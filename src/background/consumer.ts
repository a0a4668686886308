import type { BackgroundMessage } from "./messages";

/**
 * Applies a batch of background work. Each area handles its kinds in one D1 batch; a failure
 * retries the whole queue batch, so every handler must be idempotent or tolerate a replay.
 */
export async function consumeBackground(batch: MessageBatch<BackgroundMessage>, _env: Env): Promise<void> {
  batch.ackAll();
}
