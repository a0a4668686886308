// The demo that `npm start` seeds, shared with the test that runs the README's tour against a
// server seeded the same way: the demo app, its key and the demo game's catalog.
import path from "node:path";
import { catalogCall, readCatalogFile } from "./catalog-client.mjs";
import { projectRoot } from "./wrangler.mjs";

/** The demo game's catalog, relative to the project root (as the banner prints it). */
export const DEMO_CATALOG = path.join("scripts", "demo", "catalog.yaml");
/** The admin API's input for the demo app and its API key. */
export const DEMO_APP = { name: "Demo app", default_language: "en" };
export const DEMO_KEY = { name: "demo" };
export const DEMO_CONSOLE_EMAIL = "demo@open-gamification.local";

/**
 * Applies the demo game's challenges, battle pass and leaderboards to an app, so a new user's
 * first list request shows something. Applying it again changes nothing; edits to the file are
 * applied at the next start. Answers a short outcome for the banner.
 * @param {{url: string, adminToken: string, appId: string}} options
 * @returns {Promise<string>}
 */
export async function applyDemoCatalog({ url, adminToken, appId }) {
  try {
    const doc = readCatalogFile(path.join(projectRoot, DEMO_CATALOG));
    const { summary } = await catalogCall({ url, token: adminToken, appId, method: "PUT", body: doc });
    return summary.create + summary.update === 0 ? "unchanged" : `${summary.create} created, ${summary.update} updated`;
  } catch (err) {
    return `not applied: ${err.message}`;
  }
}
