import { settingsColumns } from "../../apps/admin/repo";
import { backendOnlyEventsOf, type AppSettingsColumns } from "../../apps/settings";
import type { CatalogSnapshot } from "../../kit/catalog";
import { CATALOG_SECTIONS } from "../../registry/areas";
import { CATALOG_FORMAT_VERSION, type CatalogDocument, type CatalogSettings } from "../schemas";

/**
 * Rows to document objects (the export), and a document object to what its export would be once
 * applied (`canonical...`): written with the area's own column values, read back with the area's
 * own presenter. Plans compare those two, so every normalization an area makes (dates to UTC
 * milliseconds, derived reward names, an unscheduled board's reset time) is made once, by the area
 * (its catalog section, src/kit/catalog.ts).
 */

/** A rate limit the app never set is left out: it stays the service's default wherever the document goes. */
export function settingsDoc(row: AppSettingsColumns): CatalogSettings {
  const rateLimits: CatalogSettings["rate_limits"] = {};
  if (row.rate_limit_per_user_per_minute !== null) rateLimits.per_user_per_minute = row.rate_limit_per_user_per_minute;
  if (row.rate_limit_per_app_per_minute !== null) rateLimits.per_app_per_minute = row.rate_limit_per_app_per_minute;
  return { backend_only_events: backendOnlyEventsOf(row), rate_limits: rateLimits };
}

/** The app's configuration as a document, in the order players see it. */
export function exportDocument(s: CatalogSnapshot, now: number): CatalogDocument {
  return {
    version: CATALOG_FORMAT_VERSION,
    settings: settingsDoc(s.settings),
    ...Object.fromEntries(CATALOG_SECTIONS.map((section) => [section.key, section.export(s, now)])),
  };
}

export const canonicalSettings = (doc: CatalogSettings): CatalogSettings => settingsDoc(settingsColumns(doc));
