import { z } from "@hono/zod-openapi";
import { UserInfoSchema } from "../auth/schemas";

/** Zod schemas of the leagues' player API and payloads. */

export const Zone = z.enum(["promotion", "safe", "demotion"]);
export const Outcome = z.enum(["promoted", "stayed", "demoted"]);

export const CohortMemberSchema = z
  .object({
    member_id: z.string().openapi({ description: "The player's user id", example: "player-42" }),
    rank: z
      .number()
      .int()
      .openapi({ description: "1, 2, 3...: distinct; equal scores by who reached the score first" }),
    score: z.number().int(),
    additional_info: UserInfoSchema,
    zone: Zone.openapi({ description: "Where the rank would move the player if the season ended now" }),
  })
  .openapi("LeagueCohortMember");

export const CohortSchema = z
  .object({
    cohort_id: z.string(),
    size: z.number().int().openapi({ description: "The cohort size of the season (the cohort may hold fewer)" }),
    promote: z.number().int().openapi({ description: "How many of the cohort as it is now would move up" }),
    demote: z.number().int().openapi({ description: "How many of the cohort as it is now would move down" }),
    members: z.array(CohortMemberSchema),
  })
  .openapi("LeagueCohort");

export const ResultRewardsSchema = z
  .object({
    points_rewards: z.array(z.object({ system: z.string(), amount: z.number().int() })),
    reward: z.string().nullable(),
  })
  .nullable()
  .openapi("LeagueResultRewards", { description: "The first reward entry covering the tier and rank; null: none" });

export const ResultSchema = z
  .object({
    member_id: z.string(),
    season_id: z
      .string()
      .openapi({ description: "The season's start (ISO time)", example: "2026-11-23T00:00:00.000Z" }),
    tier: z.string().openapi({ description: "The tier's key the season was played in", example: "silver" }),
    cohort_id: z.string(),
    rank: z.number().int(),
    score: z.number().int(),
    outcome: Outcome,
    next_tier: z.string().openapi({ description: "The tier's key the player plays next", example: "gold" }),
    rewards: ResultRewardsSchema,
  })
  .openapi("LeagueResult");

export const LastResultSchema = ResultSchema.extend({
  claimed: z.boolean(),
  claimable_until: z.string().openapi({ description: "The end of the next season: the claim is refused after it" }),
}).openapi("LeagueLastResult");

export const PlayerLeagueSchema = z
  .object({
    league_id: z.string(),
    name: z.string(),
    season: z.object({ season_id: z.string(), starts_at: z.string(), ends_at: z.string() }),
    tier: z.object({
      key: z.string(),
      name: z.string(),
      index: z.number().int().openapi({ description: "0: the lowest" }),
    }),
    cohort: CohortSchema.nullable().openapi({
      description: "The player's cohort in the current season; null until their first qualifying event is placed",
    }),
    last_result: LastResultSchema.nullable(),
  })
  .openapi("PlayerLeague");

export const ClaimAnswer = LastResultSchema.openapi("LeagueClaim");
