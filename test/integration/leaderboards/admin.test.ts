import { describe, expect, it } from "vitest";
import { createTestApp } from "../helpers";
import { admin, deliver, get, score } from "./support";

describe("admin CRUD of leaderboards", () => {
  it("creates with defaults, reads, lists, replaces and deletes", async () => {
    const app = await createTestApp("Admin");
    const base = `/apps/${app.appId}/leaderboards`;
    const created = await admin("POST", base, { name: { en: "Hall", de: "Halle" }, event_name: "achieve-score" });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      leaderboard_id: expect.stringMatching(/^\d+$/),
      app_id: app.appId,
      key: `leaderboard-${created.body.leaderboard_id}`,
      name: { en: "Hall", de: "Halle" },
      event_name: "achieve-score",
      value_field: null,
      filters: [],
      aggregation: "sum",
      sort_order_ascending: false,
      period_range: null,
      period_range_reset_at_time: null,
      period_range_time_zone: null,
      season_started_at: expect.any(String),
      nextReset: null,
      authoritative: false,
      min_value: null,
      max_value: null,
      max_events_per_minute: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const id = created.body.leaderboard_id;
    expect((await admin("GET", `${base}/${id}`)).body).toEqual(created.body);

    const second = await admin("POST", base, {
      name: "Laps",
      event_name: "finish-laps",
      value_field: "required_time",
      aggregation: "min",
      sort_order_ascending: true,
      filters: [{ field: "lap_position", op: "lte", value: 3 }],
      period_range: "w",
      period_range_reset_at_time: "18:00:00",
      period_range_time_zone: "America/New_York",
    });
    expect(second.body).toMatchObject({
      period_range: "w",
      period_range_reset_at_time: "18:00:00",
      period_range_time_zone: "America/New_York",
    });
    expect(second.body.nextReset).toMatch(/^\d{4}-\d{2}-\d{2}T2[23]:00:00\.000Z$/);

    const list = await admin("GET", `${base}?pageSize=1&currentPage=2`);
    expect(list.body).toMatchObject({
      currentPage: 2,
      pageSize: 1,
      total: 2,
      items: [{ leaderboard_id: second.body.leaderboard_id }],
    });

    const replaced = await admin("PUT", `${base}/${id}`, {
      name: "Renamed",
      event_name: "earn-points",
      aggregation: "max",
    });
    expect(replaced.body).toMatchObject({
      name: "Renamed",
      event_name: "earn-points",
      aggregation: "max",
      created_at: created.body.created_at,
    });

    // The catalog cache sees the change at once: the renamed board now listens to earn-points.
    await deliver(app.appId, [{ user: "ann", name: "earn-points", meta: { amount: 4 } }, score("bob", 9)]);
    expect((await get(app.apiKey, `/api/v1/leaderboards/${id}`)).body).toMatchObject({
      name: "Renamed",
      grouped_by_users: [{ member_id: "ann", score: 4 }],
    });

    expect((await admin("DELETE", `${base}/${id}`)).status).toBe(204);
    expect((await admin("GET", `${base}/${id}`)).status).toBe(404);
    expect((await get(app.apiKey, `/api/v1/leaderboards/${id}`)).status).toBe(404);
  });

  it("refuses invalid input with 400 naming each field", async () => {
    const app = await createTestApp("Admin validation");
    const base = `/apps/${app.appId}/leaderboards`;
    const cases: [Record<string, unknown>, string][] = [
      [{ event_name: "x" }, "name"],
      [{ name: "A" }, "event_name"],
      [{ name: "A", event_name: "x", aggregation: "avg" }, "aggregation"],
      [{ name: "A", event_name: "x", period_range: "y" }, "period_range"],
      [
        { name: "A", event_name: "x", period_range: "d", period_range_reset_at_time: "25:00:00" },
        "period_range_reset_at_time",
      ],
      [
        { name: "A", event_name: "x", period_range: "d", period_range_time_zone: "Mars/Olympus" },
        "period_range_time_zone",
      ],
      [{ name: "A", event_name: "x", filters: [{ field: "a", op: "like", value: 1 }] }, "filters.0.op"],
      [{ name: "A", event_name: "x", filters: [{ field: "a", op: "in", value: 1 }] }, "filters.0.value"],
      [{ name: "A", event_name: "x", sort_order_ascending: "yes" }, "sort_order_ascending"],
    ];
    for (const [body, field] of cases) {
      const r = await admin("POST", base, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });

  it("answers 404 for unknown apps and boards, and needs the admin token", async () => {
    const app = await createTestApp("Admin 404");
    expect((await admin("GET", "/apps/999999/leaderboards")).status).toBe(404);
    expect((await admin("POST", "/apps/999999/leaderboards", { name: "A", event_name: "x" })).status).toBe(404);
    for (const method of ["GET", "DELETE"])
      expect((await admin(method, `/apps/${app.appId}/leaderboards/999999`)).status).toBe(404);
    expect((await admin("PUT", `/apps/${app.appId}/leaderboards/abc`, { name: "A", event_name: "x" })).status).toBe(
      404,
    );
    const other = await createTestApp("Admin 404 other");
    const board = await admin("POST", `/apps/${other.appId}/leaderboards`, { name: "A", event_name: "x" });
    expect((await admin("GET", `/apps/${app.appId}/leaderboards/${board.body.leaderboard_id}`)).status).toBe(404);
    expect((await get(app.apiKey, `/api/v1/admin/apps/${app.appId}/leaderboards`)).status).toBe(401);
  });
});
