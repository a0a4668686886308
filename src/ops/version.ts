import { version } from "../../package.json";

/** The release (package.json `version`, listed in CHANGELOG.md). */
export const SERVICE_VERSION: string = version;

export interface BuildInfo {
  /** The id of the deployed Worker version: what `wrangler rollback` takes. */
  id: string | null;
  tag: string | null;
  /** When that version was uploaded (ISO time). */
  timestamp: string | null;
}

/** The deployed version, from the version metadata binding; nulls when it is not bound. */
export function buildOf(env: { CF_VERSION_METADATA?: WorkerVersionMetadata }): BuildInfo {
  const meta = env.CF_VERSION_METADATA;
  return { id: meta?.id || null, tag: meta?.tag || null, timestamp: meta?.timestamp || null };
}
