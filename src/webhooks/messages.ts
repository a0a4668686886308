import { WEBHOOK_TYPES, type WebhookType } from "../changes/types";

/** One call to make: what the webhooks queue carries, unchanged across retries and redeliveries. */
export interface DeliveryMessage {
  /** The Standard Webhooks `webhook-id`, chosen once per (change, endpoint). */
  messageId: string;
  appId: string;
  /** The endpoint; for a per-level reward URL, the endpoint whose secret signs the call. */
  webhookId: string;
  webhookType: WebhookType;
  /** A per-level reward URL called instead of the endpoint's URL. */
  overrideUrl: string | null;
  /** The JSON body, serialised once so every attempt sends (and signs) the same bytes. */
  body: string;
  /** When the change happened (service clock, ms). */
  createdAt: number;
  /**
   * The player the body names (Change.userId), so that erasure finds the delivery; absent in messages queued before
   * deliveries named their player.
   */
  userId?: string | null;
}

export const newMessageId = () => `msg_${crypto.randomUUID().replaceAll("-", "")}`;

const isDigits = (value: unknown) => typeof value === "string" && /^\d{1,15}$/.test(value);

/** Guards the consumer against foreign or outdated message shapes. */
export function isDeliveryMessage(value: unknown): value is DeliveryMessage {
  if (typeof value !== "object" || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m.messageId === "string" &&
    isDigits(m.appId) &&
    isDigits(m.webhookId) &&
    (WEBHOOK_TYPES as readonly unknown[]).includes(m.webhookType) &&
    (m.overrideUrl === null || typeof m.overrideUrl === "string") &&
    typeof m.body === "string" &&
    typeof m.createdAt === "number" &&
    (m.userId === undefined || m.userId === null || typeof m.userId === "string")
  );
}
