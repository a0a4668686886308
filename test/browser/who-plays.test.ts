import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Page } from "playwright-core";
import { ADMIN_TOKEN, http, openBrowser, screenshot, signInAsOwner, url } from "./support";
import { newStudioApp } from "../e2e/support";

/**
 * Who plays, on the dashboard: players per day, retention and the events nothing counts, after
 * days moved on the development clock; and the event tester's warning of a name nothing counts.
 */

const DAY_S = 86_400;
let studio: Awaited<ReturnType<typeof newStudioApp>>;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let day1 = "";
let day2 = "";

const clockNow = async () =>
  Date.parse((await http("GET", "/api/v1/admin/dev/clock", { token: ADMIN_TOKEN })).body.now);
async function advance(seconds: number) {
  const r = await http("POST", "/api/v1/admin/dev/clock/advance", {
    token: ADMIN_TOKEN,
    body: { advance_seconds: seconds },
  });
  expect(r.status).toBe(200);
  return Date.parse(r.body.now);
}
async function send(userId: string, eventName: string) {
  const r = await http("POST", "/api/v1/events", {
    token: studio.apiKey,
    body: { user_id: userId, event_name: eventName, meta_data: { amount: 1 } },
  });
  expect(r.status).toBe(200);
}

beforeAll(async () => {
  studio = await newStudioApp("Who plays");
  const create = async (path: string, body: unknown) => {
    const r = await http("POST", `/api/v1/admin/apps/${studio.appId}${path}`, { token: ADMIN_TOKEN, body });
    expect(r.status).toBe(201);
    return r.body;
  };
  const category = await create("/challenge-categories", { category_slug: "fight", category_name: "Fight" });
  await create("/challenges", {
    category_id: category.category_id,
    challenge_name: "Defeat 10 enemies",
    challenge_goal: 10,
    event_name: "kill-enemy",
  });
  // Day 1 starts an hour into the next UTC day, so that its events all fall in it.
  const now = await clockNow();
  const dayMs = DAY_S * 1000;
  const start = await advance(Math.ceil((Math.floor(now / dayMs) * dayMs + dayMs + 3_600_000 - now) / 1000));
  day1 = new Date(start).toISOString().slice(0, 10);
  for (const userId of ["ana", "bo", "cy", "di", "ed"]) await send(userId, "kill-enemy");
  await send("ana", "kil-enemy");
  day2 = new Date(await advance(DAY_S)).toISOString().slice(0, 10);
  await send("ana", "kill-enemy");
  await send("bo", "kill-enemy");
  // The counts reach D1 through the background queue.
  await vi.waitFor(
    async () => {
      const r = await http("GET", `/api/v1/admin/apps/${studio.appId}/analytics/players?from=${day1}&to=${day2}`, {
        token: ADMIN_TOKEN,
      });
      expect(r.body.days?.map((d: any) => d.active)).toEqual([5, 2]);
    },
    { timeout: 20_000, interval: 200 },
  );
  browser = await openBrowser();
  page = browser.page;
  await signInAsOwner(page);
});
afterAll(async () => {
  await browser?.close();
  // The other files of the run see the real time again.
  expect((await http("DELETE", "/api/v1/admin/dev/clock", { token: ADMIN_TOKEN })).status).toBe(200);
});

const cells = (row: ReturnType<Page["locator"]>) => row.locator("th, td").allTextContents();

describe("who plays", () => {
  it("shows 5 new players on day 1, 2 active and none new on day 2, day-1 retention 40%, and kil-enemy unused", async () => {
    await page.goto(url(`/console/apps/${studio.appId}`));
    const players = page.locator("#players-per-day");
    await expect
      .poll(() => players.locator("figcaption").textContent())
      .toBe("Last 30 days, by UTC day: active players, new and returning · 7 players in total");
    // The scale: its unit above, its top beside the top gridline, 0 at the bottom; the days' axis named.
    expect(await players.locator(".chart-y-title").textContent()).toBe("players");
    expect(await players.locator(".chart-ticks span").allTextContents()).toEqual(["5", "0"]);
    expect(await players.locator(".chart-axis .chart-x-title").textContent()).toBe("UTC day");
    // Values on hover, and the same numbers as a table.
    expect(await players.locator("rect title").allTextContents()).toContain(
      `${day2}: 2 active players (0 new, 2 returning)`,
    );
    await players.getByText("The numbers as a table").click();
    expect(await cells(players.locator("tr", { hasText: day1 }))).toEqual([day1, "0", "5"]);
    expect(await cells(players.locator("tr", { hasText: day2 }))).toEqual([day2, "2", "0"]);
    const retention = page.locator("#retention");
    expect(await cells(retention.locator("tbody tr", { hasText: day1 }))).toEqual([
      day1,
      "5",
      "40% (2)",
      "not yet",
      "not yet",
    ]);
    const unused = page.locator("#unused-events");
    expect(await cells(unused.locator("tbody tr"))).toEqual(["kil-enemy", "1", "kill-enemy"]);
    expect(await page.locator("#events-per-hour rect title").allTextContents()).toContain(`${day2} 01:00: 2 events`);
    await screenshot(page, "dashboard-who-plays");

    // The range picker: a link per range, the chosen one marked.
    await page.getByRole("link", { name: "7 days" }).click();
    await page.waitForURL(url(`/console/apps/${studio.appId}?days=7`));
    expect(await page.locator(".range-picker [aria-current=page]").textContent()).toBe("7 days");
    expect(await page.locator("#players-per-day .chart-data tbody tr").count()).toBe(7);
  });

  it("warns in the event tester of a name nothing counts, and suggests kill-enemy", async () => {
    await page.goto(url(`/console/apps/${studio.appId}/events?user_id=ana`));
    const name = page.getByLabel("Event", { exact: true });
    await name.fill("kil-enemy");
    const warning = page.locator("#event-name-check .name-warning");
    await expect
      .poll(() => warning.textContent(), { timeout: 10_000 })
      .toContain("Nothing in this app counts kil-enemy: the event is accepted and changes nothing.");
    expect(await warning.getByRole("button").allTextContents()).toEqual(["kill-enemy"]);
    await screenshot(page, "tester-unused-name");
    // The suggestion fills the field; a counted name has no warning.
    await warning.getByRole("button", { name: "kill-enemy" }).click();
    expect(await name.inputValue()).toBe("kill-enemy");
    await expect.poll(() => page.locator("#event-name-check").textContent()).toBe("");
  });
});
