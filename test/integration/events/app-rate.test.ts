import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { admitAppEvents, reconcileAppEvents, RECONCILE_MS } from "../../../src/events/app-rate";
import { callWith, createTestApp, serviceNow } from "../helpers";

const rows = (appId: string) =>
  env.DB.prepare("SELECT second, events FROM app_event_seconds WHERE app_id = ? ORDER BY second")
    .bind(Number(appId))
    .all<{ second: number; events: number }>();

afterEach(() => vi.restoreAllMocks());

describe("the per-app count across isolates", () => {
  it("reports what this isolate accepted to D1 after the answer, once a second at most", async () => {
    const app = await createTestApp("App count reported");
    const event = { user_id: "u", event_name: "earn-points", meta_data: { amount: 1 } };
    // The wall clock stands still: both requests fall in one reconciliation interval.
    vi.spyOn(Date, "now").mockReturnValue(Date.now());
    // callWith waits for the work the request left running after its answer, as the runtime does.
    expect(
      (
        await callWith({}, "POST", "/api/v1/events/batch", {
          token: app.apiKey,
          body: { events: [event, event, event] },
        })
      ).status,
    ).toBe(200);
    const reported = (await rows(app.appId)).results;
    expect(reported.reduce((sum, r) => sum + r.events, 0)).toBe(3);
    // Within the same interval no second reconciliation starts.
    expect((await callWith({}, "POST", "/api/v1/events", { token: app.apiKey, body: event })).status).toBe(200);
    expect((await rows(app.appId)).results.reduce((sum, r) => sum + r.events, 0)).toBe(3);
  });

  it("learns what the other isolates accepted, and refuses what no longer fits the app's minute", async () => {
    const app = await createTestApp("App count shared");
    const now = await serviceNow();
    const second = Math.floor(now / 1000);
    expect(admitAppEvents(app.appId, now, 100, 10).admitted).toBe(10);
    await reconcileAppEvents(env.DB, app.appId, now);
    expect((await rows(app.appId)).results).toEqual([{ second, events: 10 }]);

    // Other isolates reported 85 events of the same minute.
    await env.DB.prepare("INSERT INTO app_event_seconds (app_id, second, events) VALUES (?, ?, 85)")
      .bind(Number(app.appId), second - 30)
      .run();
    const wall = Date.now();
    vi.spyOn(Date, "now").mockReturnValue(wall + RECONCILE_MS);
    await reconcileAppEvents(env.DB, app.appId, now + 1);
    expect(admitAppEvents(app.appId, now + 1, 100, 10)).toMatchObject({ admitted: 5, remaining: 0 });
  });
});
