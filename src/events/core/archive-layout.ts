import type { EventRecord } from "./event-record";

/**
 * Where and how accepted events are archived (R2). One folder per app and UTC hour, in the Hive
 * style that DuckDB, Spark and warehouses read as partition columns:
 *
 *   events/app=<app id>/date=YYYY-MM-DD/hour=HH/<batch id>.ndjson.gz
 *
 * so that one app and one hour can be read alone, and keys sort by time within an app. The batch
 * id is derived from the ids of the queue messages in the object (see writer.ts): a replayed
 * batch writes the same key again, never a second copy.
 */
export const HOUR_MS = 3_600_000;
export const ARCHIVE_ROOT = "events/";
export const ARCHIVE_SUFFIX = ".ndjson.gz";
/** Version of the line format below, kept in each object's metadata (2: `user_ref` instead of `user_id`). */
export const ARCHIVE_FORMAT = "2";

export const hourStart = (ms: number) => Math.floor(ms / HOUR_MS) * HOUR_MS;
export const hourEnd = (ms: number) => Math.ceil(ms / HOUR_MS) * HOUR_MS;

/** The folder of every archived event of an app. */
export const appFolder = (appId: string) => `${ARCHIVE_ROOT}app=${appId}/`;

/** An hour's folder relative to its app's folder: `date=YYYY-MM-DD/hour=HH/`. */
export function hourFolder(hour: number): string {
  const iso = new Date(hour).toISOString();
  return `date=${iso.slice(0, 10)}/hour=${iso.slice(11, 13)}/`;
}

/** The folder of one app and one UTC hour. */
export const partitionFolder = (appId: string, receivedAt: number) =>
  `${appFolder(appId)}${hourFolder(hourStart(receivedAt))}`;

const KEY = /^events\/app=(\d+)\/(date=(\d{4}-\d{2}-\d{2})\/hour=(\d{2})\/[0-9a-f]{32}\.ndjson\.gz)$/;

export interface ArchiveKey {
  appId: string;
  /** Start (ms) of the UTC hour of the object's events. */
  hour: number;
  /** The key relative to the app's folder: `date=.../hour=.../<batch id>.ndjson.gz`. */
  path: string;
}

/** The parts of an archive object's key; null for a key this layout does not produce. */
export function parseArchiveKey(key: string): ArchiveKey | null {
  const match = KEY.exec(key);
  if (!match) return null;
  const hour = Date.parse(`${match[3]}T${match[4]}:00:00Z`);
  if (Number.isNaN(hour) || hourFolder(hour) !== `date=${match[3]}/hour=${match[4]}/`) return null;
  return { appId: match[1], hour, path: match[2] };
}

/**
 * One line of an archive object: the event as the API received it, in the API's field names, with
 * `id` (unique per accepted event; a reader can drop repeats by it) and `received_at` as an ISO
 * date-time that readers parse as a timestamp. The player is named by `user_ref`, a pseudonym kept
 * in their object (src/events/archive-identity.ts), never by their user id: erasing the player
 * deletes the pseudonym, which leaves their archived lines linked to no one.
 */
export function archiveLine({ id, event, userRef }: EventRecord): string {
  return JSON.stringify({
    id,
    app_id: event.appId,
    user_ref: userRef,
    team_id: event.teamId,
    event_name: event.eventName,
    event_type: event.eventType,
    session_id: event.sessionId,
    event_id: event.eventId,
    meta_data: event.metaData,
    received_at: new Date(event.receivedAt).toISOString(),
  });
}

/** Records grouped by the folder (app and hour) they are archived in, in their order. */
export function byPartition(records: EventRecord[]): Map<string, EventRecord[]> {
  const groups = new Map<string, EventRecord[]>();
  for (const record of records) {
    const folder = partitionFolder(record.event.appId, record.event.receivedAt);
    const group = groups.get(folder);
    if (group) group.push(record);
    else groups.set(folder, [record]);
  }
  return groups;
}
