import htmx from "htmx.org/dist/htmx.min.js";
import mqtt from "mqtt/dist/mqtt.esm.js";
import css from "./static/console.css";
import consoleScript from "./static/console.browser.js";
import testerScript from "./static/tester.browser.js";
import { sha256Hex } from "../shared/crypto";
import { consoleRouter } from "./http";

/**
 * The console's styles and scripts, bundled into the Worker as text: nothing comes from a CDN, so
 * the console works offline and under `script-src 'self'`. URLs carry a content hash (`?v=`), so
 * browsers keep a file until it changes; other requests revalidate with the ETag.
 */
const JS = "text/javascript; charset=utf-8";
const FILES: Record<string, { body: string; type: string }> = {
  "console.css": { body: css, type: "text/css; charset=utf-8" },
  "console.js": { body: consoleScript, type: JS },
  "tester.js": { body: testerScript, type: JS },
  "htmx.min.js": { body: htmx, type: JS },
  "mqtt.esm.js": { body: mqtt, type: JS },
};

const STATIC_PATH = "/console/static";
let versions: Promise<Record<string, string>> | undefined;

/** Each file's content hash, computed once per isolate. */
function fileVersions(): Promise<Record<string, string>> {
  versions ??= Promise.all(Object.entries(FILES).map(async ([name, file]) => [name, (await sha256Hex(file.body)).slice(0, 16)])).then(
    Object.fromEntries,
  );
  return versions;
}

/** Versioned URLs of the files, for the pages' <link> and <script> tags. */
export async function assetUrls(): Promise<Record<string, string>> {
  const known = await fileVersions();
  return Object.fromEntries(Object.keys(FILES).map((name) => [name, `${STATIC_PATH}/${name}?v=${known[name]}`]));
}

export const staticRoutes = consoleRouter().get(`${STATIC_PATH}/:file`, async (c) => {
  const name = c.req.param("file");
  const file = Object.hasOwn(FILES, name) ? FILES[name] : undefined;
  if (!file) return c.text("Not found", 404);
  const version = (await fileVersions())[name];
  const etag = `"${version}"`;
  const cacheControl = c.req.query("v") === version ? "public, max-age=31536000, immutable" : "no-cache";
  const headers = { "Content-Type": file.type, ETag: etag, "Cache-Control": cacheControl };
  if (c.req.header("If-None-Match") === etag) return c.body(null, 304, headers);
  return c.body(file.body, 200, headers);
});
