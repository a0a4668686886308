import { requireRewardSystems } from "../../apps/points-rewards";
import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import {
  bearerSecurity,
  errorResponses,
  jsonBody,
  jsonResponse,
  pathId,
  keyConflictResponse,
} from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { checkRewardWebhookUrl } from "./reward-url";
import {
  deleteLevel,
  deletePass,
  insertLevel,
  insertPass,
  levelIdsInOrder,
  listLevels,
  listPasses,
  presentLevelAdmin,
  presentPassAdmin,
  requireLevel,
  requirePass,
  setLevelOrder,
  updateLevel,
  updatePass,
} from "./repo";
import { BattlePassAdmin, BattlePassInput, LevelAdmin, LevelInput, LevelOrder } from "./schemas";
import { requestActor } from "../../apps/actor";

const tags = ["Admin: battle passes"];
const security = bearerSecurity.admin;
const PassParams = z.object({ appId: pathId("appId"), battlePassId: pathId("battlePassId") });
const LevelParams = PassParams.extend({ levelId: pathId("levelId") });
const passes = "/api/v1/admin/apps/{appId}/battle-passes";
const levels = `${passes}/{battlePassId}/levels`;

async function levelOf(db: D1Database, params: z.infer<typeof LevelParams>) {
  const app = await requireApp(db, params.appId);
  const pass = await requirePass(db, app.app_id, params.battlePassId);
  return { app, pass, level: await requireLevel(db, pass, params.levelId) };
}

