import { describe, expect, it } from "vitest";
import committed from "../../../openapi.json";
import { call, callWith } from "../helpers";

describe("the committed openapi.json", () => {
  it("is the document the Worker serves with DEV_CLOCK off (else run `npm run openapi` and commit it)", async () => {
    const served = await callWith({ DEV_CLOCK: "off" }, "GET", "/openapi.json");
    expect(served.status).toBe(200);
    expect(served.body).toEqual(committed);
  });

  it("lists the development-only paths, their tags and schemas only with DEV_CLOCK on", async () => {
    const devPaths = (doc: any) =>
      Object.keys(doc.paths)
        .filter((p) => p.startsWith("/api/v1/admin/dev/"))
        .sort();
    const devTags = (doc: any) =>
      doc.tags.map((t: { name: string }) => t.name).filter((name: string) => name.startsWith("Admin: development"));
    const on = (await call("GET", "/openapi.json")).body;
    expect(devPaths(on)).toEqual([
      "/api/v1/admin/dev/apps/{appId}/changes",
      "/api/v1/admin/dev/clock",
      "/api/v1/admin/dev/clock/advance",
    ]);
    expect(devTags(on)).toEqual(["Admin: development clock", "Admin: development"]);
    expect(on.components.schemas.DevClock).toBeDefined();
    expect(devPaths(committed)).toEqual([]);
    expect(devTags(committed)).toEqual([]);
    expect((committed.components.schemas as Record<string, unknown>).DevClock).toBeUndefined();
  });
});
