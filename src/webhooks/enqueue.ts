import type { Change } from "../changes/types";

/** Queues changes for delivery to the app's webhook endpoints. Filled in by the webhooks area. */
export async function enqueueWebhooks(_env: Env, _changes: Change[]): Promise<void> {}
