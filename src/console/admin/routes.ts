import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../shared/http";
import { bearerSecurity, conflictResponse, errorResponses, jsonBody, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { revokeOperatorSessions } from "../../kit/console/sessions";
import { countActiveSessions, deleteOperator, listOperators, presentOperator, requireOperator } from "./repo";
import { Operator, OperatorInput, OperatorUpdate } from "./schemas";
import { createOperator, replaceOperator } from "./service";
import { requestActor } from "../../apps/actor";

const tags = ["Admin: console users"];
const security = bearerSecurity.admin;
const users = "/api/v1/admin/console-users";
const UserParams = z.object({ consoleUserId: pathId("consoleUserId") });
const ListQuery = PagingQuery.extend({
  search: z.string().max(200).default("").openapi({ description: "A part of the email or the name" }),
});

/**
 * Console users for scripts (the admin token stays the credential of the admin API); the
 * console's Users page does the same. Console users and sessions live in wall-clock time: the
 * development clock moves game time, not sign-ins.
 */
export const operatorsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "createConsoleUser",
      method: "post",
      path: users,
      tags,
      security,
      summary: "Create a console user",
      request: jsonBody(OperatorInput),
      responses: { 201: jsonResponse(Operator, "The new console user"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => c.json(await createOperator(c.env.DB, c.req.valid("json"), Date.now(), requestActor(c)), 201),
  )
  .openapi(
    createRoute({
      operationId: "listConsoleUsers",
      method: "get",
      path: users,
      tags,
      security,
      summary: "List console users by email",
      request: { query: ListQuery },
      responses: { 200: jsonResponse(pageOf(Operator), "A page of console users"), ...errorResponses },
    }),
    async (c) => {
      const { search, ...paging } = c.req.valid("query");
      const { rows, total } = await listOperators(c.env.DB, paging, search, Date.now());
      return c.json({ items: rows.map((row) => presentOperator(row, row.active_sessions)), ...paging, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getConsoleUser",
      method: "get",
      path: `${users}/{consoleUserId}`,
      tags,
      security,
      summary: "Get a console user",
      request: { params: UserParams },
      responses: { 200: jsonResponse(Operator, "The console user"), ...errorResponses },
    }),
    async (c) => {
      const row = await requireOperator(c.env.DB, c.req.valid("param").consoleUserId);
      return c.json(presentOperator(row, await countActiveSessions(c.env.DB, row.console_user_id, Date.now())), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "replaceConsoleUser",
      method: "put",
      path: `${users}/{consoleUserId}`,
      tags,
      security,
      summary: "Replace a console user; a new role or password signs them out everywhere",
      request: { params: UserParams, ...jsonBody(OperatorUpdate) },
      responses: { 200: jsonResponse(Operator, "The updated console user"), ...errorResponses, ...conflictResponse },
    }),
    async (c) => {
      const row = await requireOperator(c.env.DB, c.req.valid("param").consoleUserId);
      return c.json(await replaceOperator(c.env.DB, row, c.req.valid("json"), Date.now(), requestActor(c)), 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "deleteConsoleUser",
      method: "delete",
      path: `${users}/{consoleUserId}/sessions`,
      tags,
      security,
      summary: "Sign a console user out everywhere",
      request: { params: UserParams },
      responses: { 204: { description: "Every session of the user revoked" }, ...errorResponses },
    }),
    async (c) => {
      const row = await requireOperator(c.env.DB, c.req.valid("param").consoleUserId);
      await revokeOperatorSessions(c.env.DB, row.console_user_id, Date.now());
      return c.body(null, 204);
    },
  )
  .openapi(
    createRoute({
      operationId: "signOutConsoleUser",
      method: "delete",
      path: `${users}/{consoleUserId}`,
      tags,
      security,
      summary: "Delete a console user and their sessions",
      request: { params: UserParams },
      responses: { 204: { description: "Deleted" }, ...errorResponses },
    }),
    async (c) => {
      await deleteOperator(
        c.env.DB,
        await requireOperator(c.env.DB, c.req.valid("param").consoleUserId),
        requestActor(c),
      );
      return c.body(null, 204);
    },
  );
