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
  /** Boards whose max_events_per_minute the event went past for its player (counted in the player's object). */
  paceExceeded?: string[];
}

/** Why a board held a submission back for review (the `reason` of the review queue). */
export const FLAG_REASONS = ["below_min_value", "above_max_value", "over_max_events_per_minute"] as const;
export type FlagReason = (typeof FLAG_REASONS)[number];

/** What one event brings to one member row of one board. Short keys: this travels as JSON into SQL. */
export interface Contribution {
  /** Dedup key of the event: a replayed event is not applied twice. */
  k: string;
  /** App id: a banned player's contribution goes to their hidden rows (rank-index.ts). */
  p: number;
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
  /** Held back for review instead of applied, and why. */
  h?: FlagReason;
  /** The event's name, on held contributions only (the review queue shows it). */
  n?: string;
  /**
   * On a user's row: the player's erasure subject (src/apps/erasure-tombstones.ts), so that the
   * event of a player erased since it was received brings nothing back. Null on a team's row (a
   * team's score names no one and keeps what it has) and on an accepted review flag.
   */
  e: string | null;
}

/**
 * The event's identity for replay protection: its event_id when the sender gave one (a resend
 * of the same event through another message is then recognised too), else the queue message. The
 * player is named by erasure subject, never by id: a claim kept for a day holds no user id, and
 * erasing the player deletes their claims as one range of keys (playerClaimPrefix).
 */
export const dedupKey = ({ messageId, event }: QueuedEvent, subject: string) =>
  event.eventId !== null ? `${playerClaimPrefix(event.appId, subject)}${event.eventId}` : `m:${messageId}`;

/** Every claim of one player's events starts with this (subjects have a fixed length: no prefix of another). */
export const playerClaimPrefix = (appId: string | number, subject: string) => `e:${appId}:${subject}:`;

/**
 * Whether a board takes the event at all: its event name and filters, and on an authoritative
 * board only events of the studio's backend (an API key), never a game client's.
 */
export const boardTakes = (board: LeaderboardDef, event: UserEvent) =>
  matchesEvent(board, event) && !(board.authoritative && event.credential === "access_token");

/** Why the board holds an event's value back for review, or null when it applies it. */
export function holdReason(board: LeaderboardDef, value: number, overPace: boolean): FlagReason | null {
  if (board.minValue !== null && value < board.minValue) return "below_min_value";
  if (board.maxValue !== null && value > board.maxValue) return "above_max_value";
  return overPace ? "over_max_events_per_minute" : null;
}

/**
 * Every (board, member) row the events move: the user's row and, when the event names a team,
 * the team's row, on each board of the event's app that takes the event (boardTakes). An event
 * counts in the season it was received in; an event received before the board's current series
 * of seasons began (before a reset) counts nowhere. A value outside the board's bounds, or past
 * its pace for the player, is held back for review (`h`).
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
    const subject = subjectOf(event);
    const k = dedupKey(queued, subject);
    // The same event twice in one batch (a resend through a second message) counts once.
    if (seen.has(k)) return;
    seen.add(k);
    for (const board of boardsOf(event.appId)) {
      if (!boardTakes(board, event)) continue;
      const season = seasonAt(board, event.receivedAt);
      if (season === null) continue;
      const value = eventAmount(board, event)!;
      const held = holdReason(board, value, queued.paceExceeded?.includes(board.id) ?? false);
      const base = {
        k,
        p: Number(event.appId),
        b: Number(board.id),
        s: season,
        v: clampScore(value),
        a: event.receivedAt,
        q,
        g: board.aggregation,
        o: board.ascending ? (1 as const) : (0 as const),
        ...(held === null ? {} : { h: held, n: event.eventName }),
      };
      out.push({ ...base, t: "user", i: event.userId, e: subject });
      if (event.teamId) out.push({ ...base, t: "team", i: event.teamId, e: null });
    }
  });
  return out;
}

/**
 * The contributions of a batch as the applying transaction reads them (APPLY_SQL's ?1 in
 * rank-index.ts): by event, so that what is the same on every board an event feeds (its claim,
 * its player's ban and erasure, its time) is written, parsed and checked once per event, not once
 * per board. `[[k, p, a, q, e, u, [[b, s, t, i, v, g, o], ...]], ...]`: the fields of
 * Contribution, with `u` the player's user id (the user row's `i`) and `e` the user row's erasure
 * subject.
 */
export function byEventJson(contributions: Contribution[]): string {
  const events = new Map<string, [string, number, number, number, string | null, string | null, unknown[][]]>();
  for (const c of contributions) {
    let event = events.get(c.k);
    if (!event) events.set(c.k, (event = [c.k, c.p, c.a, c.q, null, null, []]));
    if (c.t === "user") {
      event[4] = c.e;
      event[5] = c.i;
    }
    event[6].push([c.b, c.s, c.t, c.i, c.v, c.g, c.o]);
  }
  return JSON.stringify([...events.values()]);
}
