import { PLAYER_STATE_PARTS } from "../../registry/areas";

/** One user's stored state: each area's part under its key (src/kit/area.ts `playerState`). */
export interface UserState {
  app_id: string;
  user_id: string;
  [area: string]: unknown;
}

/** One user's stored state in every area, for support: nothing is started or reset by reading it. */
export async function readUserState(env: Env, appId: string, userId: string, now: number): Promise<UserState> {
  const parts = await Promise.all(PLAYER_STATE_PARTS.map((part) => part.read(env, appId, userId, now)));
  return {
    app_id: appId,
    user_id: userId,
    ...Object.fromEntries(PLAYER_STATE_PARTS.map((part, i) => [part.key, parts[i]])),
  };
}
