import type { Holders } from "../kit/catalog";
import type { BackgroundMessagesOf, HeldState } from "../user/messages";
import { chunkByJsonSize } from "../shared/chunks";
import { getNow } from "../shared/clock";

/**
 * How many users hold each challenge and battle pass (migrations/0010_catalog_keys.sql): the
 * bounded D1 side of player state, which lives in each user's Durable Object. The objects stage
 * +1/-1 with each state change ("holders" messages); this adds them up, once per queue message.
 */

const MAX_JSON_PARAMETER_CHARS = 512 * 1024;
/** Receipts only need to outlive the queue's retries. */
export const HOLDER_RECEIPT_RETENTION_MS = 7 * 86_400_000;

const delta = (name: string) => `json_extract(d.value, '$.${name}')`;
const message = (name: string) => `json_extract(m.value, '$.${name}')`;

// One JSON element per queue message, so a message's deltas are never split from its receipt.
// Deltas of deleted objects are dropped (their rows went with them); replayed messages count nothing.
const FROM_NEW_DELTAS = `
  FROM json_each(?1) AS m, json_each(m.value, '$.deltas') AS d
  WHERE NOT EXISTS (SELECT 1 FROM holder_receipts r WHERE r.message_id = ${message("id")})`;

const COUNT_CHALLENGES = `
  INSERT INTO challenge_holders (challenge_id, state, users)
  SELECT CAST(${delta("id")} AS INTEGER), ${delta("state")}, SUM(${delta("delta")})
  ${FROM_NEW_DELTAS}
    AND ${delta("object")} = 'challenge'
    AND EXISTS (SELECT 1 FROM challenges c WHERE c.challenge_id = CAST(${delta("id")} AS INTEGER) AND c.app_id = ${message("app_id")})
  GROUP BY 1, 2
  ON CONFLICT (challenge_id, state) DO UPDATE SET users = users + excluded.users`;

const COUNT_PASSES = `
  INSERT INTO battle_pass_holders (battle_pass_id, users)
  SELECT CAST(${delta("id")} AS INTEGER), SUM(${delta("delta")})
  ${FROM_NEW_DELTAS}
    AND ${delta("object")} = 'battle-pass'
    AND EXISTS (SELECT 1 FROM battle_passes p WHERE p.battle_pass_id = CAST(${delta("id")} AS INTEGER) AND p.app_id = ${message("app_id")})
  GROUP BY 1
  ON CONFLICT (battle_pass_id) DO UPDATE SET users = users + excluded.users`;

const RECORD_RECEIPTS = `INSERT OR IGNORE INTO holder_receipts (message_id, received_at) SELECT ${message("id")}, ?2 FROM json_each(?1) AS m`;

/** Background handler of "holders" messages. */
export async function recordHolders(messages: BackgroundMessagesOf<"holders">, env: Env): Promise<void> {
  if (messages.length === 0) return;
  const now = await getNow(env);
  const rows = messages.map(({ id, body }) => ({ id, app_id: Number(body.appId), deltas: body.deltas }));
  const statements = chunkByJsonSize(rows, MAX_JSON_PARAMETER_CHARS).flatMap((json) => [
    env.DB.prepare(COUNT_CHALLENGES).bind(json),
    env.DB.prepare(COUNT_PASSES).bind(json),
    env.DB.prepare(RECORD_RECEIPTS).bind(json, now),
  ]);
  await env.DB.batch(statements);
}

export async function pruneHolderReceipts(db: D1Database, now: number): Promise<void> {
  await db
    .prepare("DELETE FROM holder_receipts WHERE received_at < ?")
    .bind(now - HOLDER_RECEIPT_RETENTION_MS)
    .run();
}
export type { Holders } from "../kit/catalog";

/** The two reads of an app's holders, for a caller's D1 batch; `holdersOf` reads their results. */
export const holderReads = (db: D1Database, appId: number) => [
  db
    .prepare(
      `SELECT h.challenge_id, h.state, h.users FROM challenge_holders h JOIN challenges c USING (challenge_id)
       WHERE c.app_id = ? AND h.users > 0`,
    )
    .bind(appId),
  db
    .prepare(
      "SELECT h.battle_pass_id, h.users FROM battle_pass_holders h JOIN battle_passes p USING (battle_pass_id) WHERE p.app_id = ? AND h.users > 0",
    )
    .bind(appId),
];

export function holdersOf(challengeRows: unknown[], passRows: unknown[]): Holders {
  const challenges = new Map<number, Partial<Record<HeldState, number>>>();
  for (const row of challengeRows as { challenge_id: number; state: HeldState; users: number }[]) {
    challenges.set(row.challenge_id, { ...challenges.get(row.challenge_id), [row.state]: row.users });
  }
  const passes = new Map(
    (passRows as { battle_pass_id: number; users: number }[]).map((r) => [r.battle_pass_id, r.users]),
  );
  return { challenges, passes };
}
