import type { z } from "@hono/zod-openapi";
import { listAuditEntries, presentAuditEntry } from "../apps/admin/audit-repo";
import { PLAYER_RESOURCE, recordAudit, type Actor } from "../apps/audit-log";
import type { AppRow } from "../apps/repo";
import { presentBan, readBan } from "../auth/bans";
import { findUserInfo } from "../auth/user-info";
import { toIso } from "../shared/clock";
import { userObject } from "../user/names";
import type { RecentEvent } from "../events/channel";
import { listDeliveries, presentDelivery } from "../webhooks/channel";
import { withoutCredentials } from "./core/export";
import { EXPORT_LIST_LIMIT, type PlayerExport } from "./admin/schemas";
import { readUserState } from "./admin/state";
import { PLAYER_EXPORT_PARTS, PLAYER_STATE_PARTS } from "../registry/areas";

const firstPage = { currentPage: 1, pageSize: EXPORT_LIST_LIMIT };
const ARCHIVE_NOTE =
  "Archived raw events (kept ANALYTICS_RETENTION_DAYS) name this player by user_ref, never by user id. Erasing the player deletes this reference: their archived events then belong to no one.";

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
  const [state, info, parts, ban, recentEvents, userRef, deliveries, audit] = await Promise.all([
    readUserState(env, appId, userId, now),
    findUserInfo(env.DB, appId, userId),
    Promise.all(PLAYER_EXPORT_PARTS.map((part) => part.read(env, app, userId, now))),
    readBan(env.DB, app.app_id, userId),
    // The RPC type of meta_data's values (unknown) is `never`: the object answers RecentEvent[].
    userObject(env, appId, userId).recentEvents(EXPORT_LIST_LIMIT) as Promise<RecentEvent[]>,
    userObject(env, appId, userId).archiveUserRef(),
    listDeliveries(env.DB, app.app_id, { user_id: userId }, firstPage),
    listAuditEntries(env.DB, app.app_id, { resource: PLAYER_RESOURCE, resource_id: userId }, firstPage),
  ]);
  const exported = (kind: "held" | "fair-play") =>
    Object.fromEntries(PLAYER_EXPORT_PARTS.flatMap((part, i) => (part.kind === kind ? [[part.key, parts[i]]] : [])));
  const more = (total: number, path: string) => (total > EXPORT_LIST_LIMIT ? path : null);
  const document = {
    app_id: appId,
    user_id: userId,
    exported_at: toIso(now),
    user_info: info && { username: info.username, avatarImage: info.avatarImage, updated_at: info.updatedAt },
    ...Object.fromEntries(PLAYER_STATE_PARTS.map((part) => [part.key, state[part.key]])),
    ...exported("held"),
    ban: ban && presentBan(ban),
    ...exported("fair-play"),
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
    ...Object.assign(
      {},
      ...PLAYER_STATE_PARTS.map((part) =>
        part.held ? part.held(state[part.key]) : { [part.key]: (state[part.key] as unknown[]).length },
      ),
    ),
    ...Object.assign({}, ...PLAYER_EXPORT_PARTS.map((part, i) => part.held?.(parts[i]) ?? {})),
    ban: ban !== null,
    recent_events: recentEvents.length,
    webhook_deliveries: deliveries.total,
    user_info: info !== null,
  };
  await recordAudit(env.DB, [
    { actor, appId: app.app_id, resource: PLAYER_RESOURCE, resourceId: userId, action: "export", after: { held } },
  ]);
  return document;
}
