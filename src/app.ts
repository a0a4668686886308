import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { cors } from "hono/cors";
import { createMiddleware } from "hono/factory";
import { ApiError, errorBody, handleError } from "./shared/errors";
import { getNow } from "./shared/clock";
import type { AppEnv } from "./shared/http";
import { requireAdmin } from "./auth/middleware";
import { authRoutes } from "./auth/routes";
import { appsAdmin } from "./admin/apps/routes";
import { apiKeysAdmin } from "./admin/api-keys/routes";
import { devClockAdmin } from "./admin/dev-clock/routes";
import { usersAdmin } from "./admin/users/routes";
import { eventsAdmin, eventsRoutes } from "./events/routes";
import { battlePassRoutes } from "./battlepasses/routes";
import { battlePassesAdmin } from "./battlepasses/admin/routes";
import { webhooksAdmin } from "./webhooks/routes";
import { realtimeRoutes } from "./realtime/routes";
import { challengeRoutes } from "./challenges/routes";
import { challengesAdmin } from "./challenges/admin-routes";
import { leaderboardRoutes } from "./leaderboards/routes";
import { leaderboardsAdmin } from "./leaderboards/admin-routes";
import { registerDocs } from "./docs/routes";
import { consoleRoutes } from "./console/routes";
import { consoleUsersAdmin } from "./console/admin/routes";

/** Largest accepted request body: a batch of events is at most 1 MB. */
export const MAX_BODY_BYTES = 1024 * 1024;

export function buildApp() {
  const app = new OpenAPIHono<AppEnv>({ strict: false });

  app.onError(handleError);
  app.notFound((c) => c.json(errorBody(404, `No route for ${c.req.method} ${c.req.path}`), 404));

  // Browser games call the API directly with access tokens. The console is same-origin only.
  const apiCors = cors({ origin: "*", allowHeaders: ["Authorization", "Content-Type"], maxAge: 86400 });
  app.use("*", (c, next) => (c.req.path === "/console" || c.req.path.startsWith("/console/") ? next() : apiCors(c, next)));
  app.use(
    "*",
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError(413, `Request body larger than ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
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
  app.route("/", usersAdmin);
  app.route("/", eventsRoutes);
  app.route("/", eventsAdmin);
  app.route("/", battlePassRoutes);
  app.route("/", battlePassesAdmin);
  app.route("/", webhooksAdmin);
  app.route("/", realtimeRoutes);

  app.route("/", challengeRoutes);
  app.route("/", challengesAdmin);
  app.route("/", leaderboardRoutes);
  app.route("/", leaderboardsAdmin);
  app.route("/", consoleUsersAdmin);
  app.route("/", consoleRoutes);

  registerDocs(app);
  return app;
}
