import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { toIso } from "../../shared/clock";
import { presentApp, requireApp } from "../repo";
import { requestActor } from "../actor";
import { createApp, deleteApp, listApps, updateApp } from "./repo";
import { App, AppInput } from "./schemas";

const AppIdParams = z.object({ appId: pathId("appId") });
const tags = ["Admin: apps"];
const security = bearerSecurity.admin;

export const appsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createApp",
      method: "post",
      path: "/api/v1/admin/apps",
      tags,
      security,
      summary: "Create an app",
      request: jsonBody(AppInput, "The app", {
        app: { summary: "A game with English texts", value: { name: "Space Raiders", default_language: "en" } },
      }),
      responses: { 201: jsonResponse(App, "The new app"), ...errorResponses },
    }),
    async (c) => {
      const row = await createApp(c.env.DB, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentApp(row), 201);
    },
  )
  .openapi(
    createRoute({
      operationId: "listApps",
      method: "get",
      path: "/api/v1/admin/apps",
      tags,
      security,
      summary: "List apps",
      request: { query: PagingQuery },
      responses: { 200: jsonResponse(pageOf(App), "A page of apps"), ...errorResponses },
    }),
    async (c) => {
      const paging = c.req.valid("query");
      const { rows, total } = await listApps(c.env.DB, paging);
      return c.json({ items: rows.map(presentApp), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getApp",
      method: "get",
      path: "/api/v1/admin/apps/{appId}",
      tags,
      security,
      summary: "Get an app",
      request: { params: AppIdParams },
      responses: { 200: jsonResponse(App, "The app"), ...errorResponses },
    }),
    async (c) => c.json(presentApp(await requireApp(c.env.DB, c.req.valid("param").appId)), 200),
  )
  .openapi(
    createRoute({
      operationId: "replaceApp",
      method: "put",
      path: "/api/v1/admin/apps/{appId}",
      tags,
      security,
      summary: "Replace an app's settings",
      request: { params: AppIdParams, ...jsonBody(AppInput) },
      responses: { 200: jsonResponse(App, "The updated app"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      const row = await updateApp(c.env.DB, app, c.req.valid("json"), toIso(c.get("now")), requestActor(c));
      return c.json(presentApp(row), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteApp",
      method: "delete",
      path: "/api/v1/admin/apps/{appId}",
      tags,
      security,
      summary: "Delete an app with its keys and configuration",
      request: { params: AppIdParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, c.req.valid("param").appId);
      await deleteApp(c.env.DB, app, requestActor(c));
      return c.body(null, 204);
    },
  );
