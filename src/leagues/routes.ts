import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { callerApp, requireTokenOrKey } from "../auth/middleware";
import { appTrust, refuseBanned } from "../auth/trust";
import { toIso } from "../shared/clock";
import { DomainError, invalid, notFound } from "../shared/domain-errors";
import { createRouter, type AppEnv } from "../shared/http";
import {
  bearerSecurity,
  conflictResponse,
  errorResponses,
  forbiddenResponse,
  jsonResponse,
  pathId,
} from "../shared/openapi";
import { leaguesCatalog } from "./catalog";
import { presentResult } from "./core/changes";
import { playerLeague } from "./player-league";
import { ClaimAnswer, PlayerLeagueSchema } from "./schemas";
import { userLeagues } from "./user-leagues";

/** The leagues' player API: the player's league (access token, or API key naming the user) and the claim of a result. */

const tags = ["Leagues"];
type Ctx = Context<AppEnv>;

const UserQuery = z.object({
  user_id: z.string().min(1).max(256).optional().openapi({
    description: "With an API key: the player. With an access token: not allowed (the token names the player)",
    example: "player-42",
  }),
  language: z.string().max(20).optional().openapi({ description: "Language of names; default: the app's language" }),
});
const LeagueParams = z.object({ appId: pathId("appId"), leagueId: pathId("leagueId") });

/** The player a request is about: the token's, or with an API key the `user_id` of the query. */
export function requestUser(c: Ctx, userId: string | undefined): string {
  const caller = c.get("caller");
  if (caller.kind === "access-token") {
    if (userId !== undefined)
      throw invalid("user_id must not be sent with an access token: the token names the user", [
        { field: "user_id", problem: "not allowed with an access token" },
      ]);
    return caller.userId;
  }
  if (userId === undefined)
    throw invalid("user_id is required with an API key", [{ field: "user_id", problem: "required with an API key" }]);
  return userId;
}

async function requireLeagueDef(c: Ctx, appId: string, leagueId: string) {
  const catalog = await leaguesCatalog(c.env.DB, appId);
  const league = catalog.byId.get(leagueId);
  if (!league) throw notFound(`League ${leagueId} not found`);
  return { catalog, league };
}

export const leagueRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "getPlayerLeague",
      method: "get",
      path: "/api/v1/leagues/{appId}/{leagueId}",
      tags,
      security: bearerSecurity.tokenOrKey,
      summary: "The player's league: the current season, their tier, their cohort's standings and their last result",
      description:
        "`cohort` is null until the player's first qualifying event of the season is placed in a cohort (off the request path, " +
        "within moments). Banned players are hidden from standings. `last_result` is the last season the player finished, " +
        "claimable once until the next season ends.",
      middleware: [requireTokenOrKey] as const,
      request: { params: LeagueParams, query: UserQuery },
      responses: { 200: jsonResponse(PlayerLeagueSchema, "The player's league"), ...errorResponses },
    }),
    async (c) => {
      const { appId: appParam, leagueId } = c.req.valid("param");
      const query = c.req.valid("query");
      const appId = callerApp(c, appParam);
      const userId = requestUser(c, query.user_id);
      const { catalog, league } = await requireLeagueDef(c, appId, leagueId);
      return c.json(
        await playerLeague(c.env, appId, league, userId, c.get("now"), query.language, catalog.defaultLanguage),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "claimLeagueResult",
      method: "post",
      path: "/api/v1/leagues/{appId}/{leagueId}/claim",
      tags,
      security: bearerSecurity.tokenOrKey,
      summary: "Claim the rewards of the player's last league result",
      description:
        "Once per result: its `points_rewards` are credited to the app's points systems (systems that no longer exist are skipped). " +
        "404 without a result; 409 when it is already claimed or the next season has ended; 403 for a banned player.",
      middleware: [requireTokenOrKey] as const,
      request: { params: LeagueParams, query: UserQuery.pick({ user_id: true }) },
      responses: {
        200: jsonResponse(ClaimAnswer, "The result, now claimed"),
        ...errorResponses,
        ...forbiddenResponse("The player is banned"),
        ...conflictResponse,
      },
    }),
    async (c) => {
      const { appId: appParam, leagueId } = c.req.valid("param");
      const appId = callerApp(c, appParam);
      const userId = requestUser(c, c.req.valid("query").user_id);
      await requireLeagueDef(c, appId, leagueId);
      refuseBanned(await appTrust(c.env.DB, appId), userId, c.get("now"));
      const outcome = await userLeagues(c.env, appId, userId).claim(appId, userId, leagueId, c.get("now"));
      if (!outcome.ok) throw new DomainError(outcome.kind, outcome.message);
      return c.json(
        { ...presentResult(outcome.result), claimed: true, claimable_until: toIso(outcome.claimableUntil) },
        200,
      );
    },
  );
