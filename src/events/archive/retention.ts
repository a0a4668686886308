import { ARCHIVE_ROOT, HOUR_MS, parseArchiveKey } from "../core/archive-layout";

/** Objects one run deletes at most; one R2 delete call takes up to 1,000 keys. */
const DELETE_BUDGET = 10_000;
const DELETE_CHUNK = 1000;

/** The folder of every app that has archived events, deleted apps included. */
async function appFolders(bucket: R2Bucket): Promise<string[]> {
  const folders: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: ARCHIVE_ROOT, delimiter: "/", cursor });
    folders.push(...page.delimitedPrefixes);
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return folders;
}

/** Deletes up to `budget` objects of hours that ended by `before` in one app's folder, oldest first. */
async function pruneFolder(bucket: R2Bucket, folder: string, before: number, budget: number): Promise<number> {
  let deleted = 0;
  let startAfter: string | undefined;
  while (deleted < budget) {
    const page = await bucket.list({ prefix: folder, startAfter, limit: Math.min(DELETE_CHUNK, budget - deleted) });
    const expired: string[] = [];
    let reachedKept = false;
    for (const object of page.objects) {
      const key = parseArchiveKey(object.key);
      // Keys sort by hour within an app: the first hour still kept ends the listing.
      if (key && key.hour + HOUR_MS > before) {
        reachedKept = true;
        break;
      }
      if (key) expired.push(object.key);
      startAfter = object.key;
    }
    if (expired.length > 0) await bucket.delete(expired);
    deleted += expired.length;
    if (reachedKept || !page.truncated) break;
  }
  return deleted;
}

/**
 * Deletes the archived events of hours that ended by `before`, app by app, at most DELETE_BUDGET
 * objects per run. In production an R2 lifecycle rule can do this instead (docs/api.md, "Raw event
 * archive"). Objects this layout did not write are left alone.
 */
export async function pruneArchive(bucket: R2Bucket, before: number): Promise<number> {
  let deleted = 0;
  for (const folder of await appFolders(bucket)) {
    if (deleted >= DELETE_BUDGET) break;
    deleted += await pruneFolder(bucket, folder, before, DELETE_BUDGET - deleted);
  }
  return deleted;
}