export const battlePassesAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createBattlePass",
      method: "post",
      path: passes,
      tags,
      security,
      summary: "Create a battle pass",
      request: { params: z.object({ appId: pathId("appId") }), ...jsonBody(BattlePassInput) },
      responses: {
        201: jsonResponse(BattlePassAdmin, "The new battle pass"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const row = await insertPass(c.env.DB, app.app_id, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentPassAdmin(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listBattlePasses",
      method: "get",
      path: passes,
      tags,
      security,
      summary: "List battle passes",
      request: { params: z.object({ appId: pathId("appId") }), query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(BattlePassAdmin), "A page of battle passes"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listPasses(c.env.DB, app.app_id, paging);
      return c.json({ items: rows.map(presentPassAdmin), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "adminGetBattlePass",
      method: "get",
      path: `${passes}/{battlePassId}`,
      tags,
      security,
      summary: "Get a battle pass",
      request: { params: PassParams },
      responses: { 200: jsonResponse(BattlePassAdmin, "The battle pass"), ...errorResponses },
    }),
    async (c) => {
      const params = c.req.valid("param");
      const app = await requireApp(c.env.DB, params.appId);
      return c.json(presentPassAdmin(await requirePass(c.env.DB, app.app_id, params.battlePassId)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceBattlePass",
      method: "put",
      path: `${passes}/{battlePassId}`,
      tags,
      security,
      summary: "Replace a battle pass",
      description:
        "Users keep their progress. Moving end_date into the future lets the pass expire (and notify) again.",
      request: { params: PassParams, ...jsonBody(BattlePassInput) },
      responses: {
        200: jsonResponse(BattlePassAdmin, "The updated battle pass"),
        ...errorResponses,
        ...keyConflictResponse,
      },
    }),
    async (c) => {
      const params = c.req.valid("param");
      const app = await requireApp(c.env.DB, params.appId);
      const pass = await requirePass(c.env.DB, app.app_id, params.battlePassId);
      const row = await updatePass(c.env.DB, pass, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentPassAdmin(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteBattlePass",
      method: "delete",
      path: `${passes}/{battlePassId}`,
      tags,
      security,
      summary: "Delete a battle pass with its levels",
      request: { params: PassParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const params = c.req.valid("param");
      const app = await requireApp(c.env.DB, params.appId);
      const pass = await requirePass(c.env.DB, app.app_id, params.battlePassId);
      await deletePass(c.env.DB, pass, requestActor(c));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "createBattlePassLevel",
      method: "post",
      path: levels,
      tags,
      security,
      summary: "Add a level with its challenges",
      request: { params: PassParams, ...jsonBody(LevelInput) },
      responses: { 201: jsonResponse(LevelAdmin, "The new level"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const params = c.req.valid("param");
      const input = c.req.valid("json");
      checkRewardWebhookUrl(c.env, input.reward_webhook_url);
      const app = await requireApp(c.env.DB, params.appId);
      const pass = await requirePass(c.env.DB, app.app_id, params.battlePassId);
      await requireRewardSystems(c.env.DB, app.app_id, input.points_rewards);
      const levelId = await insertLevel(c.env.DB, pass, input, toIso(c.get("now")), requestActor(c));
      const level = await requireLevel(c.env.DB, pass, String(levelId));
      return c.json(presentLevelAdmin(level.row, level.challenges), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listBattlePassLevels",
      method: "get",
      path: levels,
      tags,
      security,
      summary: "List the levels of a battle pass, in position order",
      request: { params: PassParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(LevelAdmin), "A page of levels"), ...errorResponses },
    }),
    async (c) => {
      const params = c.req.valid("param");
      const paging = c.req.valid("query");
      const app = await requireApp(c.env.DB, params.appId);
      const pass = await requirePass(c.env.DB, app.app_id, params.battlePassId);
      return c.json({ ...(await listLevels(c.env.DB, pass, paging)), ...paging }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getBattlePassLevel",
      method: "get",
      path: `${levels}/{levelId}`,
      tags,
      security,
      summary: "Get a level",
      request: { params: LevelParams },
      responses: { 200: jsonResponse(LevelAdmin, "The level"), ...errorResponses },
    }),
    async (c) => {
      const { level } = await levelOf(c.env.DB, c.req.valid("param"));
      return c.json(presentLevelAdmin(level.row, level.challenges), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceBattlePassLevel",
      method: "put",
      path: `${levels}/{levelId}`,
      tags,
      security,
      summary: "Replace a level",
      description:
        "Challenges that carry the challenge_id of an existing challenge of the level are updated in place and users keep their progress in them; the others are new; existing challenges left out are deleted.",
      request: { params: LevelParams, ...jsonBody(LevelInput) },
      responses: { 200: jsonResponse(LevelAdmin, "The updated level"), ...errorResponses, ...keyConflictResponse },
    }),
    async (c) => {
      const input = c.req.valid("json");
      checkRewardWebhookUrl(c.env, input.reward_webhook_url);
      const { pass, level } = await levelOf(c.env.DB, c.req.valid("param"));
      await requireRewardSystems(c.env.DB, pass.app_id, input.points_rewards);
      await updateLevel(c.env.DB, level.row, level.challenges, input, toIso(c.get("now")), requestActor(c));
      const updated = await requireLevel(c.env.DB, pass, String(level.row.level_id));
      return c.json(presentLevelAdmin(updated.row, updated.challenges), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteBattlePassLevel",
      method: "delete",
      path: `${levels}/{levelId}`,
      tags,
      security,
      summary: "Delete a level with its challenges",
      request: { params: LevelParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { level } = await levelOf(c.env.DB, c.req.valid("param"));
      await deleteLevel(c.env.DB, level, requestActor(c));
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "reorderBattlePassLevels",
      method: "put",
      path: `${passes}/{battlePassId}/level-order`,
      tags,
      security,
      summary: "Reorder the levels of a battle pass",
      description:
        "level_ids names every level of the pass once, in the new order; their level_priority becomes 0, 1, 2, ... Users keep their progress.",
      request: { params: PassParams, ...jsonBody(LevelOrder) },
      responses: { 200: jsonResponse(LevelOrder, "The levels in their new order"), ...errorResponses },
    }),
    async (c) => {
      const params = c.req.valid("param");
      const app = await requireApp(c.env.DB, params.appId);
      const pass = await requirePass(c.env.DB, app.app_id, params.battlePassId);
      await setLevelOrder(c.env.DB, pass, c.req.valid("json").level_ids, toIso(c.get("now")), requestActor(c));
      return c.json({ level_ids: await levelIdsInOrder(c.env.DB, pass) }, 200);
    },
  );
