import type { AreaPlugin } from "../kit/area";
import { inApp } from "../kit/console/ui/nav";
import { pointsAdmin } from "./admin/routes";
import { pointsCatalog } from "./catalog";
import { pointsCatalogSection } from "./catalog-section";
import { pointsPages } from "./console/pages";
import { playerPointsPages, pointsPlayerSection } from "./console/player-section";
import { pointsRoutes } from "./routes";
import { PlayerPointsState } from "./schemas";
import { POINTS, UserPoints, userPoints } from "./user-points";
import { pointsWebhooks } from "./webhook-docs";

/**
 * Points systems (XP, karma, coins): balances, levels and a ledger per player, earned from events'
 * triggers and other areas' rewards, granted and spent by the studio's backend, ranked by leaderboards.
 */
export const pointsPlugin: AreaPlugin = {
  name: POINTS,
  routes: () => [pointsRoutes, pointsAdmin],
  countedEventNamesSql:
    "SELECT json_extract(t.value, '$.event_name') AS event_name FROM points_systems, json_each(points_systems.triggers) AS t WHERE app_id = ?1",
  userArea: { area: UserPoints, rpc: ["balances", "ledger", "write", "stored"] },
  webhooks: pointsWebhooks,
  // The notifications topic carries points' changes: worth listening to once the app has a system.
  playerTopics: async (env, app, userId) =>
    (await pointsCatalog(env.DB, String(app.app_id))).systems.length === 0
      ? []
      : [{ label: "notifications (points)", ref: { kind: "user-notifications", appId: String(app.app_id), userId } }],
  catalog: pointsCatalogSection,
  playerState: {
    key: "points",
    schema: PlayerPointsState,
    read: (env, appId, userId) => userPoints(env, appId, userId).stored(),
    held: (value) => ({ points_entries: (value as { ledger: unknown[] }).ledger.length }),
  },
  console: {
    pages: () => [pointsPages, playerPointsPages],
    nav: [{ section: "points", label: "Points", href: inApp("/points") }],
    playerSection: pointsPlayerSection,
  },
};
