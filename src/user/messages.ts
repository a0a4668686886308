import type { SeenReport } from "../apps/player-registry";
import type { UserEvent } from "./event";

/** A state of a configuration object that running play depends on, held by some of the app's users. */
export type HeldState = "unlocked" | "in-progress" | "unclaimed";

/** Users entering (+) or leaving (-) a held state of one challenge or battle pass. */
export interface HolderDelta {
  object: "challenge" | "battle-pass";
  id: string;
  state: HeldState;
  delta: number;
}

/**
 * A player's first event of a UTC day, as their object reports it with that event's background
 * message (src/players/user-seen.ts): the day (YYYY-MM-DD), and the player's first active day, or
 * null when the object does not know it (a player from before these reports).
 */
export interface ActiveDay {
  day: string;
  firstDay: string | null;
}

/** Work written to D1 off the hot path, batched by the background queue. */
export type BackgroundMessage =
  | {
      kind: "event";
      event: UserEvent;
      /**
       * How the archive names the player (src/events/archive-identity.ts); absent in messages queued before the archive
       * used pseudonyms.
       */
      userRef?: string;
      /**
       * Leaderboards whose max_events_per_minute this event went past for its player, as the
       * player's object counted them (exactly, in order): the event is flagged there for review
       * instead of applied.
       */
      paceExceeded?: string[];
      /** The player's report to the registry of the app's players, at most once an hour (src/players/user-seen.ts). */
      seen?: SeenReport;
      /** Set at the player's first event of a UTC day: what the players per day and retention count. */
      activeDay?: ActiveDay;
    }
  | { kind: "usage"; appId: string; metric: "unlocked_challenges" | "events"; month: string; count: number }
  /** Staged with the state change it counts (src/catalog/holders-repo.ts keeps the totals). */
  | { kind: "holders"; appId: string; deltas: HolderDelta[] }
  /** Points a player earned in a system (src/points): leaderboards that rank the system add them. */
  | { kind: "points-earned"; appId: string; userId: string; system: string; amount: number; at: number }
  /** Players entering (+1) or leaving (-1) the holders of achievements (src/achievements), staged with the change. */
  | { kind: "achievement-holders"; appId: string; deltas: { id: string; delta: number }[] }
  /**
   * A player's score in a league's season moved, or they joined it (src/leagues): the consumer
   * places a new player in a cohort and writes the scores of a batch at once. `season` is the
   * season's start, `reachedAt` when the score was reached, `joinedAt` the first qualifying event.
   */
  | {
      kind: "league-score";
      appId: string;
      leagueId: string;
      userId: string;
      season: number;
      endsAt: number;
      score: number;
      reachedAt: number;
      joinedAt: number;
    };

export type BackgroundKind = BackgroundMessage["kind"];

/**
 * A background message as a user's object queues it (src/wiring/outbox.ts): with the id it was
 * staged with, which it keeps when the object hands it on again, and `resent` then (it may have
 * been handed on before). Messages queued before messages kept their staging id have neither, and
 * are keyed by their queue message id.
 */
export type QueuedBackground = BackgroundMessage & { outboxId?: string; resent?: true };

/** The queue messages of one kind, as a consumer handler receives them. */
export type BackgroundMessagesOf<K extends BackgroundKind> = Message<Extract<BackgroundMessage, { kind: K }>>[];
