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
import { deleteSystem, insertSystem, listSystems, presentSystemRow, requireSystem, updateSystem } from "./repo";
import { PointsSystemAdmin, PointsSystemInput } from "./schemas";
import { adjustPoints } from "../adjust";
import { AdjustmentAnswer, AdjustmentInput, SystemKeyParam } from "../schemas";

const tags = ["Admin: points"];
const security = bearerSecurity.admin;
const systems = "/api/v1/admin/apps/{appId}/points-systems";
const AppParams = z.object({ appId: pathId("appId") });
const SystemParams = AppParams.extend({ systemId: pathId("systemId") });

const EXAMPLE = {
  key: "xp",
  name: { en: "Experience", de: "Erfahrung" },
  credits_challenge_xp: true,
  levels: [
    { level: 1, name: "Rookie", points: 0 },
    { level: 2, name: "Apprentice", points: 100 },
    { level: 3, name: "Veteran", points: 500 },
  ],
  triggers: [{ event_name: "kill-enemy", every: 10, points: 5 }],
};

export const pointsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createPointsSystem",
      method: "post",
      path: systems,
      tags,
      security,
      summary: "Create a points system (XP, karma, coins...)",
      description:
        "Players' balances, levels and ledgers of the system live in their objects. 409 when the key is taken in the app, or when " +
        "`credits_challenge_xp` is set and another system of the app has it (`errors` names the field).",
      request: {
        params: AppParams,
        ...jsonBody(PointsSystemInput, "The points system", {
          xp: { summary: "Experience with three levels", value: EXAMPLE },
        }),
      },
      responses: {
        201: jsonResponse(PointsSystemAdmin, "The new points system"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const row = await insertSystem(c.env.DB, app.app_id, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentSystemRow(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listPointsSystems",
      method: "get",
      path: systems,
      tags,
      security,
      summary: "List points systems",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(PointsSystemAdmin), "A page of points systems"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listSystems(c.env.DB, app.app_id, paging.pageSize, pageOffset(paging));
      return c.json({ items: rows.map(presentSystemRow), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getPointsSystem",
      method: "get",
      path: `${systems}/{systemId}`,
      tags,
      security,
      summary: "Get a points system",
      request: { params: SystemParams },
      responses: { 200: jsonResponse(PointsSystemAdmin, "The points system"), ...errorResponses },
    }),
    async (c) => {
      const { appId, systemId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      return c.json(presentSystemRow(await requireSystem(c.env.DB, app.app_id, systemId)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replacePointsSystem",
      method: "put",
      path: `${systems}/{systemId}`,
      tags,
      security,
      summary: "Replace a points system",
      description:
        "Applies from now on: balances stay as they are (a new key starts balances of its own), levels follow the new thresholds at once, " +
        "a trigger's units carried from earlier events are kept while its place in the list stays.",
      request: { params: SystemParams, ...jsonBody(PointsSystemInput) },
      responses: {
        200: jsonResponse(PointsSystemAdmin, "The points system"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const { appId, systemId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const current = await requireSystem(c.env.DB, app.app_id, systemId);
      const row = await updateSystem(c.env.DB, current, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentSystemRow(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deletePointsSystem",
      method: "delete",
      path: `${systems}/{systemId}`,
      tags,
      security,
      summary: "Delete a points system",
      description:
        "Nothing is credited to it any more (rewards naming it are skipped); players' balances and ledgers stay in their objects, " +
        "where a system created again with the same key finds them.",
      request: { params: SystemParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, systemId } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      await deleteSystem(c.env.DB, await requireSystem(c.env.DB, app.app_id, systemId), requestActor(c));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "adjustUserPoints",
      method: "post",
      path: "/api/v1/admin/apps/{appId}/users/{userId}/points/{systemKey}/adjust",
      tags: ["Admin: corrections"],
      security,
      summary: "Adjust a player's balance in a points system",
      description:
        "A correction: needs a reason, is written to the audit log (`correct-points-adjust`) with the balance before and after, and " +
        "sends the `points-changed` webhook and MQTT message a change of the balance sends. On any system (spendable or not); a positive " +
        "amount is capped by max_balance, a negative one lowers the balance and the points earned and answers 409 when the balance is short.",
      request: {
        params: AppParams.extend({
          userId: z
            .string()
            .min(1)
            .max(256)
            .openapi({ param: { name: "userId", in: "path" }, example: "player-42" }),
          systemKey: SystemKeyParam,
        }),
        ...jsonBody(AdjustmentInput),
      },
      responses: { 200: jsonResponse(AdjustmentAnswer, "The adjustment made"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const { appId, userId, systemKey } = c.req.valid("param");
      const app = await requireApp(c.env.DB, appId);
      const { amount, reason } = c.req.valid("json");
      return c.json(
        await adjustPoints(
          c.env,
          String(app.app_id),
          userId,
          systemKey,
          { amount, reason },
          c.get("now"),
          requestActor(c),
        ),
        200,
      );
    },
  );
