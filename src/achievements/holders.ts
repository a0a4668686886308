import type { BackgroundMessagesOf } from "../user/messages";
import { chunkByJsonSize } from "../shared/chunks";
import { getNow } from "../shared/clock";

/**
 * How many players hold each achievement: the objects stage +1/-1 with each earn, grant, revoke
 * and erasure ("achievement-holders" messages); this adds them up, once per queue message, off the
 * request path. Rarity divides it by the app's players (src/achievements/catalog.ts).
 */

const MAX_JSON_PARAMETER_CHARS = 512 * 1024;
/** Receipts only need to outlive the queue's retries. */
export const RECEIPT_RETENTION_MS = 7 * 86_400_000;

const delta = (name: string) => `json_extract(d.value, '$.${name}')`;
const message = (name: string) => `json_extract(m.value, '$.${name}')`;

// One JSON element per queue message, so a message's deltas are never split from its receipt.
// Deltas of deleted achievements are dropped; replayed messages count nothing.
const COUNT = `
  INSERT INTO achievement_holders (achievement_id, holders)
  SELECT CAST(${delta("id")} AS INTEGER), SUM(${delta("delta")})
  FROM json_each(?1) AS m, json_each(m.value, '$.deltas') AS d
  WHERE NOT EXISTS (SELECT 1 FROM achievement_holder_receipts r WHERE r.message_id = ${message("id")})
    AND EXISTS (SELECT 1 FROM achievements a WHERE a.achievement_id = CAST(${delta("id")} AS INTEGER) AND a.app_id = ${message("app_id")})
  GROUP BY 1
  ON CONFLICT (achievement_id) DO UPDATE SET holders = MAX(0, holders + excluded.holders)`;

const RECORD_RECEIPTS = `INSERT OR IGNORE INTO achievement_holder_receipts (message_id, received_at) SELECT ${message("id")}, ?2 FROM json_each(?1) AS m`;

/** Background handler of "achievement-holders" messages: one D1 batch per batch of messages. */
export async function recordAchievementHolders(
  messages: BackgroundMessagesOf<"achievement-holders">,
  env: Env,
): Promise<void> {
  if (messages.length === 0) return;
  const now = await getNow(env);
  const rows = messages.map(({ id, body }) => ({ id, app_id: Number(body.appId), deltas: body.deltas }));
  const statements = chunkByJsonSize(rows, MAX_JSON_PARAMETER_CHARS).flatMap((json) => [
    env.DB.prepare(COUNT).bind(json),
    env.DB.prepare(RECORD_RECEIPTS).bind(json, now),
  ]);
  await env.DB.batch(statements);
}

/** The cron's task: receipts older than the queue's retries go. */
export async function pruneAchievementReceipts(env: Env, now: number): Promise<void> {
  await env.DB.prepare("DELETE FROM achievement_holder_receipts WHERE received_at < ?")
    .bind(now - RECEIPT_RETENTION_MS)
    .run();
}
