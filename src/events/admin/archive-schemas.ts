import { z } from "@hono/zod-openapi";
import { pathId } from "../../shared/openapi";
import { AnalyticsQuery } from "./schemas";

export const MAX_FILES_PER_PAGE = 1000;

export const EventFilesQuery = AnalyticsQuery.extend({
  after: z.string().optional().openapi({
    description: "Continue after this file: the `next_after` of the previous page.",
    example: "date=2025-01-31/hour=09/3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6.ndjson.gz",
  }),
  limit: z.coerce.number().int().min(1).max(MAX_FILES_PER_PAGE).default(100).openapi({ example: 100 }),
});

export const EventFile = z
  .object({
    path: z.string().openapi({
      description: "Relative to the app's folder, in the Hive layout that DuckDB reads as columns `date` and `hour`",
      example: "date=2025-01-31/hour=09/3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6.ndjson.gz",
    }),
    url: z.string().openapi({ description: "Where to download it (admin token), as gzip-compressed NDJSON" }),
    hour: z.string().openapi({
      description: "Start of the UTC hour its events were received in",
      example: "2025-01-31T09:00:00.000Z",
    }),
    events: z.number().int().openapi({ description: "Events (lines) in the file" }),
    size: z.number().int().openapi({ description: "Compressed bytes" }),
    uploaded: z.string(),
  })
  .openapi("EventFile");

export const EventFileList = z
  .object({
    app_id: z.string(),
    from: z.string().openapi({ description: "Start of the first UTC hour listed" }),
    to: z.string().openapi({ description: "End of the last UTC hour listed" }),
    files: z.array(EventFile),
    next_after: z
      .string()
      .nullable()
      .openapi({ description: "Pass as `after` for the next page; null on the last page" }),
  })
  .openapi("EventFileList");

/** A file's path parts, as `path` of EventFile names them; checked against the archive's layout by the handler. */
export const EventFileParams = z.object({
  appId: pathId("appId"),
  date: z.string().openapi({ param: { name: "date", in: "path" }, example: "date=2025-01-31" }),
  hour: z.string().openapi({ param: { name: "hour", in: "path" }, example: "hour=09" }),
  file: z
    .string()
    .openapi({ param: { name: "file", in: "path" }, example: "3f2a9c0d1e4b5a6978c0d1e2f3a4b5c6.ndjson.gz" }),
});
