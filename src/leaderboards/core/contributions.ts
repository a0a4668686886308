import { eventAmount, matchesEvent } from "../../rules/counter";
import type { UserEvent } from "../../user/event";
import type { Aggregation, LeaderboardDef, MemberType } from "../catalog";
import { clampScore } from "./rank-key";
import { seasonAt } from "./season";

/** An accepted event as the background queue delivered it. */
export interface QueuedEvent {
  /** The queue message id: stable across redeliveries of the same message. */
  messageId: string;
  event: UserEvent;
}

/** What one event brings to one member row of one board. Short keys: this travels as JSON into SQL. */
export interface Contribution {
  /** Dedup key of the event: a replayed event is not applied twice. */
  k: string;
  /** Board id. */
  b: number;
  /** Season (its start, ms) the event was received in. */
  s: number;
  t: MemberType;
  /** Member id. */
  i: string;
  /** Amount (an integer). */
  v: number;
  /** received_at (ms): orders `last`. */
  a: number;
  /** Position in the batch: orders `last` among events of the same millisecond. */
  q: number;
  g: Aggregation;
  /** 1 for ascending boards. */
  o: 0 | 1;
  /**
   * On a user's row: the player's erasure subject (src/apps/erasure-tombstones.ts), so that the
   * event of a player erased since it was received brings nothing back. Null on a team's row: a
   * team's score names no one and keeps what it has.
   */
  h: string | null;
}

/**
 * The event's identity for replay protection: its event_id when the sender gave one (a resend
 * of the same event through another message is then recognised too), else the queue message.
 */
export const dedupKey = ({ messageId, event }: QueuedEvent) =>
  event.eventId !== null ? eventClaimKey(event.appId, event.userId, event.eventId) : `m:${messageId}`;

/** The claim of an event sent with an event_id: what erasing its player deletes, from the ids their object kept. */
export const eventClaimKey = (appId: string | number, userId: string, eventId: string) => `e:${appId}:${userId}:${eventId}`;

/**
 * Every (board, member) row the events move: the user's row and, when the event names a team,
 * the team's row, on each board of the event's app whose event name and filters match. An event
 * counts in the season it was received in; an event received before the board's current series
 * of seasons began (before a reset) counts nowhere.
 */
export function contributionsOf(
  events: QueuedEvent[],
  boardsOf: (appId: string) => LeaderboardDef[],
  subjectOf: (event: UserEvent) => string,
): Contribution[] {
  const out: Contribution[] = [];
  const seen = new Set<string>();
  events.forEach((queued, q) => {
    const { event } = queued;
    const k = dedupKey(queued);
    // The same event twice in one batch (a resend through a second message) counts once.
    if (seen.has(k)) return;
    seen.add(k);
    for (const board of boardsOf(event.appId)) {
      if (!matchesEvent(board, event)) continue;
      const season = seasonAt(board, event.receivedAt);
      if (season === null) continue;
      const base = {
        k,
        b: Number(board.id),
        s: season,
        v: clampScore(eventAmount(board, event)!),
        a: event.receivedAt,
        q,
        g: board.aggregation,
        o: board.ascending ? (1 as const) : (0 as const),
      };
      out.push({ ...base, t: "user", i: event.userId, h: subjectOf(event) });
      if (event.teamId) out.push({ ...base, t: "team", i: event.teamId, h: null });
    }
  });
  return out;
}
