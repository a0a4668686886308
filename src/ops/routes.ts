import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../shared/http";
import { bearerSecurity, errorResponses, jsonResponse } from "../shared/openapi";
import { serviceStatus } from "./status";
import { buildOf, SERVICE_VERSION } from "./version";

const Version = z
  .object({
    service: z.string().openapi({ example: "0.3.7", description: "The release: package.json `version`, listed in CHANGELOG.md." }),
    build: z.object({
      id: z.string().nullable().openapi({ description: "The deployed Worker version id: what `wrangler rollback` takes." }),
      tag: z.string().nullable(),
      timestamp: z.string().nullable().openapi({ description: "When that version was uploaded." }),
    }),
  })
  .openapi("Version");

const Health = z.object({ status: z.literal("ok"), version: Version }).openapi("Health");

const CronRun = z.object({ started_at: z.string(), finished_at: z.string(), failed_tasks: z.array(z.string()) });

const Status = z
  .object({
    environment: z.string().openapi({ example: "production" }),
    version: Version,
    d1: z.object({
      reachable: z.boolean(),
      latest_migration: z.string().nullable().openapi({ example: "0014_players.sql" }),
      expected_migration: z.string().openapi({ description: "The newest migration this code was built with." }),
    }),
    schemas: z.object({
      user_object: z.record(z.string(), z.number().int()).openapi({ description: "Schema version of each area in a user's object (applied when the object starts)." }),
      broker: z.record(z.string(), z.number().int()),
    }),
    queues: z.record(z.string(), z.boolean()).openapi({ description: "Whether each queue binding the code sends to is present." }),
    cron: z.object({ last_run: CronRun.nullable() }),
    warnings: z.array(z.string()).openapi({ description: "Unsafe settings and problems, each saying what to do. Empty when all is well." }),
  })
  .openapi("ServiceStatus");

const tags = ["Operations"];

export const opsRoutes = createRouter()
  .openapi(
    createRoute({
      method: "get", path: "/health", tags,
      summary: "Liveness and version, without a credential",
      responses: { 200: jsonResponse(Health, "The Worker answers") },
    }),
    (c) => c.json({ status: "ok" as const, version: { service: SERVICE_VERSION, build: buildOf(c.env) } }, 200),
  )
  .openapi(
    createRoute({
      method: "get", path: "/api/v1/admin/status", tags, security: bearerSecurity.admin,
      summary: "What runs, whether D1 and the objects' schemas match it, and what is unsafe",
      responses: { 200: jsonResponse(Status, "The service's status"), ...errorResponses },
    }),
    async (c) => c.json(await serviceStatus(c.env, c.get("now")), 200),
  );
