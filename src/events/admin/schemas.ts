import { z } from "@hono/zod-openapi";
import { MAX_RANGE_DAYS } from "../core/periods";

/** Zod schemas of the admin API for analytics and usage. */

export const AnalyticsQuery = z.object({
  from: z.string().optional().openapi({
    description: "Start (inclusive): ISO date or date-time. Default: 30 days before `to`.",
    example: "2025-01-01",
  }),
  to: z
    .string()
    .optional()
    .openapi({
      description: `End: ISO date (that day included) or date-time (excluded). Default: now. At most ${MAX_RANGE_DAYS} days after \`from\`.`,
      example: "2025-01-31",
    }),
});

export const EventAnalytics = z
  .object({
    app_id: z.string(),
    from: z
      .string()
      .openapi({ description: "Start of the first UTC hour counted (the query's `from`, rounded down to the hour)" }),
    to: z
      .string()
      .openapi({ description: "End of the last UTC hour counted (the query's `to`, rounded up to the hour)" }),
    total: z.number().int(),
    by_name: z.array(z.object({ event_name: z.string(), count: z.number().int() })),
    by_day: z.array(z.object({ day: z.string().openapi({ example: "2025-01-31" }), count: z.number().int() })),
  })
  .openapi("EventAnalytics");

export const UsageQuery = z.object({
  month: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, "must be a month as YYYY-MM")
    .optional()
    .openapi({ description: "Only this UTC month", example: "2025-01" }),
});

export const MonthUsage = z
  .object({
    month: z.string().openapi({ example: "2025-01" }),
    events: z.number().int(),
    unlocked_challenges: z.number().int(),
  })
  .openapi("MonthUsage");
