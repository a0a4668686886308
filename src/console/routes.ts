import { createMiddleware } from "hono/factory";
import { consoleRouter, PermissionRefused, recordRefusal, type ConsoleEnv } from "./http";
import { requireSession, verifyCsrf } from "./auth/middleware";
import { signInRoutes, signOutRoutes } from "./auth/sign-in";
import { errorPage } from "./ui/errors";
import { appsPages } from "./pages/apps";
import { dashboardPages } from "./pages/dashboard";
import { keysPages } from "./pages/keys";
import { challengesPages } from "./pages/challenges";
import { battlePassPages } from "./pages/battle-passes";
import { leaderboardPages } from "./pages/leaderboards";
import { leaderboardReviewPages } from "./pages/leaderboard-review";
import { webhookPages } from "./pages/webhooks";
import { catalogPages } from "./pages/catalog";
import { playerPages } from "./pages/players";
import { banPages } from "./pages/bans";
import { pointsPages } from "./pages/points";
import { playerPointsPages } from "./pages/player-points";
import { eventPages } from "./pages/events";
import { userPages } from "./pages/users";
import { auditPages } from "./pages/audit";
import { statusPages } from "./pages/status";
import { ApiError } from "../shared/errors";
import { logError } from "../shared/log";

/**
 * The admin console at /console: server-rendered pages over the same functions as the admin API.
 * Every page but sign-in needs a session (its stylesheet and scripts are static assets, served
 * without running the Worker); every change needs the session's CSRF token and a role that may
 * make it (checked in each handler).
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  // htmx requests and the event tester's MQTT WebSocket go to this origin only.
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join("; ");

const securityHeaders = createMiddleware<ConsoleEnv>(async (c, next) => {
  await next();
  c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("X-Frame-Options", "DENY");
  c.header("Referrer-Policy", "same-origin");
  // Pages may show a key once.
  if (!c.res.headers.has("Cache-Control")) c.header("Cache-Control", "no-store");
});

export const consoleRoutes = consoleRouter();
consoleRoutes.onError(async (err, c) => {
  // The refusal is answered even when its entry cannot be written (logged instead).
  if (err instanceof PermissionRefused)
    await recordRefusal(c, err).catch((failure) =>
      logError("recording a refused console action failed", failure, { path: c.req.path }),
    );
  return errorPage(err, c);
});
consoleRoutes.use("/console", securityHeaders);
consoleRoutes.use("/console/*", securityHeaders);
consoleRoutes.route("/", signInRoutes);
consoleRoutes.use("/console", requireSession, verifyCsrf);
consoleRoutes.use("/console/*", requireSession, verifyCsrf);
consoleRoutes.route("/", signOutRoutes);
consoleRoutes.route("/", appsPages);
consoleRoutes.route("/", dashboardPages);
consoleRoutes.route("/", keysPages);
consoleRoutes.route("/", challengesPages);
consoleRoutes.route("/", battlePassPages);
consoleRoutes.route("/", leaderboardPages);
consoleRoutes.route("/", leaderboardReviewPages);
consoleRoutes.route("/", webhookPages);
consoleRoutes.route("/", catalogPages);
consoleRoutes.route("/", playerPointsPages);
consoleRoutes.route("/", playerPages);
consoleRoutes.route("/", pointsPages);
consoleRoutes.route("/", banPages);
consoleRoutes.route("/", eventPages);
consoleRoutes.route("/", userPages);
consoleRoutes.route("/", auditPages);
consoleRoutes.route("/", statusPages);
consoleRoutes.all("/console/*", (c) => {
  throw new ApiError(404, `There is no console page at ${c.req.path}.`);
});
