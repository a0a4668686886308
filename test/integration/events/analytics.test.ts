import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import type { BackgroundMessage } from "../../../src/user/messages";
import type { UserEvent } from "../../../src/user/event";
import { runScheduled } from "../../../src/cron";
import { pruneEventData } from "../../../src/events/retention";
import { archiveOf, consume } from "./support";

let app: Awaited<ReturnType<typeof createTestApp>>;

beforeAll(async () => {
  app = await createTestApp("Analytics");
});

const at = (iso: string) => Date.parse(iso);
const eventMessage = (
  appId: string,
  eventName: string,
  receivedAt: number,
  extra: Partial<UserEvent> = {},
): BackgroundMessage => ({
  kind: "event",
  event: {
    appId,
    userId: "u1",
    teamId: "red",
    eventName,
    eventType: "single",
    sessionId: "s1",
    metaData: { amount: 2, weapon_used: "rifle" },
    eventId: null,
    receivedAt,
    credential: "api_key",
    ...extra,
  },
  userRef: "ref-of-u1",
});
const usageMessage = (appId: string, month: string, count: number): BackgroundMessage => ({
  kind: "usage",
  appId,
  metric: "unlocked_challenges",
  month,
  count,
});
const analytics = (appId: string, query: string) =>
  call("GET", `/api/v1/admin/apps/${appId}/analytics/events?${query}`, { token: ADMIN });
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
    expect((await usage(app.appId, "?month=2025-01")).body.items).toEqual([
      { month: "2025-01", events: 4, unlocked_challenges: 0 },
    ]);
  });

  it("archives the raw events in R2, one gzip NDJSON object per app and UTC hour", async () => {
    const other = await createTestApp("Archive");
    const { ids } = await consume([
      eventMessage(other.appId, "kill-enemy", at("2025-01-01T10:00:00Z")),
      eventMessage(other.appId, "earn-points", at("2025-01-01T10:59:59.999Z"), { eventId: "e-7", teamId: null }),
      eventMessage(other.appId, "kill-enemy", at("2025-01-02T00:00:00Z")),
    ]);
    const objects = await archiveOf(other.appId);
    expect(objects.map((o) => o.key)).toEqual([
      expect.stringMatching(
        new RegExp(`^events/app=${other.appId}/date=2025-01-01/hour=10/[0-9a-f]{32}\\.ndjson\\.gz$`),
      ),
      expect.stringMatching(
        new RegExp(`^events/app=${other.appId}/date=2025-01-02/hour=00/[0-9a-f]{32}\\.ndjson\\.gz$`),
      ),
    ]);
    expect(objects.map((o) => o.events)).toEqual(["2", "1"]);
    // The player appears by the pseudonym their object gave the event, never by user id.
    const line = (id: string, eventName: string, receivedAt: string, extra = {}) => ({
      id,
      app_id: other.appId,
      user_ref: "ref-of-u1",
      team_id: "red",
      event_name: eventName,
      event_type: "single",
      session_id: "s1",
      event_id: null,
      meta_data: { amount: 2, weapon_used: "rifle" },
      received_at: receivedAt,
      ...extra,
    });
    expect(objects[0].lines).toEqual([
      line(ids[0], "kill-enemy", "2025-01-01T10:00:00.000Z"),
      line(ids[1], "earn-points", "2025-01-01T10:59:59.999Z", { event_id: "e-7", team_id: null }),
    ]);
    expect(objects[1].lines).toEqual([line(ids[2], "kill-enemy", "2025-01-02T00:00:00.000Z")]);
    const raw = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE name = 'analytics_events' AND type = 'table'",
    ).first();
    expect(raw).toBeNull();
  });

  it("counts per UTC hour and name, the totals equal to the events accepted", async () => {
    const other = await createTestApp("Hours");
    const names = ["a", "b", "c"];
    const start = at("2025-03-10T22:00:00Z");
    // 300 events over 5 hours across a day boundary, in three batches (a queue batch holds 100).
    const events = Array.from({ length: 300 }, (_, i) => eventMessage(other.appId, names[i % 3], start + i * 60_000));
    for (let i = 0; i < events.length; i += 100) await consume(events.slice(i, i + 100));
    const rows = await env.DB.prepare(
      "SELECT hour, event_name, count FROM event_counts WHERE app_id = ? ORDER BY hour, event_name",
    )
      .bind(Number(other.appId))
      .all<{ hour: number; event_name: string; count: number }>();
    expect(rows.results).toEqual(
      [0, 1, 2, 3, 4].flatMap((h) =>
        names.map((name) => ({ hour: start + h * 3_600_000, event_name: name, count: 20 })),
      ),
    );
    expect(await analytics(other.appId, "from=2025-03-10&to=2025-03-11")).toMatchObject({
      status: 200,
      body: {
        total: 300,
        by_name: names.map((event_name) => ({ event_name, count: 100 })),
        by_day: [
          { day: "2025-03-10", count: 120 },
          { day: "2025-03-11", count: 180 },
        ],
      },
    });
    // A date-time range is counted in the whole hours it touches, and the answer says which.
    expect((await analytics(other.appId, "from=2025-03-10T23:30:00Z&to=2025-03-11T00:10:00Z")).body).toMatchObject({
      from: "2025-03-10T23:00:00.000Z",
      to: "2025-03-11T01:00:00.000Z",
      total: 120,
    });
    const objects = await archiveOf(other.appId);
    expect(objects.reduce((n, o) => n + o.lines.length, 0)).toBe(300);
    expect(new Set(objects.flatMap((o) => o.lines.map((l) => l.id))).size).toBe(300);
  });

  it("makes a replayed batch harmless: no second row, no second count", async () => {
    const other = await createTestApp("Replays");
    const messages = [
      eventMessage(other.appId, "kill-enemy", at("2025-02-01T10:00:00Z")),
      usageMessage(other.appId, "2025-02", 2),
    ];
    const { ids } = await consume(messages);
    const archived = await archiveOf(other.appId);
    const stored = await env.EVENTS_ARCHIVE.head(archived[0].key);
    await consume(messages, ids);
    expect(await archiveOf(other.appId)).toEqual(archived);
    // Not even rewritten: the redelivered message was skipped before the archive.
    expect((await env.EVENTS_ARCHIVE.head(archived[0].key))?.uploaded).toEqual(stored?.uploaded);
    expect((await analytics(other.appId, "from=2025-02-01&to=2025-02-01")).body.total).toBe(1);
    expect((await usage(other.appId)).body).toEqual({
      items: [{ month: "2025-02", events: 1, unlocked_challenges: 2 }],
      currentPage: 1,
      pageSize: 25,
      total: 1,
    });
  });

  it("archives a redelivered message once when the queue regroups it with new ones", async () => {
    const other = await createTestApp("Regrouped");
    const first = eventMessage(other.appId, "kill-enemy", at("2025-02-01T10:00:00Z"));
    const second = eventMessage(other.appId, "kill-enemy", at("2025-02-01T10:30:00Z"));
    const { ids } = await consume([first]);
    await consume([first, second], [ids[0], "msg-regrouped"]);
    const objects = await archiveOf(other.appId);
    expect(objects.flatMap((o) => o.lines.map((l) => l.id)).sort()).toEqual([ids[0], "msg-regrouped"].sort());
    expect((await analytics(other.appId, "from=2025-02-01&to=2025-02-01")).body.total).toBe(2);
  });

  it("archives again under the same name when counting failed after the archive", async () => {
    const other = await createTestApp("Count fails");
    const messages = [eventMessage(other.appId, "kill-enemy", at("2025-02-02T10:00:00Z"))];
    const original = env.DB.batch.bind(env.DB);
    let failed = false;
    // The counting transaction (usage, hours, receipts: three statements) fails once.
    const batch = vi.spyOn(env.DB, "batch").mockImplementation(async (statements) => {
      if (failed || statements.length !== 3) return original(statements);
      failed = true;
      throw new Error("D1 unavailable");
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const { ids, result } = await consume(messages);
    batch.mockRestore();
    logged.mockRestore();
    expect(result.retryMessages).toEqual([{ msgId: ids[0] }]);
    const archived = await archiveOf(other.appId);
    expect(archived).toHaveLength(1);
    expect((await analytics(other.appId, "from=2025-02-02&to=2025-02-02")).body.total).toBe(0);

    await consume(messages, ids);
    expect(await archiveOf(other.appId)).toEqual(archived);
    expect((await analytics(other.appId, "from=2025-02-02&to=2025-02-02")).body.total).toBe(1);
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
      error: {
        name: "RangeError",
        message: "Invalid time value",
        stack: expect.stringContaining("RangeError: Invalid time value"),
      },
    });
    logged.mockRestore();
  });

  it("archives, but does not count, the events of an app deleted since they were accepted, without failing the batch", async () => {
    const gone = await createTestApp("Deleted");
    await call("DELETE", `/api/v1/admin/apps/${gone.appId}`, { token: ADMIN });
    const { result } = await consume([
      eventMessage(gone.appId, "kill-enemy", Date.now()),
      usageMessage(gone.appId, "2025-03", 1),
    ]);
    expect(result.explicitAcks).toHaveLength(2);
    expect((await archiveOf(gone.appId)).map((o) => o.lines.map((l) => l.event_name))).toEqual([["kill-enemy"]]);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM event_counts WHERE app_id = ?")
      .bind(Number(gone.appId))
      .first();
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
    expect((await usage(other.appId, "?month=2024-12")).body.items).toEqual([
      { month: "2024-12", events: 0, unlocked_challenges: 0 },
    ]);
  });

  it("refuses a malformed month and an unknown app", async () => {
    expect(await usage(app.appId, "?month=2025-13")).toMatchObject({
      status: 400,
      body: { status: 400, errors: [{ field: "month", problem: "must be a month as YYYY-MM" }] },
    });
    expect(await usage("999999")).toMatchObject({
      status: 404,
      body: { status: 404, message: "App 999999 not found" },
    });
  });
});

