import type { UserEvent } from "../../user/event";
import type { ActiveDay } from "../../user/messages";

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
  /** Set at the player's first event of a UTC day (src/players/user-seen.ts): counted in the players per day. */
  activeDay?: ActiveDay | null;
}
