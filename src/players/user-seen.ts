import type { Staged, UserArea, UserObjectContext } from "../user/area";
import type { UserEvent } from "../user/event";
import type { AreaTables } from "../shared/object-tables";
import { dayOf } from "../events/channel";

/** How often at most a player's object reports them to the registry. */
export const SEEN_REPORT_INTERVAL_MS = 3_600_000;

/**
 * The player's part of the registry of an app's players (src/apps/player-registry.ts), kept by
 * their object: when it first saw them, how many events it applied, and when it last reported. The
 * report rides on an event's background message (src/wiring/user-do.ts), so it adds no queue
 * message: at the player's first event, then at most once an hour, so that the registry costs one
 * D1 row write per player and hour at most.
 * A player from before the registry is reported at their next event.
 *
 * It also keeps the player's first and last active UTC day, and at the first event of each day
 * reports the day on that event's background message: the consumer counts players per day, new
 * players and retention from it (migrations/0015_player_days.sql), never from raw events. A
 * player whose object was made before the days were kept has no first day: they count as active
 * from their next event, never as new.
 */
export const seenTables: AreaTables = {
  area: "seen",
  migrations: [
    "CREATE TABLE player_seen (id INTEGER PRIMARY KEY CHECK (id = 1), first_seen_at INTEGER NOT NULL, events INTEGER NOT NULL, reported_at INTEGER)",
    "ALTER TABLE player_seen ADD COLUMN first_day TEXT; ALTER TABLE player_seen ADD COLUMN last_day TEXT",
  ],
  created:
    "CREATE TABLE player_seen (id INTEGER PRIMARY KEY CHECK (id = 1), first_seen_at INTEGER NOT NULL, events INTEGER NOT NULL, reported_at INTEGER, first_day TEXT, last_day TEXT)",
};

type SeenRow = {
  first_seen_at: number;
  events: number;
  reported_at: number | null;
  first_day: string | null;
  last_day: string | null;
};

export class UserSeen implements UserArea<void> {
  static readonly tables = seenTables;

  constructor(private readonly context: UserObjectContext) {}

  async prepareEvent(): Promise<void> {}

  /**
   * Inside the event's transaction: one more event, the report to the registry when the last is
   * an hour old, and the active day at the player's first event of a UTC day.
   */
  applyEvent(_prepared: undefined, event: UserEvent, staged: Staged): void {
    const sql = this.context.sql;
    const row = sql
      .exec<SeenRow>("SELECT first_seen_at, events, reported_at, first_day, last_day FROM player_seen")
      .toArray()[0];
    const at = event.receivedAt;
    const day = dayOf(at);
    const seen = { first_seen_at: Math.min(row?.first_seen_at ?? at, at), events: (row?.events ?? 0) + 1 };
    const due = row?.reported_at == null || at - row.reported_at >= SEEN_REPORT_INTERVAL_MS;
    // A new player's first day is today; an object from before the days were kept does not know it.
    const firstDay = row ? row.first_day : day;
    // Days only move forward: an event of an earlier day (the development clock moved back) is not a new day.
    const newDay = row?.last_day == null || day > row.last_day;
    sql.exec(
      `INSERT INTO player_seen (id, first_seen_at, events, reported_at, first_day, last_day) VALUES (1, ?1, ?2, ?3, ?4, ?5)
       ON CONFLICT (id) DO UPDATE SET first_seen_at = ?1, events = ?2, reported_at = ?3, first_day = ?4, last_day = ?5`,
      seen.first_seen_at,
      seen.events,
      due ? at : (row?.reported_at ?? null),
      firstDay,
      newDay ? day : (row?.last_day ?? day),
    );
    if (newDay) staged.activeDay = { day, firstDay };
    if (due) staged.seen = { firstSeenAt: seen.first_seen_at, events: seen.events };
  }
}
