import { erasedPlayerId, PLAYER_RESOURCE, type Actor } from "../apps/audit-log";
import { writeConfig } from "../apps/config-write";
import { erasureSubject, pruneTombstones, tombstoneRetentionMs, tombstoneStatement } from "../apps/erasure-tombstones";
import { toIso } from "../shared/clock";
import { unavailable } from "../shared/domain-errors";
import { notFound } from "../shared/domain-errors";
import { logError } from "../shared/log";
import { userObject } from "../user/names";
import {
  findReceipt,
  insertReceiptStatement,
  markFailed,
  newErasureId,
  presentReceipt,
  pruneReceipts,
} from "./erasure-receipts";

/**
 * Erasing a player (the admin API, a backend with the app's API key, the console): the request is
 * answered at once with a receipt, and the player's own object erases everything about them on its
 * alarm a moment later (src/players/user-erasure.ts, docs/privacy.md). The tombstone is
 * written with the request, so that from the next second on every isolate refuses the player's
 * old tokens. Erasing a player again, or one who never played, is harmless and gets its own receipt.
 */
export async function requestErasure(env: Env, appId: number, userId: string, actor: Actor, now: number) {
  const subject = await erasureSubject(env, appId, userId);
  const erasureId = newErasureId();
  const nowIso = toIso(now);
  // The entry names the player by subject from the start: the erasure is about to make it so anyway.
  const audit = {
    actor,
    appId,
    resource: PLAYER_RESOURCE,
    resourceId: erasedPlayerId(subject),
    action: "erase",
    after: { erasure_id: String(erasureId) },
  };
  await writeConfig(
    env.DB,
    appId,
    [
      tombstoneStatement(env.DB, appId, subject, now, now + tombstoneRetentionMs(env)),
      insertReceiptStatement(env.DB, erasureId, appId, subject, nowIso),
    ],
    [audit],
  );
  try {
    await userObject(env, String(appId), userId).requestErasure({
      erasureId: String(erasureId),
      appId: String(appId),
      userId,
      requestedAt: now,
    });
  } catch (err) {
    logError("handing an erasure to the player's object failed", err, { app_id: appId, erasure_id: erasureId });
    await markFailed(
      env.DB,
      [String(erasureId)],
      nowIso,
      "The player's object could not be reached; nothing was erased",
    );
    throw unavailable(`The erasure could not be started (receipt ${erasureId} failed); nothing was erased. Try again.`);
  }
  return presentReceipt({
    erasure_id: erasureId,
    app_id: appId,
    subject,
    status: "pending",
    requested_at: nowIso,
    started_at: null,
    completed_at: null,
    error: null,
  });
}

/** A receipt of the app, or a 404. */
export async function readErasure(db: D1Database, appId: number, erasureId: string) {
  const row = await findReceipt(db, appId, erasureId);
  if (!row) throw notFound(`Erasure ${erasureId} not found`);
  return presentReceipt(row);
}

/** The cron: tombstones and receipts go once Cloudflare's backups no longer hold the players they name. */
export async function pruneErasures(env: Env, now: number): Promise<void> {
  await Promise.all([pruneTombstones(env.DB, now), pruneReceipts(env.DB, toIso(now - tombstoneRetentionMs(env)))]);
}
