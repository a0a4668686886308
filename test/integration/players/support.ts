import { env, runInDurableObject } from "cloudflare:test";
import { vi } from "vitest";
import { userObject } from "../../../src/user/names";
import { ADMIN, call } from "../helpers";

/** Helpers of the privacy tests: where a text (a user id) is still held, and erasures run to their end. */

/** Every row of every table of a SQLite database (D1 or an object's storage) that holds `text` in any column. */
function rowsHolding(tables: string[], read: (table: string) => Record<string, unknown>[], text: string) {
  return tables.flatMap((table) =>
    read(table)
      .filter((row) => Object.values(row).some((value) => typeof value === "string" && value.includes(text)))
      .map((row) => ({ table, row })),
  );
}

/** The tables of D1 (views left out: they hold no rows of their own), listed from sqlite_master. */
export async function d1Tables(): Promise<string[]> {
  const rows = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
  ).all<{ name: string }>();
  return rows.results.map((r) => r.name);
}

/** Rows of any D1 table that hold `text` in a text column. */
export async function d1RowsHolding(text: string) {
  const tables = await d1Tables();
  const contents = new Map<string, Record<string, unknown>[]>();
  for (const table of tables)
    contents.set(table, (await env.DB.prepare(`SELECT * FROM "${table}"`).all<Record<string, unknown>>()).results);
  return rowsHolding(tables, (table) => contents.get(table)!, text);
}

/** Rows of any table of the user's object that hold `text`, and the tables of that object. */
export function objectRowsHolding(appId: string, userId: string, text: string) {
  return runInDurableObject(userObject(env, appId, userId), (_instance, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'")
      .toArray()
      .map((r) => r.name);
    return {
      tables,
      rows: rowsHolding(
        tables,
        (table) => sql.exec<Record<string, SqlStorageValue>>(`SELECT * FROM "${table}"`).toArray(),
        text,
      ),
    };
  });
}

/** Archive objects (any app) whose decompressed content holds `text`. */
export async function archiveObjectsHolding(text: string): Promise<string[]> {
  const listed = await env.EVENTS_ARCHIVE.list({ prefix: "events/" });
  const holding: string[] = [];
  for (const object of listed.objects) {
    const body = await env.EVENTS_ARCHIVE.get(object.key);
    const content = await new Response(body!.body.pipeThrough(new DecompressionStream("gzip"))).text();
    if (content.includes(text)) holding.push(object.key);
  }
  return holding;
}

export async function archivedLinesOf(appId: string): Promise<Record<string, unknown>[]> {
  const listed = await env.EVENTS_ARCHIVE.list({ prefix: `events/app=${appId}/` });
  const lines: Record<string, unknown>[] = [];
  for (const object of listed.objects) {
    const body = await env.EVENTS_ARCHIVE.get(object.key);
    const content = await new Response(body!.body.pipeThrough(new DecompressionStream("gzip"))).text();
    lines.push(
      ...content
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line)),
    );
  }
  return lines;
}

/** Erases a player through the admin API and waits for the receipt to say completed; answers the receipt. */
export async function erase(appId: string, userId: string) {
  const started = await call("DELETE", `/api/v1/admin/apps/${appId}/users/${encodeURIComponent(userId)}`, {
    token: ADMIN,
  });
  if (started.status !== 202) throw new Error(`erasure: ${started.status} ${JSON.stringify(started.body)}`);
  return completed(appId, started.body.erasure_id);
}

/** Waits for an erasure's receipt to say completed (the object's alarm runs it within seconds). */
export async function completed(appId: string, erasureId: string) {
  let receipt: any;
  await vi.waitFor(
    async () => {
      receipt = (await call("GET", `/api/v1/admin/apps/${appId}/erasures/${erasureId}`, { token: ADMIN })).body;
      if (receipt.status !== "completed") throw new Error(`still ${receipt.status}`);
    },
    { timeout: 20_000, interval: 200 },
  );
  return receipt;
}
