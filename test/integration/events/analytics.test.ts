import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import type { BackgroundMessage } from "../../../src/user/messages";
import type { UserEvent } from "../../../src/user/event";
import { runScheduled } from "../../../src/cron";
import { pruneEventData } from "../../../src/events/retention";
import { consume } from "./support";

let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  app = await createTestApp("Analytics");
});

const at = (iso: string) => Date.parse(iso);
const eventMessage = (appId: string, eventName: string, receivedAt: number, extra: Partial<UserEvent> = {}): BackgroundMessage => ({
  kind: "event",
  event: {
    appId, userId: "u1", teamId: "red", eventName, eventType: "single", sessionId: "s1",
    metaData: { amount: 2, weapon_used: "rifle" }, eventId: null, receivedAt, credential: "api_key", ...extra,
  },
});
const usageMessage = (appId: string, month: string, count: number): BackgroundMessage => ({
  kind: "usage", appId, metric: "unlocked_challenges", month, count,
});
const analytics = (appId: string, query: string) => call("GET", `/api/v1/admin/apps/${appId}/analytics/events?${query}`, { token: ADMIN });
const usage = (appId: string, query = "") => call("GET", `/api/v1/admin/apps/${appId}/usage${query}`, { token: ADMIN });

describe("the background consumer", () => {
  it("stores event rows and counts them, by name and by day", async () => {
    const { result } = await consume([
      eventMessage(app.appId, "kill-enemy", at("2025-01-01T10:00:00Z")),
      eventMessage(app.appId, "kill-enemy", at("2025-01-01T23:59:59Z")),
      eventMessage(app.appId, "earn-points", at("2025-01-03T00:00:00Z")),
      eventMessage(app.appId, "kill-enemy", at("2025-01-04T00:00:00Z")),
    ]);
    expect(result.outcome).toBe("ok");
    expect(result.explicitAcks).toHaveLength(4);

    expect(await analytics(app.appId, "from=2025-01-01&to=2025-01-03")).toEqual({
      status: 200,
      headers: expect.anything(),
      body: {
        app_id: app.appId,
        from: "2025-01-01T00:00:00.000Z",
        to: "2025-01-04T00:00:00.000Z",
        total: 3,
        by_name: [
          { event_name: "kill-enemy", count: 2 },
          { event_name: "earn-points", count: 1 },
        ],
        by_day: [
          { day: "2025-01-01", count: 2 },
          { day: "2025-01-02", count: 0 },
          { day: "2025-01-03", count: 1 },
        ],
      },
    });
    const row = await env.DB.prepare("SELECT * FROM analytics_events WHERE event_name = 'earn-points'").first();
    expect(row).toMatchObject({
      app_id: Number(app.appId), user_id: "u1", team_id: "red", event_type: "single", session_id: "s1",
      meta_data: '{"amount":2,"weapon_used":"rifle"}', event_id: null, received_at: at("2025-01-03T00:00:00Z"),
    });
    expect((await usage(app.appId, "?month=2025-01")).body.items).toEqual([{ month: "2025-01", events: 4, unlocked_challenges: 0 }]);
  });

  it("makes a replayed batch harmless: no second row, no second count", async () => {
    const other = await createTestApp("Replays");
    const messages = [
      eventMessage(other.appId, "kill-enemy", at("2025-02-01T10:00:00Z")),
      usageMessage(other.appId, "2025-02", 2),
    ];
    const { ids } = await consume(messages);
    await consume(messages, ids);
    expect((await analytics(other.appId, "from=2025-02-01&to=2025-02-01")).body.total).toBe(1);
    expect((await usage(other.appId)).body).toEqual({
      items: [{ month: "2025-02", events: 1, unlocked_challenges: 2 }],
      currentPage: 1,
      pageSize: 25,
      total: 1,
    });
  });

  it("retries the messages of a kind whose handler fails, and acknowledges the others", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const broken = eventMessage(app.appId, "kill-enemy", Number.NaN);
    const { ids, result } = await consume([broken, usageMessage(app.appId, "2025-03", 1)]);
    expect(result.retryMessages).toEqual([{ msgId: ids[0] }]);
    expect(result.explicitAcks).toEqual([ids[1]]);
    expect(logged).toHaveBeenCalledWith({
      level: "error",
      msg: "background handler failed; its messages are retried",
      source: "queue",
      queue: "gamification-background",
      kind: "event",
      messages: 1,
      error: { name: "RangeError", message: "Invalid time value", stack: expect.stringContaining("RangeError: Invalid time value") },
    });
    logged.mockRestore();
  });

  it("drops the events of a deleted app without failing the batch", async () => {
    const gone = await createTestApp("Deleted");
    await call("DELETE", `/api/v1/admin/apps/${gone.appId}`, { token: ADMIN });
    const { result } = await consume([eventMessage(gone.appId, "kill-enemy", Date.now()), usageMessage(gone.appId, "2025-03", 1)]);
    expect(result.explicitAcks).toHaveLength(2);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM analytics_events WHERE app_id = ?").bind(Number(gone.appId)).first();
    expect(rows).toEqual({ n: 0 });
  });
});

