import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../shared/http";
import { bearerSecurity, errorResponses, jsonResponse } from "../shared/openapi";
import { serviceStatus } from "./status";
import { buildOf, SERVICE_VERSION } from "./version";

const Version = z
  .object({
    service: z
      .string()
      .openapi({ example: "0.3.7", description: "The release: package.json `version`, listed in CHANGELOG.md." }),
    build: z.object({
      id: z
        .string()
        .nullable()
        .openapi({ description: "The deployed Worker version id: what `wrangler rollback` takes." }),
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
      latest_migration: z.string().nullable().openapi({ example: "0015_player_days.sql" }),
      expected_migration: z.string().openapi({ description: "The newest migration this code was built with." }),
    }),
    schemas: z.object({
      user_object: z
        .record(z.string(), z.number().int())
        .openapi({ description: "Schema version of each area in a user's object (applied when the object starts)." }),
      broker: z.record(z.string(), z.number().int()),
    }),
    queues: z
      .record(z.string(), z.boolean())
      .openapi({ description: "Whether each queue binding the code sends to is present." }),
    cron: z.object({ last_run: CronRun.nullable() }),
    warnings: z
      .array(z.string())
      .openapi({ description: "Unsafe settings and problems, each saying what to do. Empty when all is well." }),
  })
  .openapi("ServiceStatus");

const ServiceIndex = z
  .object({
    name: z.literal("Open Gamification"),
    version: z.string().openapi({ example: "0.3.7", description: "The release, as /health reports it." }),
    console: z.string().openapi({ example: "https://gamification.example/console", description: "The admin console." }),
    docs: z.string().openapi({ example: "https://gamification.example/docs", description: "The API reference." }),
    openapi: z
      .string()
      .openapi({ example: "https://gamification.example/openapi.json", description: "This OpenAPI document." }),
  })
  .openapi("ServiceIndex");

const tags = ["Operations"];

/** A browser asks for a page: it says so in Accept (`text/html`); API clients and curl do not. */
const wantsPage = (accept: string | undefined) => (accept ?? "").toLowerCase().includes("text/html");

export const opsRoutes = createRouter()
  .openapi(
    createRoute({
      operationId: "getServiceIndex",
      method: "get",
      path: "/",
      tags,
      security: [],
      summary: "Where things are: the console for a browser, an index of addresses for an API client",
      description:
        "An Accept header with `text/html` (a browser) is redirected to the console; any other request gets the index.",
      responses: {
        200: jsonResponse(ServiceIndex, "The service's name, release and addresses"),
        302: {
          description: "A browser is sent to the console",
          headers: { Location: { description: "/console", schema: { type: "string" } } },
        },
      },
    }),
    (c) => {
      // The answer depends on Accept: a cache must keep the page and the index apart.
      c.header("Vary", "Accept");
      if (wantsPage(c.req.header("Accept"))) return c.redirect("/console", 302);
      const origin = new URL(c.req.url).origin;
      return c.json(
        {
          name: "Open Gamification" as const,
          version: SERVICE_VERSION,
          console: `${origin}/console`,
          docs: `${origin}/docs`,
          openapi: `${origin}/openapi.json`,
        },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "getHealth",
      method: "get",
      path: "/health",
      tags,
      summary: "Liveness and version, without a credential",
      responses: { 200: jsonResponse(Health, "The Worker answers") },
    }),
    (c) => c.json({ status: "ok" as const, version: { service: SERVICE_VERSION, build: buildOf(c.env) } }, 200),
  )
  .openapi(
    createRoute({
      operationId: "getStatus",
      method: "get",
      path: "/api/v1/admin/status",
      tags,
      security: bearerSecurity.admin,
      summary: "What runs, whether D1 and the objects' schemas match it, and what is unsafe",
      responses: { 200: jsonResponse(Status, "The service's status"), ...errorResponses },
    }),
    async (c) => c.json(await serviceStatus(c.env, c.get("now")), 200),
  );
