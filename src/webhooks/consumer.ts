/** Delivers queued webhook calls and logs dead-lettered ones. Filled in by the webhooks area. */
export async function consumeWebhooks(batch: MessageBatch<unknown>, _env: Env): Promise<void> {
  batch.ackAll();
}