describe("GET /api/v1/admin/apps/{appId}/usage", () => {
  it("lists months newest first, with events and unlocked challenges", async () => {
    const other = await createTestApp("Usage");
    await consume([
      eventMessage(other.appId, "a", at("2025-04-30T23:00:00Z")),
      eventMessage(other.appId, "a", at("2025-05-01T01:00:00Z")),
      usageMessage(other.appId, "2025-05", 3),
      usageMessage(other.appId, "2025-06", 1),
    ]);
    expect((await usage(other.appId)).body.items).toEqual([
      { month: "2025-06", events: 0, unlocked_challenges: 1 },
      { month: "2025-05", events: 1, unlocked_challenges: 3 },
      { month: "2025-04", events: 1, unlocked_challenges: 0 },
    ]);
    expect((await usage(other.appId, "?pageSize=1&currentPage=2")).body).toEqual({
      items: [{ month: "2025-05", events: 1, unlocked_challenges: 3 }],
      currentPage: 2,
      pageSize: 1,
      total: 3,
    });
    expect((await usage(other.appId, "?month=2024-12")).body.items).toEqual([{ month: "2024-12", events: 0, unlocked_challenges: 0 }]);
  });

  it("refuses a malformed month and an unknown app", async () => {
    expect(await usage(app.appId, "?month=2025-13")).toMatchObject({
      status: 400,
      body: { status: 400, errors: [{ field: "month", problem: "must be a month as YYYY-MM" }] },
    });
    expect(await usage("999999")).toMatchObject({ status: 404, body: { status: 404, message: "App 999999 not found" } });
  });
});

describe("GET /api/v1/admin/apps/{appId}/analytics/events", () => {
  it("refuses a malformed or reversed range", async () => {
    expect(await analytics(app.appId, "from=2025-02-30")).toMatchObject({
      status: 400,
      body: {
        status: 400,
        message: "Invalid query: from must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)",
        errors: [{ field: "from", problem: "must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)" }],
      },
    });
    expect(await analytics(app.appId, "from=2025-02-02&to=2025-02-01T00:00:00Z")).toMatchObject({
      status: 400,
      body: { errors: [{ field: "to", problem: "must be after from" }] },
    });
    expect(await analytics(app.appId, "from=2023-01-01&to=2025-01-01")).toMatchObject({
      status: 400,
      body: { errors: [{ field: "from", problem: "must be at most 366 days before to" }] },
    });
  });

  it("needs the admin token and a known app", async () => {
    expect(await call("GET", `/api/v1/admin/apps/${app.appId}/analytics/events`, { token: app.apiKey })).toMatchObject({ status: 401 });
    expect(await analytics("424242", "")).toMatchObject({ status: 404, body: { message: "App 424242 not found" } });
  });

  it("counts events sent through the API once the background queue has delivered them", async () => {
    const other = await createTestApp("Through the queue");
    const token = await other.tokenFor("t1");
    await call("POST", "/api/v1/events", { token: other.apiKey, body: { user_id: "k1", event_name: "match-start" } });
    await call("POST", "/api/v1/events?auth=access_token", { token, body: { event_name: "match-start" } });
    await call("POST", "/api/v1/events/batch", { token: other.apiKey, body: { events: [{ user_id: "k2", event_name: "match-finish" }] } });
    await vi.waitFor(
      async () => {
        const r = await analytics(other.appId, "");
        expect(r.body.by_name).toEqual([
          { event_name: "match-start", count: 2 },
          { event_name: "match-finish", count: 1 },
        ]);
      },
      { timeout: 15_000, interval: 100 },
    );
  });
});

describe("retention", () => {
  it("the cron drops analytics events older than ANALYTICS_RETENTION_DAYS", async () => {
    const other = await createTestApp("Retention");
    const now = at("2025-09-01T00:00:00Z");
    const day = 86_400_000;
    await consume([
      eventMessage(other.appId, "ancient", now - 91 * day),
      eventMessage(other.appId, "old", now - 20 * day),
      eventMessage(other.appId, "recent", now - day),
    ]);
    const names = async () =>
      (await env.DB.prepare("SELECT event_name FROM analytics_events WHERE app_id = ? ORDER BY received_at").bind(Number(other.appId)).all())
        .results.map((r) => r.event_name);

    await runScheduled(env, now);
    expect(await names()).toEqual(["old", "recent"]);
    await pruneEventData({ DB: env.DB, ANALYTICS_RETENTION_DAYS: "10" }, now);
    expect(await names()).toEqual(["recent"]);
  });
});
