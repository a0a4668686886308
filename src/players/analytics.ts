import { invalid } from "../shared/domain-errors";
import { eventNameCounts, eventsByHour, playerDataStart, readPlayerDays, readRetentionCells } from "../events/channel";
import { countedEventNames } from "./counted-event-names";
import {
  addDays,
  playerDayRange,
  playersPerDay,
  retentionTable,
  utcDay,
  type PlayersDay,
  type RetentionRow,
} from "./core/player-analytics";
import { similarNames } from "./core/similar-names";

/**
 * Who plays, as the admin API and the console's dashboard show it: players per UTC day, the
 * retention table, events by hour, and the event names that no configuration counts. Everything
 * is read from bounded aggregates (players per day, retention cells, event counts per hour).
 */

/** The events by hour cover this many hours, up to the current one. */
export const EVENT_HOURS = 48;

/** The days [from, to] of a query, or a 400 naming what is wrong. */
export function requireDayRange(from: string | undefined, to: string | undefined, now: number) {
  const range = playerDayRange(from, to, utcDay(now));
  if (!range.ok) {
    throw invalid(`Invalid query: ${range.errors.map((e) => `${e.field} ${e.problem}`).join("; ")}`, range.errors);
  }
  return range;
}

export interface PlayersReport {
  from: string;
  to: string;
  /** The app's first day with players counted, or null before any: earlier days have no counts. */
  data_starts: string | null;
  days: PlayersDay[];
  retention: RetentionRow[];
  events_by_hour: { hour: string; count: number }[];
}

export async function playersReport(db: D1Database, appId: number, from: string, to: string, now: number) {
  const [rows, cells, dataStarts, hours] = await Promise.all([
    readPlayerDays(db, appId, from, to),
    readRetentionCells(db, appId, from, to),
    playerDataStart(db, appId),
    eventsByHour(db, appId, now, EVENT_HOURS),
  ]);
  const days = playersPerDay(from, to, rows);
  return {
    from,
    to,
    data_starts: dataStarts,
    days,
    retention: retentionTable(days, cells, utcDay(now)),
    events_by_hour: hours.map((h) => ({ hour: new Date(h.hour).toISOString(), count: h.count })),
  } satisfies PlayersReport;
}

export interface UnusedEvent {
  event_name: string;
  count: number;
  /** Counted names within two edits: what was probably meant. */
  similar: string[];
}

/** The event names received in the days [from, to] that no configuration counts, most sent first. */
export async function unusedEvents(db: D1Database, appId: number, from: string, to: string) {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${addDays(to, 1)}T00:00:00Z`);
  const [received, counted] = await Promise.all([eventNameCounts(db, appId, start, end), countedEventNames(db, appId)]);
  const countedSet = new Set(counted.names);
  const items: UnusedEvent[] = counted.everyEvent
    ? []
    : received
        .filter((e) => !countedSet.has(e.event_name))
        .map((e) => ({ ...e, similar: similarNames(e.event_name, counted.names) }));
  return { from, to, counted_event_names: counted.names, every_event_counts: counted.everyEvent, items };
}
