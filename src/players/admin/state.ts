import { userObject } from "../../user/names";
import { userBattlePassState } from "../../battlepasses/admin/user-state";

/** One user's stored state in every area, for support: nothing is started or reset by reading it. */
export async function readUserState(env: Env, appId: string, userId: string, now: number) {
  const [challenges, battlePasses] = await Promise.all([
    userObject(env, appId, userId).challengeState(),
    userBattlePassState(env, appId, userId, now),
  ]);
  return { app_id: appId, user_id: userId, challenges, battle_passes: battlePasses };
}
