import type { AppRow } from "../../apps/repo";
import { toIso } from "../../shared/clock";
import { invalid, conflict } from "../../shared/domain-errors";
import { sendAll } from "../../shared/chunks";
import { webhookUrlProblem } from "../../rules/webhook-url";
import { newWebhookSecret, secretProblem } from "../core/signing";
import { canonicalWebhookType, type AcceptedWebhookType } from "../core/webhook-types";
import { insertQueuedDelivery, messageOf, reopenDelivery, restoreDelivery, type DeliveryRow } from "../deliveries-repo";
import { endpointForDelivery, type EndpointInput, type EndpointRow } from "../endpoints-repo";
import { newMessageId } from "../messages";

/** What the webhooks admin API does beyond storing rows; its handlers and the console call these. */

/** Validates and normalises an endpoint: canonical type, allowed URL, usable secret (generated when absent). */
export function endpointInput(
  env: Pick<Env, "ALLOW_LOOPBACK_WEBHOOKS">,
  input: { key?: string; webhook_type: AcceptedWebhookType; url: string; secret_key?: string },
): EndpointInput {
  const urlProblem = webhookUrlProblem(input.url, env.ALLOW_LOOPBACK_WEBHOOKS === "on");
  if (urlProblem) throw invalid(`Invalid body: url: ${urlProblem}`, [{ field: "url", problem: urlProblem }]);
  const secret = input.secret_key ?? newWebhookSecret();
  const problem = secretProblem(secret);
  if (problem) throw invalid(`Invalid body: secret_key: ${problem}`, [{ field: "secret_key", problem }]);
  return { key: input.key, webhook_type: canonicalWebhookType(input.webhook_type), url: input.url, secret_key: secret };
}

const TEST_MESSAGE = "Test call from the gamification service: not a real change. Answer 2xx when the secret matches.";

/** Queues a test call to one endpoint, delivered, signed, retried and logged like any other; answers its delivery. */
export async function sendTestCall(env: Env, app: AppRow, endpoint: EndpointRow, now: number): Promise<DeliveryRow> {
  if (endpoint.disabled_at)
    throw conflict(`Webhook ${endpoint.webhook_id} is disabled; replace it (PUT) to enable it again`);
  const message = {
    messageId: newMessageId(),
    appId: String(app.app_id),
    webhookId: String(endpoint.webhook_id),
    webhookType: endpoint.webhook_type,
    overrideUrl: null,
    body: JSON.stringify({
      webhook_type: endpoint.webhook_type,
      test: true,
      message: TEST_MESSAGE,
      created_at: toIso(now),
    }),
    createdAt: now,
  };
  const row = await insertQueuedDelivery(env.DB, message, toIso(now));
  await sendAll(env.WEBHOOKS, [message]);
  return row;
}

/**
 * Sends a finished delivery again: the same body and webhook-id to the endpoint's current URL and
 * secret, with a fresh retry schedule. 409 while it is pending or when its endpoint is gone or disabled.
 */
export async function redeliver(env: Env, appId: number, row: DeliveryRow, now: number): Promise<DeliveryRow> {
  if (row.status === "pending") throw conflict(`Webhook delivery ${row.delivery_id} is still pending`);
  const endpoint =
    row.webhook_id === null ? null : await endpointForDelivery(env.DB, String(appId), String(row.webhook_id));
  if (!endpoint) throw conflict(`The endpoint of webhook delivery ${row.delivery_id} was deleted`);
  if (!endpoint.enabled && !row.override_url) {
    throw conflict(`Webhook ${endpoint.webhookId} is disabled; replace it (PUT) to enable it again`);
  }
  const reopened = await reopenDelivery(env.DB, row, toIso(now));
  if (!reopened) throw conflict(`Webhook delivery ${row.delivery_id} is still pending`);
  try {
    await sendAll(env.WEBHOOKS, [messageOf(row)]);
  } catch (err) {
    await restoreDelivery(env.DB, row);
    throw err;
  }
  return reopened;
}
