import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ASSET_URLS } from "../../src/shared/asset-urls.generated";
import { baseUrl } from "./support";

/** Each browser file with the file it is copied from (scripts/build-assets.mjs). */
const SOURCES: Record<keyof typeof ASSET_URLS, string> = {
  "console.css": "src/console/static/console.css",
  "console.js": "src/console/static/console.browser.js",
  "tester.js": "src/console/static/tester.browser.js",
  "htmx.min.js": "node_modules/htmx.org/dist/htmx.min.js",
  "mqtt.esm.js": "node_modules/mqtt/dist/mqtt.esm.js",
  "explorer.js": "src/docs/static/explorer.browser.js",
};
const IMMUTABLE = "public, max-age=31536000, immutable";
const JS = "text/javascript; charset=utf-8";

const get = (path: string) => fetch(`${baseUrl()}${path}`);

describe("static assets", () => {
  it("serves every browser file from its hashed URL, unchanged, cached for a year", async () => {
    for (const [name, url] of Object.entries(ASSET_URLS)) {
      const response = await get(url);
      const body = Buffer.from(await response.arrayBuffer());
      expect({
        name,
        status: response.status,
        type: response.headers.get("Content-Type"),
        cache: response.headers.get("Cache-Control"),
      }).toEqual({
        name,
        status: 200,
        type: name.endsWith(".css") ? "text/css; charset=utf-8" : JS,
        cache: IMMUTABLE,
      });
      expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(body.equals(readFileSync(SOURCES[name as keyof typeof ASSET_URLS])), name).toBe(true);
    }
  });

  it("serves Scalar's API reference next to the explorer's script, without its hosted features", async () => {
    const group = ASSET_URLS["explorer.js"].replace(/explorer\.js$/, "");
    const entry = await get(`${group}standalone.esm.js`);
    expect([entry.status, entry.headers.get("Content-Type"), entry.headers.get("Cache-Control")]).toEqual([
      200,
      JS,
      IMMUTABLE,
    ]);
    expect(
      Buffer.from(await entry.arrayBuffer()).equals(
        readFileSync("node_modules/@scalar/api-reference/dist/browser/standalone.esm.js"),
      ),
    ).toBe(true);
    const agent = /import\(`\.\/(chunks\/AgentScalarDrawer-[^`]+\.js)`\)/.exec(
      readFileSync("node_modules/@scalar/api-reference/dist/browser/standalone.esm.js", "utf8"),
    )![1];
    const absent = await get(`${group}${agent}`);
    expect(absent.status).toBe(404);
    expect(absent.headers.get("Cache-Control")).not.toBe(IMMUTABLE);
  });

  it("caches no page and no unknown path for long", async () => {
    const docs = await get("/docs");
    expect([docs.status, docs.headers.get("Cache-Control")]).toEqual([200, "no-cache"]);
    const signIn = await get("/console/sign-in");
    expect([signIn.status, signIn.headers.get("Cache-Control")]).toEqual([200, "no-store"]);
    const unknown = await get("/static/console-0000000000000000/console.css");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      status: 404,
      message: "No route for GET /static/console-0000000000000000/console.css",
    });
    expect(unknown.headers.get("Cache-Control")).toBeNull();
  });
});
