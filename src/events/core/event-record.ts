import type { UserEvent } from "../../user/event";

/**
 * An accepted event as the background queue delivered it; `id` is the queue message's id, stable across redeliveries.
 */
export interface EventRecord {
  id: string;
  event: UserEvent;
  /**
   * How the archive names the player (src/events/archive-identity.ts); null for a message queued before the archive
   * used pseudonyms.
   */
  userRef: string | null;
}
