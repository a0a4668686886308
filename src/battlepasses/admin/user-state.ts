import { z } from "@hono/zod-openapi";
import { userBattlePasses } from "../user-progress";
import { battlePassCatalog } from "../catalog";
import { presentLevels, presentPassForUser } from "../core/present";
import { BattlePassForUser, BattlePassLevel } from "../schemas";

/** The battle-pass part of the admin's read-only view of one user (GET /api/v1/admin/apps/{appId}/users/{userId}). */
export const UserBattlePassState = z.array(BattlePassForUser.extend({ levels: z.array(BattlePassLevel) })).openapi({
  description:
    "The battle passes the user unlocked (including ended ones), with their levels, in the app's default language",
});

export async function userBattlePassState(
  env: Env,
  appId: string,
  userId: string,
  now: number,
): Promise<z.infer<typeof UserBattlePassState>> {
  const [catalog, progress] = await Promise.all([
    battlePassCatalog(env.DB, appId),
    userBattlePasses(env, appId, userId).progress(),
  ]);
  const presentation = { language: undefined, defaultLanguage: catalog.defaultLanguage, now };
  return catalog.passes
    .filter((pass) => progress[pass.battlePassId])
    .map((pass) => ({
      ...presentPassForUser(pass, progress[pass.battlePassId], userId, presentation),
      levels: presentLevels(pass, progress[pass.battlePassId], presentation),
    }));
}
