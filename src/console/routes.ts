import { createMiddleware } from "hono/factory";
import { consoleRouter, PermissionRefused, recordRefusal, type ConsoleEnv } from "../kit/console/http";
import { requireSession, verifyCsrf } from "./auth/middleware";
import { signInRoutes, signOutRoutes } from "./auth/sign-in";
import { errorPage } from "../kit/console/ui/errors";
import { appsPages } from "./pages/apps";
import { dashboardPages } from "./pages/dashboard";
import { keysPages } from "./pages/keys";
import { AREAS } from "../registry/areas";
import type { Change } from "../changes/types";
import { dispatchChanges } from "../fanout/dispatch";
import { catalogPages } from "./pages/catalog";
import { playerPages } from "./pages/players";
import { banPages } from "./pages/bans";
import { eventPages } from "./pages/events";
import { operatorPages } from "./pages/operators";
import { auditPages } from "./pages/audit";
import { statusPages } from "./pages/status";
import { notFound } from "../shared/domain-errors";
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
// The areas' entries of an app's navigation (their plugins' `console.nav`), for every page's layout.
const AREA_NAV = AREAS.flatMap((area) => area.console?.nav ?? []);
const withAreaNav = createMiddleware<ConsoleEnv>(async (c, next) => {
  c.set("areaNav", AREA_NAV);
  await next();
});
consoleRoutes.use("/console", withAreaNav);
consoleRoutes.use("/console/*", withAreaNav);
consoleRoutes.use("/console", securityHeaders);
consoleRoutes.use("/console/*", securityHeaders);
consoleRoutes.route("/", signInRoutes);
consoleRoutes.use("/console", requireSession, verifyCsrf);
consoleRoutes.use("/console/*", requireSession, verifyCsrf);
consoleRoutes.route("/", signOutRoutes);
consoleRoutes.route("/", appsPages);
consoleRoutes.route("/", dashboardPages);
consoleRoutes.route("/", keysPages);
// Every area's pages (src/registry/areas.ts), in the registry's order.
const wiring = { deliverFor: (env: Env) => (changes: Change[]) => dispatchChanges(env, changes) };
for (const area of AREAS) for (const pages of area.console?.pages(wiring) ?? []) consoleRoutes.route("/", pages);
consoleRoutes.route("/", catalogPages);
consoleRoutes.route("/", playerPages);
consoleRoutes.route("/", banPages);
consoleRoutes.route("/", eventPages);
consoleRoutes.route("/", operatorPages);
consoleRoutes.route("/", auditPages);
consoleRoutes.route("/", statusPages);
consoleRoutes.all("/console/*", (c) => {
  throw notFound(`There is no console page at ${c.req.path}.`);
});
