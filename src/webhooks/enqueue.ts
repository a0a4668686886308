import type { Change } from "../changes/types";
import { getNow } from "../shared/clock";
import { sendAll } from "../shared/chunks";
import { deliveryTargets } from "./core/targets";
import { appEndpoints } from "./endpoints-repo";
import { type DeliveryMessage, newMessageId } from "./messages";

/**
 * Queues one message per (change, endpoint) before resolving, so that nothing is lost between a
 * change and its delivery: the queue is durable and the consumer logs every attempt.
 * Endpoints come from the catalog cache; a change whose app has no endpoint for its type costs
 * nothing. A per-level reward URL (change.webhookUrl) replaces the app's endpoints of the type and
 * is signed with the secret of the app's first endpoint of that type (see core/targets.ts).
 */
export async function enqueueWebhooks(env: Env, changes: Change[]): Promise<void> {
  const appIds = [...new Set(changes.map((c) => c.appId))];
  const endpointsByApp = new Map(
    await Promise.all(appIds.map(async (appId) => [appId, await appEndpoints(env.DB, appId)] as const)),
  );

  const planned = changes.flatMap((change) =>
    deliveryTargets(endpointsByApp.get(change.appId)!, change.webhookType, change.webhookUrl).map((target) => ({
      change,
      target,
    })),
  );
  if (planned.length === 0) return;

  const createdAt = await getNow(env);
  const bodies = new Map<Change, string>();
  const messages: DeliveryMessage[] = planned.map(({ change, target }) => {
    if (!bodies.has(change)) bodies.set(change, JSON.stringify(change.payload));
    return {
      messageId: newMessageId(),
      appId: change.appId,
      webhookId: target.webhookId,
      webhookType: change.webhookType,
      overrideUrl: target.overrideUrl,
      body: bodies.get(change)!,
      createdAt,
      userId: change.userId,
    };
  });
  await sendAll(env.WEBHOOKS, messages);
}
