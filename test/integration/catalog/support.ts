import { env } from "cloudflare:test";
import { parse } from "yaml";
import demoYaml from "../../../scripts/demo/catalog.yaml?raw";
import { ADMIN, call } from "../helpers";

/** Helpers of the catalog-as-code tests: the catalog API and the demo game's document. */

const catalogPath = (appId: string) => `/api/v1/admin/apps/${appId}/catalog`;
const flags = (options: { prune?: boolean; force?: boolean }) => {
  const set = Object.entries(options)
    .filter(([, on]) => on)
    .map(([name]) => `${name}=true`);
  return set.length ? `?${set.join("&")}` : "";
};

export async function exportCatalog(appId: string) {
  const r = await call("GET", catalogPath(appId), { token: ADMIN });
  if (r.status !== 200) throw new Error(`export: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

export const planCatalog = (appId: string, doc: unknown, options: { prune?: boolean } = {}) =>
  call("POST", `${catalogPath(appId)}/plan${flags(options)}`, { token: ADMIN, body: doc });

export const applyCatalog = (appId: string, doc: unknown, options: { prune?: boolean; force?: boolean } = {}) =>
  call("PUT", `${catalogPath(appId)}${flags(options)}`, { token: ADMIN, body: doc });

/** Applies and fails the test unless the service answers 200. */
export async function applied(appId: string, doc: unknown, options: { prune?: boolean; force?: boolean } = {}) {
  const r = await applyCatalog(appId, doc, options);
  if (r.status !== 200) throw new Error(`apply: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The demo game's catalog (scripts/demo/catalog.yaml), parsed afresh for each caller to change. */
export const demoCatalog = () => parse(demoYaml);

export async function catalogVersion(appId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT catalog_version FROM apps WHERE app_id = ?")
    .bind(Number(appId))
    .first<{ catalog_version: number }>();
  return row!.catalog_version;
}

/** What tests compare to see that nothing changed: the app's export and its catalog version. */
export async function configuration(appId: string) {
  return { catalog: await exportCatalog(appId), version: await catalogVersion(appId) };
}

/** The challenge ids of a player's "all" list, by key: tests drive players with ids, documents name keys. */
export async function challengeIds(appId: string): Promise<Record<string, string>> {
  const rows = await env.DB.prepare("SELECT key, challenge_id FROM challenges WHERE app_id = ?")
    .bind(Number(appId))
    .all<{ key: string; challenge_id: number }>();
  return Object.fromEntries(rows.results.map((r) => [r.key, String(r.challenge_id)]));
}
