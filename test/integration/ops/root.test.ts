import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { version } from "../../../package.json";
import { call } from "../helpers";

/** The answer itself, a redirect not followed. */
async function open(method: "GET" | "HEAD", accept?: string) {
  const response = await SELF.fetch("https://gamification.test/", {
    method,
    headers: accept ? { Accept: accept } : {},
    redirect: "manual",
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const INDEX = {
  name: "Open Gamification",
  version,
  console: "https://gamification.test/console",
  docs: "https://gamification.test/docs",
  openapi: "https://gamification.test/openapi.json",
};

/** What a browser sends when it opens the address. */
const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

describe("GET /", () => {
  it("sends a browser to the console", async () => {
    const r = await open("GET", BROWSER_ACCEPT);
    expect({
      status: r.status,
      location: r.headers.get("Location"),
      vary: r.headers.get("Vary"),
      body: r.body,
    }).toEqual({
      status: 302,
      location: "/console",
      vary: "Accept",
      body: undefined,
    });
  });

  it("answers an API client, curl's */* or no Accept at all with the index of addresses", async () => {
    for (const accept of ["application/json", "*/*", undefined]) {
      const r = await open("GET", accept);
      expect({
        accept,
        status: r.status,
        type: r.headers.get("Content-Type"),
        vary: r.headers.get("Vary"),
        body: r.body,
      }).toEqual({
        accept,
        status: 200,
        type: "application/json",
        vary: "Accept",
        body: INDEX,
      });
    }
  });

  it("names the version /health reports", async () => {
    const [index, health] = [await open("GET"), await call("GET", "/health")];
    expect(index.body.version).toBe(health.body.version.service);
  });

  it("answers HEAD the same, without a body", async () => {
    const page = await open("HEAD", BROWSER_ACCEPT);
    expect({ status: page.status, location: page.headers.get("Location"), body: page.body }).toEqual({
      status: 302,
      location: "/console",
      body: undefined,
    });
    const index = await open("HEAD", "application/json");
    expect({ status: index.status, type: index.headers.get("Content-Type"), body: index.body }).toEqual({
      status: 200,
      type: "application/json",
      body: undefined,
    });
  });

  it("is in the OpenAPI document, without a credential", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const operation = doc.paths["/"].get;
    expect({ security: operation.security, responses: Object.keys(operation.responses) }).toEqual({
      security: [],
      responses: ["200", "302", "5XX"],
    });
    expect(doc.components.schemas.ServiceIndex.required).toEqual(["name", "version", "console", "docs", "openapi"]);
  });
});
