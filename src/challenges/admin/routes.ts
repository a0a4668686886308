import { requireRewardSystems } from "../../apps/points-rewards";
import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import { parseId } from "../../shared/ids";
import { bearerSecurity, conflictResponse, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import {
  createCategory,
  createChallenge,
  deleteCategory,
  deleteChallenge,
  listCategories,
  listChallenges,
  replaceCategory,
  replaceChallenge,
  requireCategory,
  requireChallenge,
} from "./repo";
import { presentCategoryRow, presentChallengeRow } from "../rows";
import { CategoryAdmin, CategoryInput, ChallengeAdmin, ChallengeInput } from "./schemas";
import { requestActor } from "../../apps/actor";

const security = bearerSecurity.admin;
const categoryTags = ["Admin: challenge categories"];
const challengeTags = ["Admin: challenges"];
const base = "/api/v1/admin/apps/{appId}";

const AppParams = z.object({ appId: pathId("appId") });
const CategoryParams = AppParams.extend({ categoryId: pathId("categoryId") });
const ChallengeParams = AppParams.extend({ challengeId: pathId("challengeId") });
const ChallengeListQuery = PagingQuery.extend({
  category_id: z.string().optional().openapi({ description: "Only the challenges of this category" }),
});

const appNumber = async (db: D1Database, appId: string) => (await requireApp(db, appId)).app_id;

export const challengesAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createChallengeCategory",
      method: "post",
      path: `${base}/challenge-categories`,
      tags: categoryTags,
      security,
      summary: "Create a challenge category",
      request: { params: AppParams, ...jsonBody(CategoryInput) },
      responses: { 201: jsonResponse(CategoryAdmin, "The new category"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const appId = await appNumber(c.env.DB, c.req.valid("param").appId);
      const row = await createCategory(c.env.DB, appId, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentCategoryRow(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listChallengeCategories",
      method: "get",
      path: `${base}/challenge-categories`,
      tags: categoryTags,
      security,
      summary: "List challenge categories by position",
      request: { params: AppParams, query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(CategoryAdmin), "A page of categories"), ...errorResponses },
    }),
    async (c) => {
      const appId = await appNumber(c.env.DB, c.req.valid("param").appId);
      const paging = c.req.valid("query");
      const { rows, total } = await listCategories(c.env.DB, appId, paging);
      return c.json({ items: rows.map(presentCategoryRow), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getChallengeCategory",
      method: "get",
      path: `${base}/challenge-categories/{categoryId}`,
      tags: categoryTags,
      security,
      summary: "Get a challenge category",
      request: { params: CategoryParams },
      responses: { 200: jsonResponse(CategoryAdmin, "The category"), ...errorResponses },
    }),
    async (c) => {
      const { appId, categoryId } = c.req.valid("param");
      const row = await requireCategory(c.env.DB, await appNumber(c.env.DB, appId), categoryId);
      return c.json(presentCategoryRow(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceChallengeCategory",
      method: "put",
      path: `${base}/challenge-categories/{categoryId}`,
      tags: categoryTags,
      security,
      summary: "Replace a challenge category",
      request: { params: CategoryParams, ...jsonBody(CategoryInput) },
      responses: { 200: jsonResponse(CategoryAdmin, "The updated category"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const { appId, categoryId } = c.req.valid("param");
      const row = await requireCategory(c.env.DB, await appNumber(c.env.DB, appId), categoryId);
      return c.json(
        presentCategoryRow(
          await replaceCategory(c.env.DB, row, c.req.valid("json"), toIso(c.get("now")), requestActor(c)),
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteChallengeCategory",
      method: "delete",
      path: `${base}/challenge-categories/{categoryId}`,
      tags: categoryTags,
      security,
      summary: "Delete an empty challenge category",
      request: { params: CategoryParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const { appId, categoryId } = c.req.valid("param");
      await deleteCategory(
        c.env.DB,
        await requireCategory(c.env.DB, await appNumber(c.env.DB, appId), categoryId),
        requestActor(c),
      );
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "createChallenge",
      method: "post",
      path: `${base}/challenges`,
      tags: challengeTags,
      security,
      summary: "Create a challenge (at most 1000 per category)",
      request: { params: AppParams, ...jsonBody(ChallengeInput) },
      responses: { 201: jsonResponse(ChallengeAdmin, "The new challenge"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const appId = await appNumber(c.env.DB, c.req.valid("param").appId);
      await requireRewardSystems(c.env.DB, appId, c.req.valid("json").points_rewards);
      const row = await createChallenge(c.env.DB, appId, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentChallengeRow(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listChallenges",
      method: "get",
      path: `${base}/challenges`,
      tags: challengeTags,
      security,
      summary: "List challenges by id",
      request: { params: AppParams, query: ChallengeListQuery },
      responses: { 200: jsonResponse(pageOf(ChallengeAdmin), "A page of challenges"), ...errorResponses },
    }),
    async (c) => {
      const appId = await appNumber(c.env.DB, c.req.valid("param").appId);
      const { category_id, ...paging } = c.req.valid("query");
      // An unknown category filter matches nothing rather than everything.
      const categoryId = category_id === undefined ? null : (parseId(category_id) ?? -1);
      const { rows, total } = await listChallenges(c.env.DB, appId, paging, categoryId);
      return c.json({ items: rows.map(presentChallengeRow), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getChallenge",
      method: "get",
      path: `${base}/challenges/{challengeId}`,
      tags: challengeTags,
      security,
      summary: "Get a challenge",
      request: { params: ChallengeParams },
      responses: { 200: jsonResponse(ChallengeAdmin, "The challenge"), ...errorResponses },
    }),
    async (c) => {
      const { appId, challengeId } = c.req.valid("param");
      const row = await requireChallenge(c.env.DB, await appNumber(c.env.DB, appId), challengeId);
      return c.json(presentChallengeRow(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceChallenge",
      method: "put",
      path: `${base}/challenges/{challengeId}`,
      tags: challengeTags,
      security,
      summary: "Replace a challenge",
      request: { params: ChallengeParams, ...jsonBody(ChallengeInput) },
      responses: { 200: jsonResponse(ChallengeAdmin, "The updated challenge"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const { appId, challengeId } = c.req.valid("param");
      const row = await requireChallenge(c.env.DB, await appNumber(c.env.DB, appId), challengeId);
      await requireRewardSystems(c.env.DB, row.app_id, c.req.valid("json").points_rewards);
      return c.json(
        presentChallengeRow(
          await replaceChallenge(c.env.DB, row, c.req.valid("json"), toIso(c.get("now")), requestActor(c)),
        ),
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteChallenge",
      method: "delete",
      path: `${base}/challenges/{challengeId}`,
      tags: challengeTags,
      security,
      summary: "Delete a challenge",
      request: { params: ChallengeParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const { appId, challengeId } = c.req.valid("param");
      await deleteChallenge(
        c.env.DB,
        await requireChallenge(c.env.DB, await appNumber(c.env.DB, appId), challengeId),
        requestActor(c),
      );
      return c.body(null, 204);
    },
  );
