import { PLAYER_RESOURCE } from "../apps/audit-log";
import { dispatchChanges } from "../fanout/dispatch";
import { areaCorrection } from "../registry/areas";
import { userObjectCorrection, type CorrectionTarget } from "./corrections";

/** A leaderboard member: a player, or a team. */
export type MemberType = "user" | "team";

/**
 * Every correction an operator can make, by name: an area adds one line here (its object-side part,
 * if any, goes in the area's `corrections`, src/user/area.ts). The admin API's routes
 * (src/players/admin/correction-routes.ts) and the console's player page make them.
 */
export const CORRECTIONS = {
  /** A personal challenge: its counter (0..goal), completed (`unclaimed`) or put back (`unlocked`). */
  challenge: userObjectCorrection<{ challengeId: string; counter?: number; state?: "unclaimed" | "unlocked" }>(
    "challenge",
  ),
  /** A battle-pass level challenge: its counter (0..goal) or completed. */
  battlePassLevelChallenge: userObjectCorrection<{
    battlePassId: string;
    challengeId: string;
    counter?: number;
    complete?: boolean;
  }>("battle-pass-level-challenge"),
  /** A battle pass unlocked for the player, as their purchase would (price 0). */
  battlePassUnlock: userObjectCorrection<{ battlePassId: string }>("battle-pass-unlock"),
  /** A member's score on a leaderboard, in the current season (the leaderboards' plugin). */
  leaderboardScore: areaCorrection<{ leaderboardId: string; memberType: MemberType; score: number }>(
    "leaderboard-score",
    { deliverFor: (env) => (changes) => dispatchChanges(env, changes) },
  ),
};

/** The target of a correction of one player. */
export const playerTarget = (appId: string | number, userId: string): CorrectionTarget => ({
  appId: String(appId),
  resource: PLAYER_RESOURCE,
  resourceId: userId,
});

/** The target of a correction of a leaderboard member: a player, or a team. */
export const memberTarget = (appId: string | number, memberType: MemberType, memberId: string): CorrectionTarget => ({
  appId: String(appId),
  resource: memberType === "user" ? PLAYER_RESOURCE : "team",
  resourceId: memberId,
});
