import type { ChangeSink } from "../changes/types";
import { toIso } from "../shared/clock";
import { toCatalogPass, type PassRow } from "./catalog";
import { expiredChange } from "./core/changes";

/** Passes handled per cron run; more wait for the next minute. */
const BATCH = 100;

/**
 * Sends battlepass-expired once for every pass whose end_date has passed, from cron, so that it
 * goes out even when no user of the app is active. One UPDATE claims the due passes (a concurrent
 * run finds them claimed); when the notification cannot be queued the claim is released for the
 * next run.
 */
export async function expireBattlePasses(env: Env, now: number, deliver: ChangeSink): Promise<void> {
  const nowIso = toIso(now);
  const claimed = await env.DB.prepare(
    `UPDATE battle_passes SET expired_at = ?1
     WHERE battle_pass_id IN (SELECT battle_pass_id FROM battle_passes WHERE expired_at IS NULL AND end_date <= ?1 ORDER BY end_date LIMIT ?2)
     RETURNING *`,
  )
    .bind(nowIso, BATCH)
    .all<PassRow>();
  if (claimed.results.length === 0) return;
  try {
    await deliver(claimed.results.map((row) => expiredChange(toCatalogPass(row, []))));
  } catch (err) {
    const ids = claimed.results.map((row) => row.battle_pass_id);
    await env.DB.prepare(
      `UPDATE battle_passes SET expired_at = NULL WHERE expired_at = ? AND battle_pass_id IN (SELECT value FROM json_each(?))`,
    )
      .bind(nowIso, JSON.stringify(ids))
      .run();
    throw err;
  }
}
