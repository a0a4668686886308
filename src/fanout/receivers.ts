import type { Change } from "../changes/types";
import { deliveryTargets, type EndpointRef } from "../webhooks/channel";

/**
 * Whether anybody receives a change: a webhook endpoint of the app for its type (or the per-level
 * URL that such an endpoint signs), or an MQTT subscriber of the user (`watched`: some topic of
 * the user has one; the publish then picks the topics). A change nobody receives is not staged, so
 * for an app without webhooks whose players are not connected an event's outbox row holds only
 * its background messages.
 */
export function hasReceiver(
  change: Pick<Change, "webhookType" | "topic" | "webhookUrl">,
  endpoints: EndpointRef[],
  watched: boolean,
): boolean {
  if (watched && change.topic !== null) return true;
  return deliveryTargets(endpoints, change.webhookType, change.webhookUrl).length > 0;
}
