/**
 * The webhooks channel as the rest of the service reaches it: endpoints, the delivery queue and its
 * consumer, the delivery log, the admin routes. Code outside src/webhooks imports from this file
 * only (scripts/check-layers.mjs checks it).
 */
export { endpointInput, redeliver, sendTestCall } from "./admin/actions";
export { webhooksAdmin } from "./admin/routes";
export { Delivery, WebhookInput } from "./admin/schemas";
export { consumeWebhooks } from "./consumer";
export { deliveryTargets, type EndpointRef } from "./core/targets";
export { ACCEPTED_WEBHOOK_TYPES, canonicalWebhookType } from "./core/webhook-types";
export {
  DELIVERY_STATUSES,
  attemptsOf,
  eraseDeliveriesStatements,
  listDeliveries,
  presentDelivery,
  pruneDeliveryLog,
  requireDelivery,
  type DeliveryStatus,
} from "./deliveries-repo";
export {
  appEndpoints,
  deleteEndpoint,
  insertEndpoint,
  listEndpoints,
  replaceEndpoint,
  requireEndpoint,
  type EndpointRow,
} from "./endpoints-repo";
export { enqueueWebhooks } from "./enqueue";
export { deliveryHealth } from "./health";
export { webhooksPlugin } from "./plugin";
