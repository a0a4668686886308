import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";

const unauthorized = (message: string) => ({ status: 401, body: { status: 401, message } });
const check = (credential?: string) => call("GET", "/api/v1/auth/check", { token: credential });

let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  app = await createTestApp("Credential check");
});

describe("GET /api/v1/auth/check", () => {
  it("names the app and the user of an access token", async () => {
    expect(await check(await app.tokenFor("player-7"))).toMatchObject({
      status: 200,
      body: { app_id: app.appId, user_id: "player-7", credential: "access-token" },
    });
  });

  it("names the app of an API key, without a user", async () => {
    const r = await check(app.apiKey);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ app_id: app.appId, credential: "api-key" });
  });

  it("is required", async () => {
    expect(await check()).toMatchObject(unauthorized("Missing Authorization header"));
  });

  it("refuses an unknown key, the admin token and a broken token", async () => {
    expect(await check("gk_unknownunknownunknownunknown")).toMatchObject(unauthorized("Invalid or revoked API key"));
    expect(await check(ADMIN)).toMatchObject(unauthorized("Invalid or revoked API key"));
    expect(await check("x".repeat(80))).toMatchObject(unauthorized("Access token is invalid"));
  });

  it("refuses a revoked key", async () => {
    const other = await createTestApp("Revoked check");
    expect((await check(other.apiKey)).status).toBe(200);
    await call("DELETE", `/api/v1/admin/apps/${other.appId}/api-keys/${other.keyId}`, { token: ADMIN });
    expect(await check(other.apiKey)).toMatchObject(unauthorized("Invalid or revoked API key"));
  });

  it("is in the OpenAPI document", async () => {
    const doc = await call("GET", "/openapi.json");
    expect(doc.body.paths["/api/v1/auth/check"].get.responses["200"]).toBeDefined();
  });
});
