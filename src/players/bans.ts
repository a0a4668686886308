import { auditAfterStatement, PLAYER_RESOURCE, systemActor, type Actor, type AuditEntry } from "../apps/audit-log";
import { writeConfig } from "../apps/config-write";
import { deleteBanStatement, expiredBans, presentBan, readBan, upsertBanStatement, type BanRow } from "../auth/bans";
import { PLAYER_ROWS_PARTS } from "../registry/areas";
import { allShards } from "../realtime/channel";
import { toIso } from "../shared/clock";
import { invalid } from "../shared/domain-errors";
import { logBackgroundFailure } from "../shared/log";
import { userObjectName } from "../user/names";

/** Every area's rows moved by a ban (a board's members), in the ban's batch. */
const areaBanStatements = (db: D1Database, appId: number, userId: string) =>
  PLAYER_ROWS_PARTS.flatMap((part) => part.banStatements?.(db, appId, userId) ?? []);

/**
 * Banning a player, across every area (the admin API, the console and the cron call these):
 * - the ban row, and the player's rows moved out of every board, in one D1 batch that also moves
 *   the app's catalog version, so that every isolate refuses the player's tokens, token minting
 *   and events at once here and within a second elsewhere (src/auth/trust.ts);
 * - the MQTT broker refuses the player's topics and drops their subscriptions.
 * Scores accepted before the ban are kept, hidden; lifting shows them again as they were. Each ban
 * and lift is in the audit log, in the same batch, with the ban as it was before.
 */

export interface BanInput {
  reason: string;
  /** Service time (ms); null: until lifted. */
  expiresAt: number | null;
}

/** The topics of a user's object name it (src/realtime/topics.ts): the broker bars by that. */
const ownerOf = (env: Env, appId: number, userId: string) =>
  env.USER.idFromName(userObjectName(String(appId), userId)).toString();

/** Bans or re-bans (a second ban replaces the reason and the expiry). Answers the ban. */
export async function banPlayer(
  env: Env,
  appId: number,
  userId: string,
  input: BanInput,
  now: number,
  actor: Actor,
): Promise<BanRow> {
  if (input.expiresAt !== null && input.expiresAt <= now) {
    throw invalid("Invalid body: expires_at must be in the future", [
      { field: "expires_at", problem: "must be in the future" },
    ]);
  }
  const ban = { reason: input.reason, expiresAt: input.expiresAt, bannedAt: toIso(now) };
  const before = await readBan(env.DB, appId, userId);
  const after = presentBan({
    app_id: appId,
    user_id: userId,
    reason: ban.reason,
    expires_at: ban.expiresAt,
    banned_at: ban.bannedAt,
  });
  const audit = banAudit(actor, appId, userId, "ban", before, after);
  const [written] = await writeConfig(
    env.DB,
    appId,
    [upsertBanStatement(env.DB, appId, userId, ban), ...areaBanStatements(env.DB, appId, userId)],
    [audit],
  );
  const owner = ownerOf(env, appId, userId);
  await Promise.all(allShards(env).map((broker) => broker.barOwner(owner, input.expiresAt)));
  return written.results[0] as BanRow;
}

/**
 * Lifts a ban: the player's tokens (those minted before the ban too) and topics work again and
 * their scores are back on every board, ranks included. With `expiredBy`, only a ban that expired
 * by then (the cron). Answers the lifted ban, or null when there was none.
 */
export async function liftBan(
  env: Env,
  appId: number,
  userId: string,
  actor: Actor,
  expiredBy?: number,
): Promise<BanRow | null> {
  const before = await readBan(env.DB, appId, userId);
  // Recorded only when a ban was deleted (the cron must not log a lift of a ban renewed meanwhile).
  const audit = auditAfterStatement(
    env.DB,
    banAudit(actor, appId, userId, expiredBy === undefined ? "unban" : "ban-expired", before, null),
  );
  const [deleted] = await writeConfig(
    env.DB,
    appId,
    [deleteBanStatement(env.DB, appId, userId, expiredBy), audit, ...areaBanStatements(env.DB, appId, userId)],
    [],
  );
  const lifted = (deleted.results[0] as BanRow | undefined) ?? null;
  if (lifted) {
    await unbarOwner(env, ownerOf(env, appId, userId));
  }
  return lifted;
}

/**
 * Every broker shard lets the owner's topics be subscribed again (a lift; an erasure, whose player may have been
 * banned).
 */
export async function unbarOwner(env: Env, owner: string): Promise<void> {
  await Promise.all(allShards(env).map((broker) => broker.unbarOwner(owner)));
}

const banAudit = (
  actor: Actor,
  appId: number,
  userId: string,
  action: string,
  before: BanRow | null,
  after: unknown,
): AuditEntry => ({
  actor,
  appId,
  resource: PLAYER_RESOURCE,
  resourceId: userId,
  action,
  before: before && presentBan(before),
  after,
});

/** Bans one cron run lifts at most (the next run goes on). */
const LIFTS_PER_RUN = 200;

/**
 * Cron (every minute): lifts the bans that expired, so that boards show their players again
 * within a minute of the expiry (the players' own requests saw the expiry at once).
 */
export async function liftExpiredBans(env: Env, now: number): Promise<void> {
  const due = await expiredBans(env.DB, now, LIFTS_PER_RUN);
  let failed = 0;
  for (const ban of due) {
    try {
      await liftBan(env, ban.app_id, ban.user_id, systemActor("ban-expiry"), now);
    } catch (err) {
      failed++;
      logBackgroundFailure("cron", "lifting an expired ban failed; the next run tries again", err, {
        app_id: String(ban.app_id),
      });
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${due.length} expired bans could not be lifted (logged above)`);
}
