import type { AreaPlugin } from "../kit/area";
import { inApp } from "../kit/console/ui/nav";
import { streaksPages } from "./console/pages";
import { playerStreaksPages, streaksPlayerSection } from "./console/player-section";
import { streaksAdmin } from "./admin/routes";
import { streaksCatalogSection } from "./catalog-section";
import { streaksCatalog } from "./catalog";
import { streaksRoutes } from "./routes";
import { PlayerStreaksState } from "./schemas";
import { STREAKS, UserStreaks, userStreaks } from "./user-streaks";
import { streaksWebhooks } from "./webhook-docs";

/**
 * Streaks: daily or weekly habits kept in each player's time zone, with freezes that bridge a missed
 * period, milestones that credit points, and the player's object's alarm deciding a loss on time.
 */
export const streaksPlugin: AreaPlugin = {
  name: STREAKS,
  routes: () => [streaksRoutes, streaksAdmin],
  countedEventNamesSql: "SELECT event_name FROM streaks WHERE app_id = ?1",
  userArea: {
    area: UserStreaks,
    rpc: ["list", "timeZone", "setTimeZone", "stored"],
  },
  webhooks: streaksWebhooks,
  // The notifications topic carries streaks' changes: worth listening to once the app has a streak.
  playerTopics: async (env, app, userId) =>
    (await streaksCatalog(env.DB, String(app.app_id))).streaks.length === 0
      ? []
      : [{ label: "notifications (streaks)", ref: { kind: "user-notifications", appId: String(app.app_id), userId } }],
  catalog: streaksCatalogSection,
  playerState: {
    key: "streaks",
    schema: PlayerStreaksState,
    read: (env, appId, userId, now) => userStreaks(env, appId, userId).stored(appId, now),
    held: (value) => ({ streaks: (value as { streaks: unknown[] }).streaks.length }),
  },
  console: {
    pages: () => [streaksPages, playerStreaksPages],
    nav: [{ section: "streaks", label: "Streaks", href: inApp("/streaks") }],
    playerSection: streaksPlayerSection,
  },
};
