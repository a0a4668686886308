import type { AreaPlugin } from "../kit/area";
import { battlePassesAdmin } from "./admin/routes";
import { UserBattlePassState, userBattlePassState } from "./admin/user-state";
import { battlePassCatalog } from "./catalog";
import { battlePassCatalogSection } from "./catalog-section";
import { battlePassPages } from "./console/pages";
import { expireBattlePasses } from "./expiry";
import { battlePassRoutes } from "./routes";
import { BATTLE_PASSES, UserBattlePasses } from "./user-progress";

/** Battle passes: passes of levels of challenges, unlocked, counted and claimed per player. */
export const battlePassesPlugin: AreaPlugin = {
  name: BATTLE_PASSES,
  routes: () => [battlePassRoutes, battlePassesAdmin],
  userArea: {
    area: UserBattlePasses,
    rpc: ["progress", "act"],
    // A battle pass counts the event before a challenge's completion could be reported.
    eventOrder: -1,
  },
  cron: { "battle-pass-expiry": expireBattlePasses },
  webhookTypes: ["battlepass-challenge-changed", "battlepass-level-reward-claimed", "battlepass-expired"],
  catalog: battlePassCatalogSection,
  playerState: { key: "battle_passes", schema: UserBattlePassState, read: userBattlePassState },
  console: { pages: battlePassPages },
  objectExists: {
    "battle-pass": async (env, appId, id) =>
      (await battlePassCatalog(env.DB, appId)).passes.some((pass) => pass.battlePassId === id),
  },
};
