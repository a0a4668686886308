import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { requestActor } from "../../apps/actor";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import {
  bearerSecurity,
  errorResponses,
  jsonBody,
  jsonResponse,
  keyConflictResponse,
  pathId,
} from "../../shared/openapi";
import { PagingQuery, pageOf, pageOffset } from "../../shared/paging";
import { deleteLeague, insertLeague, listLeagues, presentLeagueRow, requireLeague, updateLeague } from "./repo";
import { LeagueAdmin, LeagueInput } from "./schemas";

const tags = ["Admin: leagues"];
const security = bearerSecurity.admin;
const leagues = "/api/v1/admin/apps/{appId}/leagues";
const AppParams = z.object({ appId: pathId("appId") });
const LeagueParams = AppParams.extend({ leagueId: pathId("leagueId") });

const EXAMPLE = {
  key: "weekly-xp",
  name: { en: "Weekly league", de: "Wochenliga" },
  event_name: "earn-xp",
  value_field: "xp",
  aggregation: "sum",
  tiers: [
    { key: "bronze", name: "Bronze" },
    { key: "silver", name: "Silver" },
    { key: "gold", name: "Gold" },
  ],
  cohort_size: 30,
  promote: 5,
  demote: 5,
  schedule: { period: "weekly", reset_at_time: "00:00:00", time_zone: "Europe/Berlin" },
  rewards: [{ tier: null, rank_min: 1, rank_max: 3, points_rewards: [{ system: "coins", amount: 100 }] }],
};

export const leaguesAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createLeague",
      method: "post",
      path: leagues,
      tags,
      security,
      summary: "Create a league (weekly cohorts in tiers, with promotion and relegation)",
      description:
        "Players join the current season at their first qualifying event, into the open cohort of their tier. 409 when the key is " +
        "taken in the app; 400 when promote + demote exceed cohort_size or a reward names a tier or points system that does not exist.",
      request: {
        params: AppParams,
        ...jsonBody(LeagueInput, "The league", {
          weekly: { summary: "A weekly league of three tiers", value: EXAMPLE },
        }),
      },
      responses: { 201: jsonResponse(LeagueAdmin, "The new league"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const row = await insertLeague(c.env.DB, app.app_id, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentLeagueRow(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listLeagues",
      method: "get",
      path: leagues,
      tags,
      security,
      summary: "List leagues",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(LeagueAdmin), "A page of leagues"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listLeagues(c.env.DB, app.app_id, paging.pageSize, pageOffset(paging));
      return c.json({ items: rows.map(presentLeagueRow), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getLeague",
      method: "get",
      path: `${leagues}/{leagueId}`,
      tags,
      security,
      summary: "Get a league",
      request: { params: LeagueParams },
      responses: { 200: jsonResponse(LeagueAdmin, "The league"), ...errorResponses },
    }),
    async (c) => {
      const { appId, leagueId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(presentLeagueRow(await requireLeague(c.env.DB, app.app_id, leagueId)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceLeague",
      method: "put",
      path: `${leagues}/{leagueId}`,
      tags,
      security,
      summary: "Replace a league",
      description:
        "Tiers, cohort size, promote, demote and rewards apply from the next season: a running season keeps the rules it started with. " +
        "The events counted (event_name, filters, value_field, bounds) apply from now on.",
      request: { params: LeagueParams, ...jsonBody(LeagueInput) },
      responses: { 200: jsonResponse(LeagueAdmin, "The league"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const { appId, leagueId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const current = await requireLeague(c.env.DB, app.app_id, leagueId);
      const row = await updateLeague(c.env.DB, current, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentLeagueRow(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteLeague",
      method: "delete",
      path: `${leagues}/{leagueId}`,
      tags,
      security,
      summary: "Delete a league",
      description: "Its seasons, cohorts and results are removed by the cron; nothing counts for it any more.",
      request: { params: LeagueParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, leagueId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      await deleteLeague(c.env.DB, await requireLeague(c.env.DB, app.app_id, leagueId), requestActor(c));
      return c.body(null, 204);
    },
  );
