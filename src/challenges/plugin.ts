import { z } from "@hono/zod-openapi";
import type { AreaPlugin } from "../kit/area";
import { inApp } from "../kit/console/ui/nav";
import { challengesAdmin } from "./admin/routes";
import { challengeCatalog } from "./catalog";
import { challengeCatalogSection } from "./catalog-section";
import { challengesPages } from "./console/pages";
import { challengesPlayerSection } from "./console/player-section";
import { challengeRoutes } from "./routes";
import { StoredChallengeStateSchema } from "./schemas";
import { CHALLENGES, UserChallenges, userChallenges } from "./user-challenges";
import { challengeWebhooks } from "./webhook-docs";

/** Personal challenges: categories of challenges each player unlocks, counts, claims; daily ones restart. */
export const challengesPlugin: AreaPlugin = {
  name: CHALLENGES,
  routes: () => [challengeRoutes, challengesAdmin],
  countedEventNamesSql: "SELECT event_name FROM challenges WHERE app_id = ?1",
  userArea: { area: UserChallenges, rpc: ["list", "get", "act", "reset", "state"] },
  webhooks: challengeWebhooks,
  playerTopics: async (_env, app, userId) => [
    { label: "challenges", ref: { kind: "user-challenges", appId: String(app.app_id), userId } },
  ],
  catalog: challengeCatalogSection,
  playerState: {
    key: "challenges",
    schema: z.array(StoredChallengeStateSchema),
    exportSchema: z
      .array(StoredChallengeStateSchema)
      .openapi({ description: "The player's personal challenges as stored (the admin user view)" }),
    read: (env, appId, userId) => userChallenges(env, appId, userId).state(),
  },
  console: {
    pages: () => [challengesPages],
    nav: [{ section: "challenges", label: "Challenges", href: inApp("/challenges") }],
    playerSection: challengesPlayerSection,
  },
  objectExists: {
    challenge: async (env, appId, id) => (await challengeCatalog(env.DB, appId)).byId.has(id),
  },
};
