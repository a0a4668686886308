import { z } from "@hono/zod-openapi";
import { webhookTypeField, type WebhookDoc } from "../kit/area";
import { CohortMemberSchema, ResultSchema } from "./schemas";

/** The bodies of the leagues' webhooks, for the OpenAPI document (src/fanout/webhook-docs.ts). */

const StandingsChanged = z
  .object({
    webhook_type: webhookTypeField("league-standings-changed"),
    app_id: z.string(),
    league_id: z.string(),
    season_id: z.string(),
    tier: z.string().openapi({ description: "The tier's key" }),
    cohort_id: z.string(),
    size: z.number().int(),
    promote: z.number().int(),
    demote: z.number().int(),
    members: z.array(CohortMemberSchema),
  })
  .openapi("LeagueStandingsChangedPayload");

const SeasonEnded = z
  .object({
    webhook_type: webhookTypeField("league-season-ended"),
    app_id: z.string(),
    league_id: z.string(),
    season_id: z.string(),
    tier: z.string(),
    cohort_id: z.string(),
    results: z.array(ResultSchema),
  })
  .openapi("LeagueSeasonEndedPayload");

const Result = z
  .object({
    webhook_type: webhookTypeField("league-result"),
    app_id: z.string(),
    league_id: z.string(),
    user_id: z.string(),
    ...ResultSchema.shape,
  })
  .openapi("LeagueResultPayload");

export const leagueWebhooks: WebhookDoc[] = [
  {
    type: "league-standings-changed",
    operationId: "leagueStandingsChangedWebhook",
    schema: StandingsChanged,
    summary: "The standings of a league cohort changed",
    description:
      "Beyond SCILL. One call per cohort whose standings moved in a batch of scores (a player arrived, a score changed); the same " +
      "JSON goes to the cohort's topic (GET /api/v1/auth/league-topic-link).",
  },
  {
    type: "league-season-ended",
    operationId: "leagueSeasonEndedWebhook",
    schema: SeasonEnded,
    summary: "A league season ended for one cohort",
    description:
      "Beyond SCILL. Once per cohort when the season's end decides it, with every member's result (banned players take none).",
  },
  {
    type: "league-result",
    operationId: "leagueResultWebhook",
    schema: Result,
    summary: "A player's result of a league season",
    description:
      "Beyond SCILL. One per player at the season's end; the same JSON goes to the player's notifications topic " +
      "(GET /api/v1/auth/user-notifications-topic-link).",
  },
];
