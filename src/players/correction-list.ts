import { PLAYER_RESOURCE } from "../apps/audit-log";
import { dispatchChanges } from "../fanout/dispatch";
import type { MemberType } from "../leaderboards/catalog";
import { setMemberScore } from "../leaderboards/review";
import { userObjectCorrection, type Correction, type CorrectionTarget } from "./corrections";

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
  /** A member's score on a leaderboard, in the current season. */
  leaderboardScore: {
    name: "leaderboard-score",
    async run(env, target, input, now) {
      const { before, after } = await setMemberScore(
        env.DB,
        target.appId,
        input.leaderboardId,
        input.memberType,
        target.resourceId,
        input.score,
        now,
        (changes) => dispatchChanges(env, changes),
      );
      return { ok: true, before, after };
    },
  } satisfies Correction<{ leaderboardId: string; memberType: MemberType; score: number }>,
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
