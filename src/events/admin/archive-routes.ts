import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../shared/http";
import { invalid, notFound } from "../../shared/domain-errors";
import { toIso } from "../../shared/clock";
import { bearerSecurity, errorResponses, jsonResponse, pathId } from "../../shared/openapi";
import { callerApp } from "../../auth/middleware";
import { requireApp } from "../../apps/repo";
import { requireHourRange } from "../hour-range";
import { appFolder, hourFolder, parseArchiveKey } from "../core/archive-layout";
import { EventFileList, EventFileParams, EventFilesQuery } from "./archive-schemas";

const tags = ["Admin: analytics"];
const security = bearerSecurity.admin;
const FILES_PATH = "/api/v1/admin/apps/{appId}/analytics/event-files";

type EventFileBody = z.infer<typeof EventFileList>["files"][number];

/**
 * The raw event archive of one app, for analysts: the files of a time range, and each file as
 * stored (gzip-compressed NDJSON, one event per line; see core/archive-layout.ts).
 */
export const eventFilesAdmin = createRouter()
  .openapi(
    createRoute({
      operationId: "listEventFiles",
      method: "get",
      path: FILES_PATH,
      tags,
      security,
      summary: "The app's raw event files (gzip-compressed NDJSON) of a range of UTC hours, oldest first",
      description:
        "One file per UTC hour and background batch. Files are listed for the whole hours the range touches; " +
        'download each from its `url`, or read them with DuckDB\'s `read_json_auto` (docs/api.md, "Raw event archive").',
      request: { params: z.object({ appId: pathId("appId") }), query: EventFilesQuery },
      responses: { 200: jsonResponse(EventFileList, "A page of files"), ...errorResponses },
    }),
    async (c) => {
      const app = await requireApp(c.env.DB, callerApp(c, c.req.valid("param").appId));
      const appId = String(app.app_id);
      const query = c.req.valid("query");
      const { from, to } = requireHourRange(query.from, query.to, c.get("now"));
      const folder = appFolder(appId);
      let startAfter = `${folder}${hourFolder(from)}`;
      if (query.after !== undefined) {
        const after = parseArchiveKey(`${folder}${query.after}`);
        if (!after || after.appId !== appId) {
          const problem = "must be the next_after of a previous page";
          throw invalid(`Invalid query: after ${problem}`, [{ field: "after", problem }]);
        }
        if (`${folder}${after.path}` > startAfter) startAfter = `${folder}${after.path}`;
      }

      const files: EventFileBody[] = [];
      let more = true;
      listing: while (files.length < query.limit) {
        const page = await c.env.EVENTS_ARCHIVE.list({
          prefix: folder,
          startAfter,
          limit: query.limit - files.length,
          include: ["customMetadata"],
        });
        for (const object of page.objects) {
          startAfter = object.key;
          const key = parseArchiveKey(object.key);
          if (!key) continue;
          if (key.hour >= to) {
            more = false;
            break listing;
          }
          files.push({
            path: key.path,
            url: new URL(`${FILES_PATH.replace("{appId}", appId)}/${key.path}`, c.req.url).toString(),
            hour: toIso(key.hour),
            events: Number(object.customMetadata?.events ?? 0),
            size: object.size,
            uploaded: object.uploaded.toISOString(),
          });
        }
        if (!page.truncated) {
          more = false;
          break;
        }
      }
      const nextAfter = more && files.length > 0 ? files[files.length - 1].path : null;
      return c.json({ app_id: appId, from: toIso(from), to: toIso(to), files, next_after: nextAfter }, 200);
    },
  )
  .openapi(
    createRoute({
      operationId: "getEventFile",
      method: "get",
      path: `${FILES_PATH}/{date}/{hour}/{file}`,
      tags,
      security,
      summary: "One raw event file, as stored: gzip-compressed NDJSON",
      request: { params: EventFileParams },
      responses: {
        200: {
          description: "The file",
          content: { "application/gzip": { schema: z.string().openapi({ format: "binary" }) } },
        },
        ...errorResponses,
      },
    }),
    async (c) => {
      const { appId: pathAppId, date, hour, file } = c.req.valid("param");
      const app = await requireApp(c.env.DB, callerApp(c, pathAppId));
      const path = `${date}/${hour}/${file}`;
      const key = parseArchiveKey(`${appFolder(String(app.app_id))}${path}`);
      const object = key ? await c.env.EVENTS_ARCHIVE.get(`${appFolder(String(app.app_id))}${key.path}`) : null;
      if (!object) throw notFound(`No event file ${path} for app ${app.app_id}`);
      return new Response(object.body, {
        headers: {
          "Content-Type": "application/gzip",
          "Content-Length": String(object.size),
          "Content-Disposition": `attachment; filename="${file}"`,
          ETag: object.httpEtag,
        },
      });
    },
  );
