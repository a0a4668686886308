import type { AreaPlugin } from "../kit/area";
import { inApp } from "../kit/console/ui/nav";
import { achievementsAdmin } from "./admin/routes";
import { achievementsCatalog } from "./catalog";
import { achievementsCatalogSection } from "./catalog-section";
import { recordAchievementHolders, pruneAchievementReceipts } from "./holders";
import { achievementsRoutes } from "./routes";
import { PlayerAchievementsState } from "./schemas";
import { ACHIEVEMENTS, UserAchievements, userAchievements } from "./user-achievements";
import { achievementsWebhooks } from "./webhook-docs";
import { achievementsPages } from "./console/pages";
import { achievementsPlayerSection, playerAchievementsPages } from "./console/player-section";
import { achievementsDashboardPanel } from "./console/dashboard";

/**
 * Achievements: permanent milestones a player holds (metric ladders, manual grants, composites,
 * hidden ones), earned in the player's object from running totals kept per event name (so that new
 * ones are backdated), with rarity from holder counts the background consumer keeps in D1.
 */
export const achievementsPlugin: AreaPlugin = {
  name: ACHIEVEMENTS,
  routes: () => [achievementsRoutes, achievementsAdmin],
  countedEventNamesSql:
    "SELECT event_name FROM achievements WHERE app_id = ?1 AND kind = 'metric' AND status = 'active' AND event_name IS NOT NULL",
  userArea: { area: UserAchievements, rpc: ["listJson", "grant", "revoke", "stored", "progressOf"] },
  background: { "achievement-holders": recordAchievementHolders },
  cron: { "achievement-receipts": (env, now) => pruneAchievementReceipts(env, now) },
  webhooks: achievementsWebhooks,
  // The notifications topic carries unlocked achievements: worth listening to once the app has one.
  playerTopics: async (env, app, userId) =>
    (await achievementsCatalog(env.DB, String(app.app_id))).achievements.length === 0
      ? []
      : [
          {
            label: "notifications (achievements)",
            ref: { kind: "user-notifications", appId: String(app.app_id), userId },
          },
        ],
  catalog: achievementsCatalogSection,
  playerState: {
    key: "achievements",
    schema: PlayerAchievementsState,
    read: (env, appId, userId) => userAchievements(env, appId, userId).stored(),
    held: (value) => ({ achievements: (value as { held: unknown[] }).held.length }),
  },
  console: {
    pages: () => [achievementsPages, playerAchievementsPages],
    nav: [{ section: "achievements", label: "Achievements", href: inApp("/achievements") }],
    playerSection: achievementsPlayerSection,
    dashboardPanel: achievementsDashboardPanel,
  },
};
