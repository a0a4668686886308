import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { hourStart } from "../../../src/events/core/archive-layout";
import { ASSET_URLS } from "../../../src/shared/asset-urls.generated";
import { ADMIN, call, createTestApp } from "../helpers";
import { consoleFixture } from "./fixtures";
import { ConsoleClient } from "./support";

describe("console pages", () => {
  it("draws the dashboard from the same data as the API: events per day, unlocks per month, webhook health, board members", async () => {
    const fixture = await consoleFixture("Dashboard");
    const day = 86_400_000;
    const now = Date.now();
    // Hourly event counts and usage counters as the background queue writes them.
    const hour = (ms: number) => hourStart(ms);
    await env.DB.batch([
      ...[
        [0, 2],
        [2, 1],
      ].map(([back, count]) =>
        env.DB.prepare(
          "INSERT INTO event_counts (app_id, hour, event_name, count) VALUES (?, ?, 'kill-enemy', ?)",
        ).bind(Number(fixture.appId), hour(now - back * day), count),
      ),
      env.DB.prepare(
        "INSERT INTO usage_counters (app_id, month, metric, count) VALUES (?, ?, 'unlocked_challenges', 7)",
      ).bind(Number(fixture.appId), new Date(now).toISOString().slice(0, 7)),
      env.DB.prepare("UPDATE webhook_deliveries SET status = 'failed' WHERE delivery_id = ?").bind(
        Number(fixture.deliveryId),
      ),
    ]);
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    const page = await owner.get(`/console/apps/${fixture.appId}`);
    expect(page.status).toBe(200);
    // Each chart by its figure's id: the dashboard has more charts than these two.
    const chart = (id: string) =>
      new RegExp(`<svg[^>]*role="img" aria-labelledby="${id}-title"[^>]*>(.*?)</svg>`, "s").exec(page.html)![1];
    const charts = [chart("events-per-day"), chart("unlocks-per-month")];
    const bars = (svg: string) =>
      [...svg.matchAll(/<rect[^>]*class="bar"[^>]*><title>([^<]*)<\/title>/g)].map((m) => m[1]);
    expect(bars(charts[0])).toHaveLength(30);
    expect(bars(charts[0]).at(-1)).toBe(`${new Date(now).toISOString().slice(0, 10)}: 2 events`);
    expect(bars(charts[0]).at(-3)).toBe(`${new Date(now - 2 * day).toISOString().slice(0, 10)}: 1 events`);
    expect(bars(charts[1])).toHaveLength(12);
    expect(bars(charts[1]).at(-1)).toBe(`${new Date(now).toISOString().slice(0, 7)}: 7 unlocks`);
    expect(page.html).toContain('Failed <strong class="num">1</strong>');
    expect(page.html).toMatch(/Scores<\/a><\/td><td class="num">0<\/td><td class="num">0<\/td>/);
  });

  it("deletes an app only when its name is typed", async () => {
    const { appId } = await createTestApp("Doomed app");
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    const wrong = await owner.post(`/console/apps/${appId}/delete`, { confirm_name: "Doomed" });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain("“Doomed” is not this app&#39;s name.");
    expect((await call("GET", `/api/v1/admin/apps/${appId}`, { token: ADMIN })).status).toBe(200);
    expect(await owner.post(`/console/apps/${appId}/delete`, { confirm_name: "Doomed app" })).toMatchObject({
      status: 303,
      location: "/console",
    });
    expect((await call("GET", `/api/v1/admin/apps/${appId}`, { token: ADMIN })).status).toBe(404);
  });

  it("shows a new API key once, and only its prefix afterwards", async () => {
    const { appId } = await createTestApp("Keys");
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    const created = await owner.post(`/console/apps/${appId}/keys`, { name: "server" });
    expect(created.status).toBe(201);
    const key = /<code id="new-key">([^<]+)<\/code>/.exec(created.html)![1];
    expect((await call("POST", "/api/v1/auth/access-token", { token: key, body: { user_id: "p" } })).status).toBe(200);
    const later = await owner.get(`/console/apps/${appId}/keys`);
    expect(later.html).not.toContain(key);
    expect(later.html).toContain(`${key.slice(0, 8)}…`);
    expect(later.headers.get("Cache-Control")).toBe("no-store");
  });

  it("reorders levels with the same rule as the admin API", async () => {
    const fixture = await consoleFixture("Levels");
    const base = `/api/v1/admin/apps/${fixture.appId}/battle-passes/${fixture.passId}`;
    const second = await call("POST", `${base}/levels`, {
      token: ADMIN,
      body: { challenges: [{ challenge_name: "Two", challenge_goal: 2, event_name: "collect-item" }] },
    });
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    const moved = await owner.post(
      `/console/apps/${fixture.appId}/battle-passes/${fixture.passId}/levels/${second.body.level_id}/move`,
      { direction: "up" },
    );
    expect(moved.status).toBe(303);
    const order = async () =>
      (await call("GET", `${base}/levels`, { token: ADMIN })).body.items.map(
        (l: { level_id: string; level_priority: number }) => [l.level_id, l.level_priority],
      );
    expect(await order()).toEqual([
      [second.body.level_id, 0],
      [fixture.levelId, 1],
    ]);

    const api = await call("PUT", `${base}/level-order`, {
      token: ADMIN,
      body: { level_ids: [fixture.levelId, second.body.level_id] },
    });
    expect(api).toMatchObject({ status: 200, body: { level_ids: [fixture.levelId, second.body.level_id] } });
    expect(await order()).toEqual([
      [fixture.levelId, 0],
      [second.body.level_id, 1],
    ]);
    const partial = await call("PUT", `${base}/level-order`, { token: ADMIN, body: { level_ids: [fixture.levelId] } });
    expect(partial).toMatchObject({
      status: 400,
      body: { errors: [{ field: "level_ids", problem: "must name each of the pass's 2 levels once" }] },
    });
  });

  it("answers an unknown console page inside the console, and refers to its files by their static assets' URLs", async () => {
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    const missing = await owner.get("/console/nothing/here");
    expect(missing.status).toBe(404);
    expect(missing.html).toContain("There is no console page at /console/nothing/here.");
    expect(missing.headers.get("Content-Security-Policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    const page = await owner.get("/console");
    const group = /href="\/static\/(console-[0-9a-f]{16})\/console\.css"/.exec(page.html)![1];
    expect(page.html).toContain(`<script src="/static/${group}/htmx.min.js" defer="">`);
    expect(page.html).toContain(`<script type="module" src="/static/${group}/console.js">`);
    // The Worker does not serve the files (its script holds none of them): Workers static assets
    // does, before the Worker runs (test/e2e/static-assets.test.ts).
    expect(ASSET_URLS["console.css"]).toBe(`/static/${group}/console.css`);
    expect((await owner.get(`/static/${group}/console.css`)).status).toBe(404);
    // The pages themselves are never cached.
    expect(page.headers.get("Cache-Control")).toBe("no-store");
    // Signed out, the sign-in page refers to the same files.
    expect((await new ConsoleClient().get("/console/sign-in")).html).toContain(`href="/static/${group}/console.css"`);
  });
});
