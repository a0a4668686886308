import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, http, newStudioApp } from "./support";

describe("foundation, as a new studio runs it", () => {
  it("creates an app and a key, mints a token, stores and reads user info", async () => {
    const studio = await newStudioApp("First studio");
    expect(studio.appId).toMatch(/^\d+$/);
    expect(studio.apiKey.length).toBeLessThanOrEqual(64);

    const token = await studio.tokenFor("player-1");
    expect(token.length).toBeGreaterThan(64);

    const put = await http("PUT", "/api/v1/user-additional-info", {
      token,
      body: { username: "Ann", avatarImage: "ann.png" },
    });
    expect(put).toMatchObject({ status: 200, body: { username: "Ann", avatarImage: "ann.png" } });
    const get = await http("GET", "/api/v1/user-additional-info", { token });
    expect(get).toMatchObject({ status: 200, body: { username: "Ann", avatarImage: "ann.png" } });
  });

  it("refuses a revoked key on the very next request", async () => {
    const studio = await newStudioApp("Revoking studio");
    const keys = await http("GET", `/api/v1/admin/apps/${studio.appId}/api-keys`, { token: ADMIN_TOKEN });
    const keyId = keys.body.items[0].key_id;
    await studio.tokenFor("p");
    const revoked = await http("DELETE", `/api/v1/admin/apps/${studio.appId}/api-keys/${keyId}`, {
      token: ADMIN_TOKEN,
    });
    expect(revoked.status).toBe(200);
    const after = await http("POST", "/api/v1/auth/access-token", { token: studio.apiKey, body: { user_id: "p" } });
    expect(after).toEqual(
      expect.objectContaining({ status: 401, body: { status: 401, message: "Invalid or revoked API key" } }),
    );
  });

  it("serves the OpenAPI document and the reference page", async () => {
    const doc = await http("GET", "/openapi.json");
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe("3.1.0");
    expect(Object.keys(doc.body.paths)).toContain("/api/v1/auth/access-token");
    const page = await http("GET", "/docs");
    expect(page.status).toBe(200);
    // The explorer renders /openapi.json in the browser, from a script of the service's own.
    expect(String(page.body)).toMatch(
      /<script type="module" src="\/static\/explorer-[0-9a-f]+\/explorer\.js"><\/script>/,
    );
  });
});
