import { logBackgroundFailure } from "../shared/log";
import { erasedSinceSql, erasureSubject } from "./erasure-tombstones";

/**
 * The registry of the players an app has seen (migrations/0014_players.sql), written side. A
 * player enters it at their first event, their first access token or their stored user info; no
 * request waits for the write. A player's object reports them with an event's background message
 * (src/players/user-seen.ts), at most once an hour, and the consumer writes a batch's reports in
 * one D1 batch: the registry's last seen and event count trail the player by up to an hour. The
 * Worker writes the row of a token or user info after its answer. The read side is src/players/registry.ts.
 */

/** What a player's object reports with an event's background message, at most once an hour. */
export interface SeenReport {
  /** Service time (ms) of the player's first event the object knows of. */
  firstSeenAt: number;
  /** The player's applied events as their object counts them. */
  events: number;
}

interface Seen {
  appId: string;
  userId: string;
  firstSeenAt: number;
  lastSeenAt: number;
  events: number;
}

/**
 * Writes one report. Replays and reports out of order are harmless: first seen only moves back,
 * last seen and the event count only forward. A report of an activity before the player's erasure
 * belongs to the erased player: it writes nothing.
 */
function seenStatement(db: D1Database, seen: Seen, subject: string): D1PreparedStatement {
  return db
    .prepare(
      `INSERT INTO players (app_id, user_id, first_seen_at, last_seen_at, events)
       SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM apps WHERE app_id = ?1) AND NOT ${erasedSinceSql("?6", "?4")}
       ON CONFLICT (app_id, user_id) DO UPDATE SET
         first_seen_at = MIN(first_seen_at, excluded.first_seen_at),
         last_seen_at = MAX(last_seen_at, excluded.last_seen_at),
         events = MAX(events, excluded.events)`,
    )
    .bind(Number(seen.appId), seen.userId, seen.firstSeenAt, seen.lastSeenAt, seen.events, subject);
}

async function writeSeen(env: Pick<Env, "DB" | "TOPIC_SECRET">, seens: Seen[]): Promise<void> {
  if (seens.length === 0) return;
  const statements = await Promise.all(
    seens.map(async (seen) => seenStatement(env.DB, seen, await erasureSubject(env, seen.appId, seen.userId))),
  );
  await env.DB.batch(statements);
}

/** The events' background handler: the reports that ride on a batch of event messages, in one D1 batch. */
export async function recordPlayersSeen(
  messages: Message<{ event: { appId: string; userId: string; receivedAt: number }; seen?: SeenReport }>[],
  env: Env,
): Promise<void> {
  const seens = messages.flatMap(({ body: { event, seen } }) =>
    seen
      ? [
          {
            appId: event.appId,
            userId: event.userId,
            firstSeenAt: seen.firstSeenAt,
            lastSeenAt: event.receivedAt,
            events: seen.events,
          },
        ]
      : [],
  );
  await writeSeen(env, seens);
}

/** Erasure: the player leaves the registry (by key). */
export const erasePlayerStatement = (db: D1Database, appId: number, userId: string) =>
  db.prepare("DELETE FROM players WHERE app_id = ? AND user_id = ?").bind(appId, userId);

/**
 * The Worker saw a player (an access token minted, user info stored): the row is written after the
 * answer. A failed write is logged; the player's next activity makes up for it.
 */
export function reportPlayerSeen(
  env: Env,
  ctx: Pick<ExecutionContext, "waitUntil">,
  appId: string,
  userId: string,
  now: number,
): void {
  const seen: Seen = { appId, userId, firstSeenAt: now, lastSeenAt: now, events: 0 };
  ctx.waitUntil(
    writeSeen(env, [seen]).catch((err: unknown) => {
      logBackgroundFailure("queue", "recording a player seen failed; their next activity records them", err, {
        app_id: appId,
      });
    }),
  );
}
