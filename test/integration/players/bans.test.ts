import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { listBans } from "../../../src/auth/bans";
import { ADMIN, call, createTestApp, serviceNow } from "../helpers";

const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

describe("admin: bans", () => {
  it("ban, show, re-ban with another reason and expiry, list newest first, and lift", async () => {
    const app = await createTestApp("Bans admin");
    const until = new Date((await serviceNow()) + 7 * 86_400_000).toISOString();
    const first = await admin("POST", `/apps/${app.appId}/users/ann/ban`, {
      reason: "  wall hack  ",
      expires_at: until,
    });
    expect(first).toMatchObject({
      status: 200,
      body: {
        app_id: app.appId,
        user_id: "ann",
        reason: "wall hack",
        expires_at: until,
        banned_at: expect.any(String),
      },
    });
    expect((await admin("GET", `/apps/${app.appId}/users/ann/ban`)).body).toEqual(first.body);

    const renewed = await admin("POST", `/apps/${app.appId}/users/ann/ban`, { reason: "wall hack, again" });
    expect(renewed.body).toMatchObject({ user_id: "ann", reason: "wall hack, again", expires_at: null });
    await admin("POST", `/apps/${app.appId}/users/bob/ban`, { reason: "spam", expires_at: null });

    const list = await admin("GET", `/apps/${app.appId}/bans?pageSize=1`);
    expect(list.body).toEqual({
      items: [expect.objectContaining({ user_id: "bob" })],
      currentPage: 1,
      pageSize: 1,
      total: 2,
    });
    expect((await admin("GET", `/apps/${app.appId}/bans?currentPage=2&pageSize=1`)).body.items).toEqual([renewed.body]);

    expect((await admin("DELETE", `/apps/${app.appId}/users/ann/ban`)).status).toBe(204);
    expect(await admin("DELETE", `/apps/${app.appId}/users/ann/ban`)).toMatchObject({
      status: 404,
      body: { message: "Player ann is not banned" },
    });
    expect((await admin("GET", `/apps/${app.appId}/users/ann/ban`)).status).toBe(404);
    expect((await admin("GET", `/apps/${app.appId}/bans`)).body.total).toBe(1);
  });

  it("are searched by a part of the player's id or of the reason, in any case, for the console's Bans page", async () => {
    const app = await createTestApp("Bans search");
    await admin("POST", `/apps/${app.appId}/users/Cheater-1/ban`, { reason: "aimbot" });
    await admin("POST", `/apps/${app.appId}/users/speedy/ban`, { reason: "Speed hack" });
    const found = async (search: string) => {
      const { rows, total } = await listBans(
        env.DB,
        Number(app.appId),
        await serviceNow(),
        { currentPage: 1, pageSize: 25 },
        search,
      );
      return { users: rows.map((r) => r.user_id).sort(), total };
    };
    expect(await found("")).toEqual({ users: ["Cheater-1", "speedy"], total: 2 });
    expect(await found("CHEAT")).toEqual({ users: ["Cheater-1"], total: 1 });
    expect(await found("hack")).toEqual({ users: ["speedy"], total: 1 });
    expect(await found("e")).toEqual({ users: ["Cheater-1", "speedy"], total: 2 });
    expect(await found("nobody")).toEqual({ users: [], total: 0 });
  });

  it("refuse a ban without a reason, with an expiry in the past or not a date, and an unknown app", async () => {
    const app = await createTestApp("Bans validation");
    const past = new Date((await serviceNow()) - 1000).toISOString();
    expect((await admin("POST", `/apps/${app.appId}/users/ann/ban`, {})).body.errors).toEqual([
      { field: "reason", problem: expect.any(String) },
    ]);
    expect(await admin("POST", `/apps/${app.appId}/users/ann/ban`, { reason: "x", expires_at: past })).toEqual({
      status: 400,
      headers: expect.anything(),
      body: {
        status: 400,
        message: "Invalid body: expires_at must be in the future",
        errors: [{ field: "expires_at", problem: "must be in the future" }],
      },
    });
    expect(
      (await admin("POST", `/apps/${app.appId}/users/ann/ban`, { reason: "x", expires_at: "tomorrow" })).body.errors,
    ).toEqual([{ field: "expires_at", problem: "must be an ISO 8601 date-time such as 2026-06-01T00:00:00Z" }]);
    expect((await admin("POST", "/apps/999999/users/ann/ban", { reason: "x" })).status).toBe(404);
    expect((await admin("GET", "/apps/999999/bans")).status).toBe(404);
    expect((await admin("GET", `/apps/${app.appId}/bans`)).body).toEqual({
      items: [],
      currentPage: 1,
      pageSize: 25,
      total: 0,
    });
  });
});
