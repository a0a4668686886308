import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { callerApp } from "../../auth/middleware";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { playersReport, requireDayRange, unusedEvents } from "../analytics";
import { DayRangeQuery, PlayersAnalytics, UnusedEvents } from "./analytics-schemas";

const AppParams = z.object({ appId: pathId("appId") });
const tags = ["Admin: analytics"];
const security = bearerSecurity.admin;

/** Who plays (players per day, retention, events by hour) and the events nothing counts. */
export const playerAnalyticsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "getPlayerAnalytics",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/analytics/players",
      tags,
      security,
      summary: "Players per UTC day (active, new, returning), retention by first day, events by hour",
      description:
        "Counted off the request path at each player's first event of a UTC day; exact, and up to a few seconds behind. " +
        "`from` and `to` are UTC days, both included, at most 90 days. The events by hour cover the last 48 hours whatever the range.",
      request: { params: AppParams, query: DayRangeQuery },
      responses: { 200: jsonResponse(PlayersAnalytics, "Players in the range"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, callerApp(c, c.req.valid("param").appId));
      const query = c.req.valid("query");
      const now = c.get("now");
      const { from, to } = requireDayRange(query.from, query.to, now);
      const report = await playersReport(c.env.DB, app.app_id, from, to, now);
      return c.json({ app_id: String(app.app_id), ...report }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "listUnusedEvents",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/analytics/unused-events",
      tags,
      security,
      summary: "Event names received in the range that no challenge, battle pass or leaderboard counts",
      description:
        "An event of any name is accepted, and one that no configuration counts changes nothing: often a mistyped name. " +
        "Each comes with its count in the range and the counted names within two edits. `from` and `to` are UTC days, both included, at most 90 days.",
      request: { params: AppParams, query: DayRangeQuery },
      responses: { 200: jsonResponse(UnusedEvents, "Unused event names in the range"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, callerApp(c, c.req.valid("param").appId));
      const query = c.req.valid("query");
      const { from, to } = requireDayRange(query.from, query.to, c.get("now"));
      return c.json({ app_id: String(app.app_id), ...(await unusedEvents(c.env.DB, app.app_id, from, to)) }, 200);
    },
  );
