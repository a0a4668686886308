import type { AreaPlugin } from "../kit/area";
import { leaderboardReviewAdmin } from "./admin/review-routes";
import { leaderboardsAdmin } from "./admin/routes";
import { applyLeaderboardEventMessages } from "./background";
import { appLeaderboards } from "./catalog";
import { leaderboardCatalogSection } from "./catalog-section";
import { runLeaderboardMaintenance } from "./maintenance";
import { leaderboardPlayerRows } from "./players";
import { leaderboardRoutes } from "./routes";
import { UserBoardPace } from "./user-pace";

/** Leaderboards: scores of users and teams from events, ranked, reset by season, reviewed by operators. */
export const leaderboardsPlugin: AreaPlugin = {
  name: "leaderboards",
  routes: (wiring) => [leaderboardRoutes, leaderboardsAdmin, leaderboardReviewAdmin(wiring.deliverFor)],
  userArea: { area: UserBoardPace, rpc: [] },
  background: {
    event: (messages, env, channels) =>
      applyLeaderboardEventMessages(messages, env, channels.deliver, channels.leaderboardAudience),
  },
  cron: { "leaderboard-maintenance": (env, now) => runLeaderboardMaintenance(env, now) },
  webhookTypes: ["leaderoard-updated"],
  catalog: leaderboardCatalogSection,
  players: leaderboardPlayerRows,
  objectExists: {
    leaderboard: async (env, appId, id) => (await appLeaderboards(env.DB, appId)).boards.some((b) => b.id === id),
  },
};
