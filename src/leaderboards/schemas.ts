import { z } from "@hono/zod-openapi";
import { UserInfoSchema } from "../auth/schemas";
import { PagingQuery } from "../shared/paging";
import { MEMBER_TYPES } from "./catalog";

/** Zod schemas of the player-side leaderboard endpoints: SCILL v1 and v2 shapes (admin: ./admin/schemas.ts). */

export const MemberTypeParam = z
  .enum(MEMBER_TYPES)
  .openapi({ param: { name: "memberType", in: "path" }, example: "user" });

const LanguageParam = z
  .string()
  .max(20)
  .optional()
  .openapi({ description: "Language of the board names (e.g. en, de)", example: "en" });
export const LanguageQuery = z.object({ language: LanguageParam });
export const BoardQuery = PagingQuery.extend({ language: LanguageParam });

/** SCILL v2's query: its filters by date and aggregate are accepted and ignored (see the route descriptions). */
export const BoardQueryV2 = BoardQuery.extend({
  currentPosition: z.coerce.number().int().min(1).optional().openapi({
    description: "1-based position of the first row; overrides currentPage",
  }),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  aggregate: z.string().optional(),
});
export const MemberQueryV2 = LanguageQuery.extend({
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  aggregate: z.string().optional(),
});

export const MAX_AROUND_RANGE = 50;
export const AroundQuery = LanguageQuery.extend({
  range: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_AROUND_RANGE)
    .default(5)
    .openapi({
      description: `Rows before and after the member (0..${MAX_AROUND_RANGE}, default 5)`,
    }),
});

const NO_SCORE =
  "A member without a score in the current season is answered, not refused: score 0 and rank -1 (SCILL's convention).";
const RANKING_DESCRIPTION =
  "Equal scores share a rank and the next score skips the shared places (competition ranking: 1, 1, 3); " +
  "equal scores are listed by member id. " +
  NO_SCORE;

const rankingFields = {
  member_id: z.string(),
  member_type: z.enum(MEMBER_TYPES),
  score: z.number().int(),
  rank: z.number().int().openapi({ description: "Position in the board; -1 when the member has no score yet" }),
};

export const LeaderboardRanking = z
  .object({ ...rankingFields, additional_info: UserInfoSchema })
  .openapi("LeaderboardRanking", { description: RANKING_DESCRIPTION });

const nextResetField = {
  nextReset: z
    .string()
    .optional()
    .openapi({ description: "Start of the next season (ISO 8601); only on boards with a reset schedule" }),
};

export const Leaderboard = z
  .object({
    leaderboard_id: z.string(),
    name: z.string(),
    grouped_by_users: z.array(LeaderboardRanking),
    grouped_by_teams: z
      .array(LeaderboardRanking)
      .openapi({ description: "Rows of teams: only teams named in events (team_id)" }),
    num_users: z.number().int(),
    num_teams: z.number().int(),
    ...nextResetField,
  })
  .openapi("Leaderboard");

export const LeaderboardMemberRanking = z
  .object({ leaderboard_id: z.string(), name: z.string(), member: LeaderboardRanking, ...nextResetField })
  .openapi("LeaderboardMemberRanking");

export const LeaderboardAround = z
  .object({
    leaderboard_id: z.string(),
    name: z.string(),
    member: LeaderboardRanking,
    members: z.array(LeaderboardRanking).openapi({
      description: "The member's neighbourhood in board order, the member included; empty when it has no score",
    }),
    ...nextResetField,
  })
  .openapi("LeaderboardAround");

const MemberMetadata = z
  .object({ key: z.string(), ranked: z.boolean(), score: z.number().int(), rank: z.number().int() })
  .openapi("LeaderboardV2MemberMetadata");
export type MemberMetadata = z.infer<typeof MemberMetadata>;

export const LeaderboardV2Member = z
  .object({
    ...rankingFields,
    metadata_results: z
      .array(MemberMetadata)
      .openapi({ description: "Always empty: boards have no secondary rankings" }),
    additional_info: UserInfoSchema,
  })
  .openapi("LeaderboardV2Member", { description: RANKING_DESCRIPTION });

const v2Head = {
  leaderboard_id: z.string(),
  leaderboard_name: z.string(),
  leaderboard_sort_order_ascending: z.boolean(),
};

const MemberTypeRanking = z
  .object({
    count: z.number().int().openapi({ description: "Members of this type in the board" }),
    members: z.array(LeaderboardV2Member),
  })
  .openapi("LeaderboardV2MemberTypeRanking");

export const LeaderboardV2Results = z
  .object({
    ...v2Head,
    leaderboard_results_by_member_type: z.object({ user: MemberTypeRanking, team: MemberTypeRanking }),
    ...nextResetField,
  })
  .openapi("LeaderboardV2Results");

export const LeaderboardV2MemberRanking = z
  .object({ ...v2Head, leaderboard_member: LeaderboardV2Member, ...nextResetField })
  .openapi("LeaderboardV2MemberRanking");

export const LeaderboardV2Around = z
  .object({
    ...v2Head,
    leaderboard_member: LeaderboardV2Member,
    members: z.array(LeaderboardV2Member),
    ...nextResetField,
  })
  .openapi("LeaderboardV2Around");
