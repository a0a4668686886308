import type { Correction, RouteWiring } from "../kit/area";
import type { MemberType } from "./catalog";
import { setMemberScore } from "./review";

/** A member's score on a leaderboard, in the current season, set by an operator (src/players/corrections.ts). */
export const leaderboardScoreCorrection = (wiring: RouteWiring) =>
  ({
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
        wiring.deliverFor(env),
      );
      return { ok: true, before, after };
    },
  }) satisfies Correction<{ leaderboardId: string; memberType: MemberType; score: number }>;
