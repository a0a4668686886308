import type { AreaPlugin } from "../kit/area";
import { inApp } from "../kit/console/ui/nav";
import { leaguePages } from "./console/pages";
import { leaguesPlayerSection } from "./console/player-section";
import { leaguesAdmin } from "./admin/routes";
import { leagueRoutes } from "./routes";
import { leaguePlayerRows, leaguesPlayerState } from "./players";
import { leaguesCatalog } from "./catalog";
import { leagueWebhooks } from "./webhook-docs";
import { leagueTopicLink } from "./topic-link";
import { leaguesCatalogSection } from "./catalog-section";
import { applyLeagueScores } from "./scores";
import { runSeasonEnds } from "./season-end";
import { LEAGUES, UserLeagues } from "./user-leagues";

/**
 * Leagues: each season every player competes in a cohort of about cohort_size players of their
 * tier; at the season's end the top move up, the bottom move down, and every member gets a result.
 */
export const leaguesPlugin: AreaPlugin = {
  name: LEAGUES,
  routes: () => [leagueRoutes, leaguesAdmin],
  countedEventNamesSql: "SELECT event_name FROM leagues WHERE app_id = ?1",
  userArea: { area: UserLeagues, rpc: ["membership", "claimed", "claim", "stored"] },
  background: { "league-score": (messages, env, channels) => applyLeagueScores(messages, env, channels) },
  cron: { "league-season-ends": runSeasonEnds },
  catalog: leaguesCatalogSection,
  playerState: leaguesPlayerState,
  players: leaguePlayerRows,
  webhooks: leagueWebhooks,
  objectExists: {
    league: async (env, appId, id) => (await leaguesCatalog(env.DB, appId)).byId.has(id),
  },
  playerTopicLinks: { league: leagueTopicLink },
  console: {
    pages: () => [leaguePages],
    nav: [{ section: "leagues", label: "Leagues", href: inApp("/leagues") }],
    playerSection: leaguesPlayerSection,
  },
};
