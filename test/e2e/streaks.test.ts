import { afterEach, describe, expect, it } from "vitest";
import { receiver } from "../support/webhook-receiver";
import { ADMIN_TOKEN, eventually, http, newStudioApp } from "./support";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

const admin = (method: string, path: string, body?: unknown) =>
  http(method, `/api/v1/admin${path}`, { token: ADMIN_TOKEN, body });

describe("streaks against wrangler dev", () => {
  it("streak-lost reaches the studio's receiver when the development clock passes the period's end, without the player calling", async () => {
    const studio = await newStudioApp("Streaks e2e");
    const rx = receiver(() => 200);
    open.push(rx);
    const port = await rx.listen();
    for (const type of ["streak-extended", "streak-lost"]) {
      const r = await admin("POST", `/apps/${studio.appId}/webhooks`, {
        webhook_type: type,
        url: `http://127.0.0.1:${port}/${type}`,
      });
      expect(r.status).toBe(201);
    }
    const streak = await admin("POST", `/apps/${studio.appId}/streaks`, {
      key: "daily",
      name: "Daily",
      period: "daily",
      event_name: "lesson",
      time_zone: "UTC",
    });
    expect(streak.status).toBe(201);
    const sent = await http("POST", "/api/v1/events", {
      token: studio.apiKey,
      body: { user_id: "gone", event_name: "lesson", meta_data: {} },
    });
    expect(sent.status).toBe(200);
    await eventually(async () => (rx.calls.length >= 1 ? true : undefined), 30_000, "streak-extended");

    // The player never comes back: two days later the streak is lost at the end of the day they missed.
    expect((await admin("POST", "/dev/clock/advance", { advance_seconds: 2 * 86_400 })).status).toBe(200);
    await eventually(async () => (rx.calls.length >= 2 ? true : undefined), 30_000, "streak-lost");
    const bodies = rx.calls.map((c) => [c.url.pathname, JSON.parse(c.body)]);
    expect(bodies.map(([path, b]) => [path, b.webhook_type, b.user_id, b.length, b.longest])).toEqual([
      ["/streak-extended", "streak-extended", "gone", 1, 1],
      ["/streak-lost", "streak-lost", "gone", 0, 1],
    ]);
    expect(bodies[1][1]).toMatchObject({
      app_id: studio.appId,
      streak_id: streak.body.streak_id,
      key: "daily",
      freezes: 0,
    });
  });
});
