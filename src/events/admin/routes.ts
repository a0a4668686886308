import { createRoute, z } from "@hono/zod-openapi";
import { requireApp } from "../../apps/repo";
import { callerApp } from "../../auth/middleware";
import { toIso } from "../../shared/clock";
import { createRouter } from "../../shared/http";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { PagingQuery, pageOf } from "../../shared/paging";
import { countEvents } from "../analytics-repo";
import { countsPerDay } from "../core/periods";
import { requireHourRange } from "../hour-range";
import { AnalyticsQuery, EventAnalytics, MonthUsage, UsageQuery } from "./schemas";
import { listMonthUsage, readMonthUsage } from "../usage-repo";

/** The admin side of events: analytics counts and monthly usage. */

const AppParams = z.object({ appId: pathId("appId") });
const adminTags = ["Admin: analytics"];
const security = bearerSecurity.admin;

export const eventsAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "getEventAnalytics",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/analytics/events",
      tags: adminTags,
      security,
      summary: "Counts of the app's events by event name and by UTC day",
      description:
        "Counted in whole UTC hours: `from` and `to` of the answer are the range widened to hour boundaries.",
      request: { params: AppParams, query: AnalyticsQuery },
      responses: { 200: jsonResponse(EventAnalytics, "Event counts in the range"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, callerApp(c, c.req.valid("param").appId));
      const query = c.req.valid("query");
      // Events are counted per UTC hour (migrations/0008): the answer states the whole hours counted.
      const { from, to } = requireHourRange(query.from, query.to, c.get("now"));
      const counts = await countEvents(c.env.DB, app.app_id, from, to);
      return c.json(
        {
          app_id: String(app.app_id),
          from: toIso(from),
          to: toIso(to),
          total: counts.total,
          by_name: counts.byName,
          by_day: countsPerDay(from, to, counts.byDay),
        },
        200,
      );
    },
  )
  .openapi(
    createRoute({
      operationId: "getUsage",
      method: "get",
      path: "/api/v1/admin/apps/{appId}/usage",
      tags: adminTags,
      security,
      summary: "The app's events and unlocked challenges per UTC month, newest first",
      request: { params: AppParams, query: PagingQuery.extend(UsageQuery.shape) },
      responses: { 200: jsonResponse(pageOf(MonthUsage), "A page of months"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, callerApp(c, c.req.valid("param").appId));
      const { month, ...paging } = c.req.valid("query");
      if (month)
        return c.json({ items: [await readMonthUsage(c.env.DB, app.app_id, month)], ...paging, total: 1 }, 200);
      return c.json({ ...(await listMonthUsage(c.env.DB, app.app_id, paging)), ...paging }, 200);
    },
  );
