import { describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { createCategory, createChallenge } from "../challenges/support";

const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

describe("apps", () => {
  it("are created, read, listed, replaced and deleted", async () => {
    const created = await admin("POST", "/apps", { name: "Space Racer", default_language: "de" });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      app_id: expect.stringMatching(/^\d+$/),
      name: "Space Racer",
      default_language: "de",
    });
    const id = created.body.app_id;

    expect(await admin("GET", `/apps/${id}`)).toMatchObject({ status: 200, body: { app_id: id, name: "Space Racer" } });
    const list = await admin("GET", "/apps?pageSize=100");
    expect(list.body).toMatchObject({ currentPage: 1, pageSize: 100 });
    expect(list.body.items.map((a: { app_id: string }) => a.app_id)).toContain(id);

    const replaced = await admin("PUT", `/apps/${id}`, { name: "Space Racer 2", default_language: "en" });
    expect(replaced).toMatchObject({ status: 200, body: { name: "Space Racer 2", default_language: "en" } });

    expect((await admin("DELETE", `/apps/${id}`)).status).toBe(204);
    expect(await admin("GET", `/apps/${id}`)).toMatchObject({
      status: 404,
      body: { status: 404, message: `App ${id} not found` },
    });
  });

  it("answers unknown and malformed ids as not found", async () => {
    expect(await admin("GET", "/apps/999999")).toMatchObject({
      status: 404,
      body: { status: 404, message: "App 999999 not found" },
    });
    expect(await admin("GET", "/apps/abc")).toMatchObject({
      status: 404,
      body: { status: 404, message: "App abc not found" },
    });
  });

  it("validates input field by field", async () => {
    const r = await admin("POST", "/apps", { name: "", default_language: "English" });
    expect(r.status).toBe(400);
    expect(r.body.status).toBe(400);
    expect(r.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["default_language", "name"]);
  });

  it("answers malformed JSON with 400", async () => {
    const r = await call("POST", "/api/v1/admin/apps", { token: ADMIN, rawBody: "{not json" });
    expect(r).toMatchObject({ status: 400, body: { status: 400, message: "Malformed JSON in request body" } });
  });

  it("answers a body over 1 MiB with 413", async () => {
    const r = await call("POST", "/api/v1/admin/apps", {
      token: ADMIN,
      rawBody: JSON.stringify({ name: "x".repeat(1024 * 1024 + 1) }),
    });
    expect(r).toMatchObject({ status: 413, body: { status: 413, message: "Request body larger than 1048576 bytes" } });
  });

  it("answers an unknown route with a JSON 404", async () => {
    expect(await call("GET", "/api/v1/nothing-here")).toMatchObject({
      status: 404,
      body: { status: 404, message: "No route for GET /api/v1/nothing-here" },
    });
  });

  it("accepts a doubled slash after the base address", async () => {
    expect((await call("GET", "//api/v1/admin/apps", { token: ADMIN })).status).toBe(200);
  });

  it("a new default language is seen at once by answers built from the cached catalog", async () => {
    const app = await createTestApp("Languages");
    const category = await createCategory(app.appId);
    await createChallenge(app.appId, category.category_id);
    const token = await app.tokenFor("polyglot");
    const names = async () => {
      const r = await call("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token });
      return r.body.map((c: any) => [c.category_name, c.challenges.map((ch: any) => ch.challenge_name)]);
    };
    expect(await names()).toEqual([["Category", ["Kill 3 enemies"]]]);
    const put = await call("PUT", `/api/v1/admin/apps/${app.appId}`, {
      token: ADMIN,
      body: { name: "Languages", default_language: "de" },
    });
    expect(put.status).toBe(200);
    expect(await names()).toEqual([["Kategorie", ["Besiege 3 Gegner"]]]);
  });
});

describe("fair-play settings of an app", () => {
  it("default to no backend-only events and the service's limits, and are replaced by PUT", async () => {
    const created = await admin("POST", "/apps", { name: "Defaults" });
    expect(created.body).toMatchObject({
      backend_only_events: [],
      rate_limits: { per_user_per_minute: 3000, per_app_per_minute: 6_000_000 },
    });
    const id = created.body.app_id;
    const set = await admin("PUT", `/apps/${id}`, {
      name: "Defaults",
      backend_only_events: ["purchase-completed", "purchase-completed", "grant-coins"],
      rate_limits: { per_user_per_minute: 120 },
    });
    expect(set.body).toMatchObject({
      backend_only_events: ["purchase-completed", "grant-coins"],
      rate_limits: { per_user_per_minute: 120, per_app_per_minute: 6_000_000 },
    });
    expect((await admin("GET", `/apps/${id}`)).body).toEqual(set.body);
    // Left out again: the defaults.
    expect((await admin("PUT", `/apps/${id}`, { name: "Defaults" })).body).toMatchObject({
      backend_only_events: [],
      rate_limits: { per_user_per_minute: 3000 },
    });

    const bad = await admin("PUT", `/apps/${id}`, {
      name: "Defaults",
      backend_only_events: [""],
      rate_limits: { per_user_per_minute: 0, per_app_per_minute: 1.5 },
    });
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      "backend_only_events.0",
      "rate_limits.per_app_per_minute",
      "rate_limits.per_user_per_minute",
    ]);
  });
});

describe("API keys", () => {
  it("are shown once, listed without the secret, renamed and revoked", async () => {
    const app = (await admin("POST", "/apps", { name: "Keys" })).body;
    const created = await admin("POST", `/apps/${app.app_id}/api-keys`, { name: "server" });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^gk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.key.length).toBeLessThanOrEqual(64);
    expect(created.body.key_prefix).toBe(created.body.key.slice(0, 8));

    const listed = await admin("GET", `/apps/${app.app_id}/api-keys`);
    expect(listed.body.total).toBe(1);
    expect(listed.body.items[0]).not.toHaveProperty("key");
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);

    const renamed = await admin("PUT", `/apps/${app.app_id}/api-keys/${created.body.key_id}`, { name: "game server" });
    expect(renamed.body).toMatchObject({ name: "game server", revoked_at: null });

    const revoked = await admin("DELETE", `/apps/${app.app_id}/api-keys/${created.body.key_id}`);
    expect(revoked.body.revoked_at).toEqual(expect.any(String));
    expect(await admin("GET", `/apps/${app.app_id}/api-keys/999`)).toMatchObject({
      status: 404,
      body: { message: "API key 999 not found" },
    });
  });

  it("belong to their app", async () => {
    const a = (await admin("POST", "/apps", { name: "A" })).body;
    const b = (await admin("POST", "/apps", { name: "B" })).body;
    const key = (await admin("POST", `/apps/${a.app_id}/api-keys`, {})).body;
    expect((await admin("GET", `/apps/${b.app_id}/api-keys/${key.key_id}`)).status).toBe(404);
  });
});

describe("development clock", () => {
  it("moves forward and back", async () => {
    const before = await admin("GET", "/dev/clock");
    const advanced = await admin("POST", "/dev/clock/advance", { advance_seconds: 3600 });
    expect(Date.parse(advanced.body.now) - Date.parse(before.body.now)).toBeGreaterThanOrEqual(3600_000);
    expect(advanced.body.offset_seconds).toBe(3600);
    expect((await admin("DELETE", "/dev/clock")).body.offset_seconds).toBe(0);
  });
});
