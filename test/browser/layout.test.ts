import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { newStudioApp } from "../e2e/support";
import { ADMIN_TOKEN, baseUrl, DESKTOP, http, openBrowser, screenshot, signInAsOwner, url } from "./support";

/**
 * Tables fit their panel at desktop width, long values wrapping or shortened with the whole value
 * on hover; rows seconds apart show the seconds.
 */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let passId = "";
const LONG_URL = `http://127.0.0.1:9/hooks/${"a-very-long-path-segment/".repeat(6)}receiver?with=a&long=query&string=that-goes-on`;

beforeAll(async () => {
  studio = await newStudioApp("Layout");
  // Written as a deployment pipeline does, with a long actor name in X-Actor.
  const write = async (method: string, path: string, body: unknown) => {
    const response = await fetch(`${baseUrl()}/api/v1/admin/apps/${studio.appId}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${ADMIN_TOKEN}`,
        "Content-Type": "application/json",
        "X-Actor": "release-pipeline-of-the-studio@build-server-42.ci.example.com",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status).toBeLessThan(300);
    return (await response.json()) as Record<string, string>;
  };
  const category = await write("POST", "/challenge-categories", { category_slug: "daily", category_name: "Daily" });
  const challenge = await write("POST", "/challenges", {
    category_id: category.category_id,
    challenge_name: "Collect coins",
    challenge_goal: 3,
    event_name: "collect-item",
  });
  await write("PUT", `/challenges/${challenge.challenge_id}`, {
    category_id: category.category_id,
    challenge_name: {
      en: "Collect a great many coins in one single long-running session",
      de: "Sammle sehr viele Münzen in einer einzigen langen Sitzung",
    },
    challenge_description: `<p>${"Collect coins across every level of the game, without stopping. ".repeat(4)}</p>`,
    challenge_goal: 3000000,
    event_name: "collect-item-with-a-rather-long-event-name-for-the-audit-log",
  });
  const hook = await write("POST", "/webhooks", {
    webhook_type: "challenge-changed",
    url: LONG_URL,
    secret_key: "receiver-secret",
  });
  await write("POST", `/webhooks/${hook.webhook_id}/test`, undefined);
  const pass = await write("POST", "/battle-passes", {
    battle_pass_name: "Season",
    start_date: "2030-01-01T00:00:00Z",
    end_date: "2030-02-01T00:00:00Z",
  });
  passId = pass.battle_pass_id;
  for (const goal of [1, 2]) {
    await write("POST", `/battle-passes/${passId}/levels`, {
      reward_amount: "100 gold coins and a rare badge",
      challenges: [
        { challenge_name: "Win matches in a row without losing once", challenge_goal: goal, event_name: "match-won" },
      ],
    });
  }
  for (let i = 0; i < 12; i++) {
    const r = await http("POST", "/api/v1/events", {
      token: studio.apiKey,
      body: { user_id: "player-1", event_name: "coin-found", meta_data: { n: i } },
    });
    expect(r.status).toBe(200);
  }
  browser = await openBrowser();
  page = browser.page;
  await signInAsOwner(page);
});
afterAll(() => browser.close());

/** How much each table is wider than its box (0 when it fits). */
const overflows = () =>
  page.evaluate<number[]>(
    "[...document.querySelectorAll('.table-wrap')].map((wrap) => Math.max(0, wrap.scrollWidth - wrap.clientWidth))",
  );

/** The texts of the times that show seconds. */
const secondTimes = () => page.locator("time[data-seconds]").allTextContents();

const app = (path: string) => url(`/console/apps/${studio.appId}${path}`);

describe("tables at 1280 px", () => {
  it("the audit log fits its panel, its changes readable, its times to the second", async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(app("/audit"));
    expect(await overflows()).toEqual([0]);
    const changes = await page.locator("td.changes").first().boundingBox();
    expect(changes!.width).toBeGreaterThan(200);
    expect((await secondTimes()).length).toBeGreaterThan(0);
    for (const text of await secondTimes()) expect(text).toMatch(/\d:\d\d:\d\d/);
    await page.locator("td.changes details").first().click();
    expect(await overflows()).toEqual([0]);
    await screenshot(page, "layout-audit");
  });

  it("the delivery log shortens a long URL, with the whole URL on hover", async () => {
    await page.goto(app("/webhooks/deliveries"));
    expect(await overflows()).toEqual([0]);
    expect(await page.locator(`td [title="${LONG_URL}"]`).count()).toBe(1);
    for (const text of await secondTimes()) expect(text).toMatch(/\d:\d\d:\d\d|not yet/);
    await screenshot(page, "layout-deliveries");
  });

  it("a player's recent events show their seconds", async () => {
    await page.goto(app("/players/player-1"));
    const times = await secondTimes();
    expect(times.length).toBe(12);
    for (const text of times) expect(text).toMatch(/\d:\d\d:\d\d/);
    expect(await overflows()).toEqual(expect.arrayContaining([0]));
    expect((await overflows()).every((o) => o === 0)).toBe(true);
    await screenshot(page, "layout-player-events");
  });

  it("a battle pass's levels keep “Level 1” on one line", async () => {
    await page.goto(app(`/battle-passes/${passId}/levels`));
    expect(await overflows()).toEqual([0]);
    const link = page.getByRole("link", { name: "Level 1", exact: true });
    const box = await link.boundingBox();
    // One line of text: well under two lines' height.
    expect(box!.height).toBeLessThan(30);
    await screenshot(page, "layout-levels");
  });
});
