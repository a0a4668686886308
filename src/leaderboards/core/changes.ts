import type { UserInfo } from "../../auth/user-info";
import type { Change } from "../../changes/types";
import { localize } from "../../shared/localize";
import type { LeaderboardDef, MemberType } from "../catalog";
import { UNRANKED } from "./ranking";

/** A member whose score a batch changed, with its standing before and after the batch. */
export interface ScoreChange {
  boardId: string;
  memberType: MemberType;
  memberId: string;
  /** Null when the member had no score in the season before the batch. */
  oldScore: number | null;
  oldRank: number | null;
  newScore: number;
  newRank: number;
}

/**
 * The `leaderoard-updated` change (the spec's spelling) of one member on one board. The payload
 * is SCILL's leaderboard update payload (LeaderboardV2UpdatePayload, which the SCILL SDK's
 * LeaderboardUpdateMonitor is typed for): the board's info, the member's row, and its score and
 * rank before and after. A member without a score before has score 0 and rank -1 as "old".
 * One change per member and board per applied batch: a burst of events is coalesced.
 */
export function leaderboardChange(
  board: LeaderboardDef,
  defaultLanguage: string,
  change: ScoreChange,
  info: UserInfo | null,
): Change {
  const name = localize(board.name, undefined, defaultLanguage);
  return {
    appId: board.appId,
    webhookType: "leaderoard-updated",
    topic: { kind: "leaderboard", appId: board.appId, leaderboardId: board.id },
    userId: change.memberType === "user" ? change.memberId : null,
    payload: {
      webhook_type: "leaderoard-updated",
      leaderboard_data: {
        app_id: board.appId,
        leaderboard_id: board.id,
        leaderboard_name: name,
        name,
        event_type: board.pointsSystem ?? board.eventName,
        sort_order_ascending: board.ascending,
      },
      member_data: {
        member_id: change.memberId,
        member_type: change.memberType,
        score: change.newScore,
        rank: change.newRank,
        additional_info: info ?? { username: null, avatarImage: null },
      },
      old_leaderboard_ranking: { score: change.oldScore ?? 0, rank: change.oldRank ?? UNRANKED },
      new_leaderboard_ranking: { score: change.newScore, rank: change.newRank },
    },
  };
}
