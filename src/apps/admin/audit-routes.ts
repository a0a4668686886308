import { createRoute, z } from "@hono/zod-openapi";
import { notFound } from "../../shared/domain-errors";
import { createRouter } from "../../shared/http";
import { parseId } from "../../shared/ids";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { pageOf } from "../../shared/paging";
import { listAuditEntries, presentAuditEntry } from "./audit-repo";
import { AuditEntry, AuditQuery } from "./audit-schemas";

const tags = ["Admin: audit log"];
const security = bearerSecurity.admin;
const description =
  "Who changed what, when and from where: every configuration write (admin API, console, catalog apply) and every operator action on a player, " +
  "with the object before and after (secrets redacted), newest first. Entries are kept for AUDIT_LOG_RETENTION_DAYS.";

export const auditAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "listAppAuditLog",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/audit-log",
      tags,
      security,
      summary: "An app's audit log",
      description: `${description} An app's entries outlive the app: they stay readable after it is deleted.`,
      request: { params: z.object({ appId: pathId("appId") }), query: AuditQuery },
      responses: { 200: jsonResponse(pageOf(AuditEntry), "A page of entries"), ...errorResponses },
    }),
    async (c) => {
      const appId = parseId(c.req.valid("param").appId);
      if (appId === null) throw notFound(`App ${c.req.valid("param").appId} not found`);
      const { currentPage, pageSize, ...filter } = c.req.valid("query");
      const { rows, total } = await listAuditEntries(c.env.DB, appId, filter, { currentPage, pageSize });
      return c.json({ items: rows.map(presentAuditEntry), currentPage, pageSize, total }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "listAuditLog",
      method: "get",
      path: "/api/v1/admin/audit-log",
      tags,
      security,
      summary: "The audit log of what is not one app's",
      description: `${description} Here: apps created, renamed and deleted, and console users.`,
      request: { query: AuditQuery },
      responses: { 200: jsonResponse(pageOf(AuditEntry), "A page of entries"), ...errorResponses },
    }),
    async (c) => {
      const { currentPage, pageSize, ...filter } = c.req.valid("query");
      const { rows, total } = await listAuditEntries(c.env.DB, null, filter, { currentPage, pageSize });
      return c.json({ items: rows.map(presentAuditEntry), currentPage, pageSize, total }, 200);
    },
  );
