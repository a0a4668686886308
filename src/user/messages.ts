import type { UserEvent } from "./event";

/** Work written to D1 off the hot path, batched by the background queue. */
export type BackgroundMessage =
  | {
      kind: "event";
      event: UserEvent;
      /**
       * Leaderboards whose max_events_per_minute this event went past for its player, as the
       * player's object counted them (exactly, in order): the event is flagged there for review
       * instead of applied.
       */
      paceExceeded?: string[];
    }
  | { kind: "usage"; appId: string; metric: "unlocked_challenges" | "events"; month: string; count: number };

export type BackgroundKind = BackgroundMessage["kind"];

/** The queue messages of one kind, as a consumer handler receives them. */
export type BackgroundMessagesOf<K extends BackgroundKind> = Message<Extract<BackgroundMessage, { kind: K }>>[];
