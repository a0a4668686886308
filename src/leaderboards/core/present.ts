import type { UserInfo } from "../../auth/user-info";
import { toIso } from "../../shared/clock";
import { localize } from "../../shared/localize";
import type { LeaderboardDef, MemberType } from "../catalog";
import { UNRANKED, type RankedRow } from "./ranking";
import { currentSeason, nextReset } from "./season";
import type { MemberMetadata } from "../schemas";

/** Turns board rows into SCILL's v1 and v2 shapes. */

const NO_INFO: UserInfo = { username: null, avatarImage: null };

export interface Presentation {
  language: string | undefined;
  defaultLanguage: string;
  now: number;
  /** User info of the users on the rows being presented (teams have none). */
  infos: Map<string, UserInfo>;
}

/** A member's row as the reads make it; a member without a score has score 0 and rank -1 (unrankedRow). */
export interface MemberRow {
  memberType: MemberType;
  memberId: string;
  score: number;
  rank: number;
}

export const rowOf = (memberType: MemberType, row: RankedRow): MemberRow => ({ memberType, ...row });
export const unrankedRow = (memberType: MemberType, memberId: string): MemberRow => ({
  memberType,
  memberId,
  score: 0,
  rank: UNRANKED,
});

export function presentRanking(row: MemberRow, p: Presentation) {
  return {
    member_id: row.memberId,
    member_type: row.memberType,
    score: row.score,
    rank: row.rank,
    additional_info: row.memberType === "user" ? (p.infos.get(row.memberId) ?? NO_INFO) : NO_INFO,
  };
}

export const presentRankingV2 = (row: MemberRow, p: Presentation) => {
  const { additional_info, ...rest } = presentRanking(row, p);
  const metadata_results: MemberMetadata[] = [];
  return { ...rest, metadata_results, additional_info };
};

const boardName = (board: LeaderboardDef, p: Presentation) => localize(board.name, p.language, p.defaultLanguage);

function nextResetOf(board: LeaderboardDef, now: number): { nextReset?: string } {
  const next = nextReset(board, now);
  return next === null ? {} : { nextReset: toIso(next) };
}

export const v1Head = (board: LeaderboardDef, p: Presentation) => ({
  leaderboard_id: board.id,
  name: boardName(board, p),
});

export const v2Head = (board: LeaderboardDef, p: Presentation) => ({
  leaderboard_id: board.id,
  leaderboard_name: boardName(board, p),
  leaderboard_sort_order_ascending: board.ascending,
});

export const withNextReset = <T extends object>(head: T, board: LeaderboardDef, now: number) => ({
  ...head,
  ...nextResetOf(board, now),
});

/** The admin view of a board. */
export function presentAdmin(board: LeaderboardDef, now: number) {
  const next = nextReset(board, now);
  return {
    leaderboard_id: board.id,
    app_id: board.appId,
    key: board.key,
    name: board.name,
    event_name: board.pointsSystem === null ? board.eventName : "",
    ...(board.pointsSystem === null ? {} : { points_system: board.pointsSystem }),
    value_field: board.valueField,
    filters: board.filters,
    aggregation: board.aggregation,
    sort_order_ascending: board.ascending,
    period_range: board.periodRange,
    period_range_reset_at_time: board.resetAtTime,
    period_range_time_zone: board.timeZone,
    season_started_at: toIso(currentSeason(board, now)),
    nextReset: next === null ? null : toIso(next),
    authoritative: board.authoritative,
    min_value: board.minValue,
    max_value: board.maxValue,
    max_events_per_minute: board.maxEventsPerMinute,
    created_at: board.createdAt,
    updated_at: board.updatedAt,
  };
}

/** One page of a board's users and teams, with its member counts. */
export interface BoardPage {
  board: LeaderboardDef;
  rows: Record<MemberType, MemberRow[]>;
  counts: Record<MemberType, number>;
}

export const presentV1 = ({ board, rows, counts }: BoardPage, p: Presentation) =>
  withNextReset(
    {
      ...v1Head(board, p),
      grouped_by_users: rows.user.map((r) => presentRanking(r, p)),
      grouped_by_teams: rows.team.map((r) => presentRanking(r, p)),
      num_users: counts.user,
      num_teams: counts.team,
    },
    board,
    p.now,
  );

export const presentV2 = ({ board, rows, counts }: BoardPage, p: Presentation) =>
  withNextReset(
    {
      ...v2Head(board, p),
      leaderboard_results_by_member_type: {
        user: { count: counts.user, members: rows.user.map((r) => presentRankingV2(r, p)) },
        team: { count: counts.team, members: rows.team.map((r) => presentRankingV2(r, p)) },
      },
    },
    board,
    p.now,
  );
