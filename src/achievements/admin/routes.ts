import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { requestActor } from "../../apps/actor";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import {
  bearerSecurity,
  conflictResponse,
  errorResponses,
  jsonBody,
  jsonResponse,
  keyConflictResponse,
  pathId,
} from "../../shared/openapi";
import { PagingQuery, pageOf, pageOffset } from "../../shared/paging";
import {
  deleteAchievement,
  insertAchievement,
  listAchievements,
  presentAchievementRow,
  requireAchievement,
  updateAchievement,
} from "./repo";
import { AchievementAdmin, AchievementInput } from "./schemas";

const tags = ["Admin: achievements"];
const security = bearerSecurity.admin;
const collection = "/api/v1/admin/apps/{appId}/achievements";
const AppParams = z.object({ appId: pathId("appId") });
const AchievementParams = AppParams.extend({ achievementId: pathId("achievementId") });

const EXAMPLES = {
  ladder: {
    summary: "A rung of a ladder: 100 kills",
    value: {
      key: "kills-100",
      name: { en: "Centurion", de: "Zenturio" },
      kind: "metric",
      event_name: "kill-enemy",
      aggregation: "count",
      threshold: 100,
      points_rewards: [{ system: "xp", amount: 50 }],
    },
  },
  hidden: {
    summary: "A hidden achievement the studio's backend grants",
    value: {
      key: "secret-room",
      name: "Explorer",
      description: "Found the secret room",
      hidden: true,
      hidden_description: "Some doors are not what they seem",
      kind: "manual",
    },
  },
  composite: {
    summary: "Held when both are",
    value: { key: "veteran", name: "Veteran", kind: "composite", requires: ["kills-100", "secret-room"] },
  },
};

const DESCRIPTION =
  "Players' progress and holdings live in their objects. A metric achievement without filters and value_field reads the " +
  "players' running totals of its event, kept from before it existed: every player who already reached its threshold holds it " +
  "at their next request or event (also when it is activated later). With filters or a value_field it counts from its creation. " +
  "400 when a composite names a key the app does not have, when requirements would go round, or when points_rewards names a " +
  "system the app does not have; 409 when the key is taken in the app.";

export const achievementsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createAchievement",
      method: "post",
      path: collection,
      tags,
      security,
      summary: "Create an achievement (metric, manual or composite)",
      description: DESCRIPTION,
      request: { params: AppParams, ...jsonBody(AchievementInput, "The achievement", EXAMPLES) },
      responses: {
        201: jsonResponse(AchievementAdmin, "The new achievement"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const row = await insertAchievement(
        c.env.DB,
        app.app_id,
        c.req.valid("json"),
        toIso(c.get("now")),
        requestActor(c),
      );
      return c.json(presentAchievementRow(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listAchievements",
      method: "get",
      path: collection,
      tags,
      security,
      summary: "List achievements, in the players' order",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(AchievementAdmin), "A page of achievements"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listAchievements(c.env.DB, app.app_id, paging.pageSize, pageOffset(paging));
      return c.json({ items: rows.map(presentAchievementRow), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getAchievement",
      method: "get",
      path: `${collection}/{achievementId}`,
      tags,
      security,
      summary: "Get an achievement",
      request: { params: AchievementParams },
      responses: { 200: jsonResponse(AchievementAdmin, "The achievement"), ...errorResponses },
    }),
    async (c) => {
      const { appId, achievementId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(presentAchievementRow(await requireAchievement(c.env.DB, app.app_id, achievementId)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceAchievement",
      method: "put",
      path: `${collection}/{achievementId}`,
      tags,
      security,
      summary: "Replace an achievement",
      description:
        "Holders keep it. Locking keeps the holders and earns no new ones; inactive hides it from players. Activating it, or " +
        "lowering its threshold, awards it at once to players who qualify (at their next request or event). A metric counting on " +
        "its own (filters, value_field) starts again when what it counts changes. 409 when composites require the key it gives up.",
      request: { params: AchievementParams, ...jsonBody(AchievementInput) },
      responses: {
        200: jsonResponse(AchievementAdmin, "The achievement"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const { appId, achievementId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const current = await requireAchievement(c.env.DB, app.app_id, achievementId);
      const row = await updateAchievement(c.env.DB, current, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentAchievementRow(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteAchievement",
      method: "delete",
      path: `${collection}/{achievementId}`,
      tags,
      security,
      summary: "Delete an achievement",
      description:
        "Players no longer see it, and its holder count goes with it. 409 while a composite requires it (`errors` names them).",
      request: { params: AchievementParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const { appId, achievementId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      await deleteAchievement(c.env.DB, await requireAchievement(c.env.DB, app.app_id, achievementId), requestActor(c));
      return c.body(null, 204);
    },
  );
