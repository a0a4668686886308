/**
 * The events channel as the rest of the service reaches it: intake (the player API, the admin API, the
 * archive), what the user object keeps of events and the background records.
 * Code outside src/events imports from this file only (scripts/check-layers.mjs checks it).
 */
export { eventFilesAdmin } from "./admin/archive-routes";
export { eventsAdmin } from "./admin/routes";
export { countEvents } from "./analytics-repo";
export { archiveUserRef, knownArchiveUserRef } from "./archive-identity";
export { recordEventAnalytics, recordUsageCounts } from "./background";
export { DEFAULT_RANGE_DAYS, countsPerDay, dayOf } from "./core/periods";
export { validateEvent } from "./core/validate";
export { eventsTables } from "./event-tables";
export { takeEvents } from "./intake";
export { eventIdsTables, recordProcessed, wasProcessed } from "./processed-events";
export { RATE_LIMIT_HEADERS } from "./rate-limits";
export { readRecentEvents, recordRecentEvent, type RecentEvent } from "./recent-events";
export {
  eventNameCounts,
  eventsByHour,
  playerDataStart,
  readPlayerDays,
  readRetentionCells,
} from "./player-days";
export { pruneEventData } from "./retention";
export { eventsRoutes } from "./routes";
export { listMonthUsage } from "./usage-repo";
export { UserEventRate, eventRateTables } from "./user-rate";
