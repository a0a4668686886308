import type { AreaPlugin } from "../kit/area";
import { inApp } from "../kit/console/ui/nav";
import { localize } from "../shared/localize";
import { leaderboardReviewAdmin } from "./admin/review-routes";
import { leaderboardsAdmin } from "./admin/routes";
import { applyLeaderboardEventMessages, applyLeaderboardPointsMessages } from "./background";
import { appLeaderboards } from "./catalog";
import { leaderboardCatalogSection } from "./catalog-section";
import { runLeaderboardMaintenance } from "./maintenance";
import { leaderboardDashboardPanel } from "./console/dashboard";
import { leaderboardPages } from "./console/pages";
import { leaderboardsPlayerSection } from "./console/player-section";
import { leaderboardReviewPages } from "./console/review";
import { leaderboardScoreCorrection } from "./corrections";
import { leaderboardPlayerRows } from "./players";
import { leaderboardRoutes } from "./routes";
import { UserBoardPace } from "./user-pace";
import { leaderboardWebhooks } from "./webhook-docs";

/** Leaderboards: scores of users and teams from events, ranked, reset by season, reviewed by operators. */
export const leaderboardsPlugin: AreaPlugin = {
  name: "leaderboards",
  routes: (wiring) => [leaderboardRoutes, leaderboardsAdmin, leaderboardReviewAdmin(wiring.deliverFor)],
  countedEventNamesSql: "SELECT event_name FROM leaderboards WHERE app_id = ?1",
  userArea: { area: UserBoardPace, rpc: [] },
  background: {
    event: (messages, env, channels) =>
      applyLeaderboardEventMessages(messages, env, channels.deliver, channels.leaderboardAudience),
    // A board may rank a points system: what players earn in it arrives from their objects.
    "points-earned": (messages, env, channels) =>
      applyLeaderboardPointsMessages(messages, env, channels.deliver, channels.leaderboardAudience),
  },
  cron: { "leaderboard-maintenance": (env, now) => runLeaderboardMaintenance(env, now) },
  webhooks: leaderboardWebhooks,
  playerTopics: async (env, app) => {
    const appId = String(app.app_id);
    return (await appLeaderboards(env.DB, appId)).boards.map((b) => ({
      label: `leaderboard ${localize(b.name, undefined, app.default_language)}`,
      ref: { kind: "leaderboard" as const, appId, leaderboardId: b.id },
    }));
  },
  catalog: leaderboardCatalogSection,
  console: {
    pages: (wiring) => [leaderboardPages, leaderboardReviewPages(wiring)],
    nav: [{ section: "leaderboards", label: "Leaderboards", href: inApp("/leaderboards") }],
    dashboardPanel: leaderboardDashboardPanel,
    playerSection: leaderboardsPlayerSection,
  },
  players: leaderboardPlayerRows,
  corrections: (wiring) => [leaderboardScoreCorrection(wiring)],
  objectExists: {
    leaderboard: async (env, appId, id) => (await appLeaderboards(env.DB, appId)).boards.some((b) => b.id === id),
  },
};
