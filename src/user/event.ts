import type { MetaValue } from "../rules/counter";

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
  /**
   * Which credential sent it: the studio's backend (an API key) or a game client (an access
   * token). Authoritative leaderboards count only the backend's events; challenges and passes
   * count both.
   */
  credential: "api_key" | "access_token";
}

export type ApplyEventResult =
  /**
   * Applied; or, with `duplicate`, an event with the same event_id was already applied and nothing was applied again.
   */
  | { duplicate: boolean; limited?: undefined }
  /** Refused: the player is past its events a minute; one more fits after `retryAfterMs`. Nothing was applied. */
  | { limited: { retryAfterMs: number }; duplicate?: undefined };
