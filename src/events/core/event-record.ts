import type { UserEvent } from "../../user/event";

/** An accepted event as the background queue delivered it; `id` is the queue message's id, stable across redeliveries. */
export interface EventRecord {
  id: string;
  event: UserEvent;
}
