import type { AppSettingsColumns } from "../apps/settings";
import type { CatalogSnapshot } from "../kit/catalog";
import { CATALOG_SECTIONS } from "../registry/areas";
import { notFound } from "../shared/domain-errors";
import { holderReads, holdersOf } from "./holders-repo";

/**
 * The app's whole configuration and its holder counts, in one D1 batch (one consistent read): the
 * app's settings, then each section's reads (src/kit/catalog.ts), each into its field of the snapshot.
 */
export async function readSnapshot(db: D1Database, appId: number): Promise<CatalogSnapshot> {
  const fields = CATALOG_SECTIONS.flatMap((section) => Object.entries(section.reads(db, appId)));
  const results = await db.batch<unknown>([
    db
      .prepare(
        "SELECT catalog_version, backend_only_events, rate_limit_per_user_per_minute, rate_limit_per_app_per_minute FROM apps WHERE app_id = ?",
      )
      .bind(appId),
    ...fields.map(([, statement]) => statement),
    ...holderReads(db, appId),
  ]);
  const [app, ...rest] = results.map((r) => r.results);
  // Deleted since the caller found it.
  if (app.length === 0) throw notFound(`App ${appId} not found`);
  const { catalog_version, ...settings } = app[0] as AppSettingsColumns & { catalog_version: number };
  const [heldChallenges, heldPasses] = rest.slice(fields.length);
  return {
    appId,
    version: catalog_version,
    settings,
    ...Object.fromEntries(fields.map(([field], i) => [field, rest[i]])),
    holders: holdersOf(heldChallenges, heldPasses),
  };
}
