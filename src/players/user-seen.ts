import type { Staged, UserArea, UserObjectContext } from "../user/area";
import type { UserEvent } from "../user/event";
import type { AreaSchema } from "../user/schema";

/** How often at most a player's object reports them to the registry. */
export const SEEN_REPORT_INTERVAL_MS = 3_600_000;

/**
 * The player's part of the registry of an app's players (src/apps/player-registry.ts), kept by
 * their object: when it first saw them, how many events it applied, and when it last reported. The
 * report rides on an event's background message (src/wiring/user-do.ts), so it adds no queue
 * message: at the player's first event, then at most once an hour, so that the registry costs one
 * D1 row write per player and hour at most.
 * A player from before the registry is reported at their next event.
 */
export const seenSchema: AreaSchema = {
  area: "seen",
  migrations: [
    "CREATE TABLE player_seen (id INTEGER PRIMARY KEY CHECK (id = 1), first_seen_at INTEGER NOT NULL, events INTEGER NOT NULL, reported_at INTEGER)",
  ],
};

type SeenRow = {
  first_seen_at: number;
  events: number;
  reported_at: number | null;
};

export class UserSeen implements UserArea<void> {
  static readonly schema = seenSchema;

  constructor(private readonly context: UserObjectContext) {}

  async prepareEvent(): Promise<void> {}

  /** Inside the event's transaction: one more event, and the report when the last is an hour old. */
  applyEvent(_prepared: undefined, event: UserEvent, staged: Staged): void {
    const sql = this.context.sql;
    const row = sql.exec<SeenRow>("SELECT first_seen_at, events, reported_at FROM player_seen").toArray()[0];
    const at = event.receivedAt;
    const seen = { first_seen_at: Math.min(row?.first_seen_at ?? at, at), events: (row?.events ?? 0) + 1 };
    const due = row?.reported_at == null || at - row.reported_at >= SEEN_REPORT_INTERVAL_MS;
    sql.exec(
      `INSERT INTO player_seen (id, first_seen_at, events, reported_at) VALUES (1, ?1, ?2, ?3)
       ON CONFLICT (id) DO UPDATE SET first_seen_at = ?1, events = ?2, reported_at = ?3`,
      seen.first_seen_at,
      seen.events,
      due ? at : (row?.reported_at ?? null),
    );
    if (!due) return;
    staged.seen = { firstSeenAt: seen.first_seen_at, events: seen.events };
  }
}