describe("GET /api/v1/admin/apps/{appId}/analytics/events", () => {
  it("refuses a malformed or reversed range", async () => {
    expect(await analytics(app.appId, "from=2025-02-30")).toMatchObject({
      status: 400,
      body: {
        status: 400,
        message: "Invalid query: from must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)",
        errors: [
          { field: "from", problem: "must be an ISO 8601 date (2025-01-31) or date-time (2025-01-31T12:00:00Z)" },
        ],
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
    expect(await call("GET", `/api/v1/admin/apps/${app.appId}/analytics/events`, { token: app.apiKey })).toMatchObject({
      status: 401,
    });
    expect(await analytics("424242", "")).toMatchObject({ status: 404, body: { message: "App 424242 not found" } });
  });

  it("counts events sent through the API once the background queue has delivered them", async () => {
    const other = await createTestApp("Through the queue");
    const token = await other.tokenFor("t1");
    await call("POST", "/api/v1/events", { token: other.apiKey, body: { user_id: "k1", event_name: "match-start" } });
    await call("POST", "/api/v1/events?auth=access_token", { token, body: { event_name: "match-start" } });
    await call("POST", "/api/v1/events/batch", {
      token: other.apiKey,
      body: { events: [{ user_id: "k2", event_name: "match-finish" }] },
    });
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
  it("the cron drops archived events and counts older than ANALYTICS_RETENTION_DAYS, and old receipts", async () => {
    const other = await createTestApp("Retention");
    const now = at("2025-09-01T00:00:00Z");
    const day = 86_400_000;
    await consume([
      eventMessage(other.appId, "ancient", now - 91 * day),
      eventMessage(other.appId, "old", now - 20 * day),
      eventMessage(other.appId, "recent", now - day),
    ]);
    const names = async () => (await archiveOf(other.appId)).flatMap((o) => o.lines.map((l) => l.event_name));
    const counted = async () =>
      (
        await env.DB.prepare("SELECT event_name FROM event_counts WHERE app_id = ? ORDER BY hour")
          .bind(Number(other.appId))
          .all()
      ).results.map((r) => r.event_name);
    expect(await names()).toEqual(["ancient", "old", "recent"]);

    await runScheduled(env, now);
    expect(await names()).toEqual(["old", "recent"]);
    expect(await counted()).toEqual(["old", "recent"]);
    const retention = { DB: env.DB, EVENTS_ARCHIVE: env.EVENTS_ARCHIVE, ANALYTICS_RETENTION_DAYS: "10" };
    await pruneEventData(retention, now);
    expect(await names()).toEqual(["recent"]);
    expect(await counted()).toEqual(["recent"]);
    // An hour ends within the retention: kept until it has wholly passed.
    await pruneEventData(retention, now + 9 * day - 1);
    expect(await names()).toEqual(["recent"]);
  });

  it("leaves the archive to an R2 lifecycle rule when EVENTS_ARCHIVE_PRUNING is lifecycle, and prunes it hourly otherwise", async () => {
    const other = await createTestApp("Lifecycle");
    const now = at("2025-09-01T00:00:30Z");
    await consume([eventMessage(other.appId, "ancient", now - 200 * 86_400_000)]);
    await pruneEventData({ DB: env.DB, EVENTS_ARCHIVE: env.EVENTS_ARCHIVE, EVENTS_ARCHIVE_PRUNING: "lifecycle" }, now);
    expect(await archiveOf(other.appId)).toHaveLength(1);
    await pruneEventData({ DB: env.DB, EVENTS_ARCHIVE: env.EVENTS_ARCHIVE }, now + 60_000);
    expect(await archiveOf(other.appId)).toHaveLength(1);
    await pruneEventData({ DB: env.DB, EVENTS_ARCHIVE: env.EVENTS_ARCHIVE }, now);
    expect(await archiveOf(other.appId)).toHaveLength(0);
  });

  it("forgets receipts once the queue can no longer redeliver their messages", async () => {
    const other = await createTestApp("Receipts");
    const { ids } = await consume([eventMessage(other.appId, "x", Date.now())]);
    const receipt = () =>
      env.DB.prepare("SELECT period FROM event_receipts WHERE message_id = ?").bind(ids[0]).first<{ period: number }>();
    const { period } = (await receipt())!;
    expect(period % 2).toBe(0);
    const retention = { DB: env.DB, EVENTS_ARCHIVE: env.EVENTS_ARCHIVE };
    // Kept until its 2-hour period ended 6 hours ago.
    const expiry = (period + 2 + 6) * 3_600_000;
    await pruneEventData(retention, expiry - 1);
    expect(await receipt()).toEqual({ period });
    await pruneEventData(retention, expiry);
    expect(await receipt()).toBeNull();
  });
});
