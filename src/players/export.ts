import type { z } from "@hono/zod-openapi";
import { listAuditEntries, presentAuditEntry } from "../apps/admin/audit-repo";
import { PLAYER_RESOURCE, recordAudit, type Actor } from "../apps/audit-log";
import type { AppRow } from "../apps/repo";
import { presentBan, readBan } from "../auth/bans";
import { findUserInfo } from "../auth/user-info";
import { appLeaderboards } from "../leaderboards/catalog";
import { readMemberRows, storedScores } from "../leaderboards/reads";
import { playerFlags, presentFlag } from "../leaderboards/flag-store";
import type { Presentation } from "../leaderboards/core/present";
import { localize } from "../shared/localize";
import { toIso } from "../shared/clock";
import { userObject } from "../user/names";
import type { RecentEvent } from "../events/recent-events";
import { listDeliveries, presentDelivery } from "../webhooks/deliveries-repo";
import { withoutCredentials } from "./core/export";
import { EXPORT_LIST_LIMIT, type PlayerExport } from "./admin/schemas";
import { readUserState } from "./admin/state";

const firstPage = { currentPage: 1, pageSize: EXPORT_LIST_LIMIT };
const ARCHIVE_NOTE =
  "Archived raw events (kept ANALYTICS_RETENTION_DAYS) name this player by user_ref, never by user id. Erasing the player deletes this reference: their archived events then belong to no one.";

/** The player's scores on every board of the app: the current standing, and every season stored. */
async function leaderboardsOf(env: Env, app: AppRow, userId: string, now: number) {
  const appId = String(app.app_id);
  const { boards } = await appLeaderboards(env.DB, appId);
  const p: Presentation = { language: undefined, defaultLanguage: app.default_language, now, infos: new Map() };
  const [rows, scores] = await Promise.all([
    readMemberRows(env.DB, appId, boards, "user", userId, p),
    storedScores(
      env.DB,
      boards.map((b) => b.id),
      userId,
    ),
  ]);
  return boards.map((board, i) => ({
    leaderboard_id: board.id,
    name: localize(board.name, undefined, app.default_language),
    score: rows[i].score,
    rank: rows[i].rank,
    seasons: scores
      .filter((s) => s.boardId === board.id)
      .map((s) => ({ season_started_at: toIso(s.season), score: s.score, last_event_at: toIso(s.lastAt) })),
  }));
}

/**
 * Everything the service holds about one player, as one document (the right of access): what the
 * admin user view shows, their user info, board entries, their ban and held scores, recent events,
 * the webhook deliveries and audit entries that name them, and how the archive names them; never a
 * credential. The export is
 * an operator action: it is recorded in the audit log (counts only, not the data).
 */
export async function exportPlayer(
  env: Env,
  app: AppRow,
  userId: string,
  now: number,
  actor: Actor,
): Promise<z.infer<typeof PlayerExport>> {
  const appId = String(app.app_id);
  const base = `/api/v1/admin/apps/${appId}`;
  const [state, info, leaderboards, ban, flags, recentEvents, userRef, deliveries, audit, points] = await Promise.all([
    readUserState(env, appId, userId, now),
    findUserInfo(env.DB, appId, userId),
    leaderboardsOf(env, app, userId, now),
    readBan(env.DB, app.app_id, userId),
    playerFlags(env.DB, app.app_id, userId, EXPORT_LIST_LIMIT),
    // The RPC type of meta_data's values (unknown) is `never`: the object answers RecentEvent[].
    userObject(env, appId, userId).recentEvents(EXPORT_LIST_LIMIT) as Promise<RecentEvent[]>,
    userObject(env, appId, userId).archiveUserRef(),
    listDeliveries(env.DB, app.app_id, { user_id: userId }, firstPage),
    listAuditEntries(env.DB, app.app_id, { resource: PLAYER_RESOURCE, resource_id: userId }, firstPage),
    userObject(env, appId, userId).pointsState(),
  ]);
  const more = (total: number, path: string) => (total > EXPORT_LIST_LIMIT ? path : null);
  const document = {
    app_id: appId,
    user_id: userId,
    exported_at: toIso(now),
    user_info: info && { username: info.username, avatarImage: info.avatarImage, updated_at: info.updatedAt },
    challenges: state.challenges,
    battle_passes: state.battle_passes,
    points,
    leaderboards,
    ban: ban && presentBan(ban),
    held_scores: flags.map((flag) => ({ leaderboard_id: String(flag.leaderboard_id), ...presentFlag(flag) })),
    recent_events: recentEvents.map((e) => ({ ...e, received_at: toIso(e.received_at) })),
    webhook_deliveries: {
      total: deliveries.total,
      items: deliveries.rows.map((row) => ({
        ...presentDelivery(row),
        payload: withoutCredentials(JSON.parse(row.payload)),
      })),
      more: more(deliveries.total, `${base}/webhook-deliveries?user_id=${encodeURIComponent(userId)}`),
    },
    audit_log: {
      total: audit.total,
      items: audit.rows.map(presentAuditEntry),
      more: more(
        audit.total,
        `${base}/audit-log?resource=${PLAYER_RESOURCE}&resource_id=${encodeURIComponent(userId)}`,
      ),
    },
    archive: { user_ref: userRef, description: ARCHIVE_NOTE },
  };
  const held = {
    challenges: document.challenges.length,
    battle_passes: document.battle_passes.length,
    points_entries: points.ledger.length,
    leaderboard_seasons: leaderboards.reduce((n, b) => n + b.seasons.length, 0),
    ban: ban !== null,
    held_scores: flags.length,
    recent_events: recentEvents.length,
    webhook_deliveries: deliveries.total,
    user_info: info !== null,
  };
  await recordAudit(env.DB, [
    { actor, appId: app.app_id, resource: PLAYER_RESOURCE, resourceId: userId, action: "export", after: { held } },
  ]);
  return document;
}
