export type MetaValue = number | string;

/** A validated event, as the intake hands it to the user's Durable Object. */
export interface UserEvent {
  appId: string;
  userId: string;
  teamId: string | null;
  eventName: string;
  eventType: "single" | "group";
  sessionId: string;
  /** Only the keys defined for the event (predefined events) or all keys (custom events). */
  metaData: Record<string, MetaValue>;
  /** Makes the event idempotent when set. */
  eventId: string | null;
  /** Service clock (ms) when the event was received. */
  receivedAt: number;
}

export interface ApplyEventResult {
  /** True when an event with the same event_id was already applied; nothing was applied again. */
  duplicate: boolean;
}

/** An accepted event as the background queue delivered it; `id` is the queue message's id, stable across redeliveries. */
export interface EventRecord {
  id: string;
  event: UserEvent;
}
