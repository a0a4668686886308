import type { BackgroundMessage } from "../background/messages";
import { dispatchChanges } from "../changes/dispatch";
import type { Change } from "../changes/types";
import { sendAll } from "../shared/chunks";
import type { AreaSchema } from "./schema";

/**
 * What a user's object still has to hand on after a state change: the changes for webhooks and
 * MQTT, and the background messages (analytics, leaderboards, usage). A row is written in the same
 * synchronous step as the state change it reports, so a failed queue send or an evicted object
 * loses nothing: the row stays and is handed on at the next flush (the next call or the alarm).
 */
export const outboxSchema: AreaSchema = {
  area: "outbox",
  migrations: ["CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, changes TEXT NOT NULL, background TEXT NOT NULL)"],
};

/** How long after a failed flush the alarm tries again. */
export const OUTBOX_RETRY_MS = 30_000;

export function stage(sql: SqlStorage, changes: Change[], background: BackgroundMessage[] = []): void {
  if (changes.length === 0 && background.length === 0) return;
  sql.exec("INSERT INTO outbox (changes, background) VALUES (?, ?)", JSON.stringify(changes), JSON.stringify(background));
}

export const hasStaged = (sql: SqlStorage) => sql.exec("SELECT 1 FROM outbox LIMIT 1").toArray().length > 0;

/**
 * Hands on the staged rows in order and removes each once done. Stops at the first failure and
 * answers false; what was not handed on stays for the next flush. Callers must not run two
 * flushes at once (UserDO chains them).
 */
export async function flush(sql: SqlStorage, env: Env): Promise<boolean> {
  const rows = sql.exec<{ seq: number; changes: string; background: string }>("SELECT seq, changes, background FROM outbox ORDER BY seq").toArray();
  for (const row of rows) {
    try {
      const changes = JSON.parse(row.changes) as Change[];
      if (changes.length > 0) {
        await dispatchChanges(env, changes);
        // Sent: a retry of this row must not queue the webhooks a second time.
        sql.exec("UPDATE outbox SET changes = '[]' WHERE seq = ?", row.seq);
      }
      await sendAll(env.BACKGROUND, JSON.parse(row.background) as BackgroundMessage[]);
      sql.exec("DELETE FROM outbox WHERE seq = ?", row.seq);
    } catch (err) {
      console.error("handing on staged changes failed; retried later", err);
      return false;
    }
  }
  return true;
}
