import { describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "./helpers";

describe("foundation smoke", () => {
  it("creates an app, a key, a token and reads user info", async () => {
    const app = await createTestApp();
    const token = await app.tokenFor("u1");
    expect(token.length).toBeGreaterThan(64);
    const put = await call("PUT", "/api/v1/user-additional-info", {
      token,
      body: { username: "Ann", avatarImage: "a.png" },
    });
    expect(put).toMatchObject({ status: 200, body: { username: "Ann", avatarImage: "a.png" } });
    const get = await call("GET", "/api/v1/user-additional-info", { token });
    expect(get.body).toEqual({ username: "Ann", avatarImage: "a.png" });
    const list = await call("GET", "/api/v1/admin/apps", { token: ADMIN });
    expect(list.status).toBe(200);
  });
});
