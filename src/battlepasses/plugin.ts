import type { AreaPlugin } from "../kit/area";
import { inApp } from "../kit/console/ui/nav";
import { battlePassesAdmin } from "./admin/routes";
import { UserBattlePassState, userBattlePassState } from "./admin/user-state";
import { battlePassCatalog } from "./catalog";
import { battlePassCatalogSection } from "./catalog-section";
import { battlePassPages } from "./console/pages";
import { battlePassesPlayerSection } from "./console/player-section";
import { expireBattlePasses } from "./expiry";
import { battlePassRoutes } from "./routes";
import { BATTLE_PASSES, UserBattlePasses } from "./user-progress";
import { battlePassWebhooks } from "./webhook-docs";

/** Battle passes: passes of levels of challenges, unlocked, counted and claimed per player. */
export const battlePassesPlugin: AreaPlugin = {
  name: BATTLE_PASSES,
  routes: () => [battlePassRoutes, battlePassesAdmin],
  countedEventNamesSql: "SELECT event_name FROM battle_pass_challenges WHERE app_id = ?1",
  userArea: {
    area: UserBattlePasses,
    rpc: ["progress", "act"],
    // A battle pass counts the event before a challenge's completion could be reported.
    eventOrder: -1,
  },
  cron: { "battle-pass-expiry": expireBattlePasses },
  webhooks: battlePassWebhooks,
  playerTopics: async (env, app, userId) => {
    const appId = String(app.app_id);
    return (await battlePassCatalog(env.DB, appId)).passes.map((p) => ({
      label: `battle pass ${p.battlePassId}`,
      ref: { kind: "user-battle-pass" as const, appId, userId, battlePassId: p.battlePassId },
    }));
  },
  catalog: battlePassCatalogSection,
  playerState: { key: "battle_passes", schema: UserBattlePassState, read: userBattlePassState },
  console: {
    pages: () => [battlePassPages],
    nav: [{ section: "battle-passes", label: "Battle passes", href: inApp("/battle-passes") }],
    playerSection: battlePassesPlayerSection,
  },
  objectExists: {
    "battle-pass": async (env, appId, id) =>
      (await battlePassCatalog(env.DB, appId)).passes.some((pass) => pass.battlePassId === id),
  },
};
