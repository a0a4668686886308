import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { ApiError, errorBody, handleError } from "./shared/errors";
import { jsonRequestBodies } from "./shared/body";
import { getNow } from "./shared/clock";
import { REQUEST_ID_HEADER, requestLog } from "./shared/request-log";
import type { AppEnv } from "./shared/http";
import type { Change } from "./changes/types";
import { requireAdmin } from "./auth/middleware";
import { authRoutes } from "./auth/routes";
import { appsAdmin } from "./apps/admin/routes";
import { apiKeysAdmin } from "./auth/admin/routes";
import { devClockAdmin } from "./devtools/clock-routes";
import { devChangesAdmin } from "./devtools/change-routes";
import { usersAdmin } from "./players/admin/routes";
import { bansAdmin } from "./players/admin/ban-routes";
import { correctionsAdmin } from "./players/admin/correction-routes";
import { privacyRoutes } from "./players/routes";
import { auditAdmin } from "./apps/admin/audit-routes";
import { eventsRoutes } from "./events/channel";
import { RATE_LIMIT_HEADERS } from "./events/channel";
import { eventsAdmin } from "./events/channel";
import { eventFilesAdmin } from "./events/channel";
import { playerAnalyticsAdmin } from "./players/admin/analytics-routes";
import { realtimeRoutes } from "./fanout/topic-link-routes";
import { catalogRoutes } from "./catalog/routes";
import { dispatchChanges } from "./fanout/dispatch";
import { AREAS } from "./registry/areas";
import { registerDocs } from "./docs/routes";
import { registerWebhookDocs } from "./fanout/webhook-docs";
import { opsRoutes } from "./ops/routes";
import { consoleRoutes } from "./console/routes";
import { operatorsAdmin } from "./console/admin/routes";

/** Largest accepted request body: a batch of events is at most 1 MB. */
export const MAX_BODY_BYTES = 1024 * 1024;

export function buildApp() {
  const app = new OpenAPIHono<AppEnv>({ strict: false });

  app.onError(handleError);
  app.notFound((c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`), 404));

  // First, so that every answer (CORS preflights, 401s, errors) carries the request id and is logged.
  app.use("*", requestLog);
  // Browser games call the API directly with access tokens, may show the request id of an error,
  // and back off by the rate-limit headers of a 429. The console is same-origin only.
  const apiCors = cors({
    origin: "*",
    allowHeaders: ["Authorization", "Content-Type"],
    exposeHeaders: [REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS],
    maxAge: 86400,
  });
  app.use("*", (c, next) =>
    c.req.path === "/console" || c.req.path.startsWith("/console/") ? next() : apiCors(c, next),
  );
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError(413, `Request body larger than ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  // The JSON API: every SCILL and spec path is under one of these (the console has its own forms).
  for (const api of ["/api/*", "/v1/*"]) app.use(api, jsonRequestBodies);
  app.use(
    "*",
    createMiddleware<AppEnv>(async (c, next) => {
      c.set("now", await getNow(c.env));
      await next();
    }),
  );
  app.use("/api/v1/admin/*", requireAdmin);

  app.route("/", authRoutes);
  app.route("/", appsAdmin);
  app.route("/", apiKeysAdmin);
  app.route("/", devClockAdmin);
  app.route("/", devChangesAdmin);
  app.route("/", usersAdmin);
  app.route("/", bansAdmin);
  app.route("/", correctionsAdmin);
  app.route("/", privacyRoutes);
  app.route("/", auditAdmin);
  app.route("/", eventsRoutes);
  app.route("/", eventsAdmin);
  app.route("/", playerAnalyticsAdmin);
  app.route("/", eventFilesAdmin);
  // Every area's routers (src/registry/areas.ts), then the topic links that name the areas' objects.
  const wiring = { deliverFor: (env: Env) => (changes: Change[]) => dispatchChanges(env, changes) };
  for (const area of AREAS) for (const routes of area.routes?.(wiring) ?? []) app.route("/", routes);
  app.route("/", realtimeRoutes);
  app.route("/", opsRoutes);
  app.route("/", catalogRoutes);
  app.route("/", operatorsAdmin);
  app.route("/", consoleRoutes);

  registerWebhookDocs(app);
  registerDocs(app);
  return app;
}
