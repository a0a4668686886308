import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  ADMIN_TOKEN,
  admin,
  operator,
  freshBrowserForEachTest,
  http,
  notice,
  screenshot,
  signIn,
  url,
} from "./support";
import { newStudioApp } from "../e2e/support";

/** Streaks in the console: a streak created; a player's calendar, a restore and a grant of freezes with a reason. */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let editor: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  studio = await newStudioApp("Streaks console");
  editor = await operator("editor");
}, 60_000);

let page: Page;
freshBrowserForEachTest((p) => (page = p));

const event = async (userId: string) =>
  expect(
    (
      await http("POST", "/api/v1/events", {
        token: studio.apiKey,
        body: { user_id: userId, event_name: "practice", meta_data: {} },
      })
    ).status,
  ).toBe(200);
const advanceDays = async (days: number) =>
  expect(
    (
      await http("POST", "/api/v1/admin/dev/clock/advance", {
        token: ADMIN_TOKEN,
        body: { advance_seconds: days * 86_400 },
      })
    ).status,
  ).toBe(200);

describe("streaks in the console", () => {
  it("creates a daily streak with freezes and a milestone", async () => {
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/streaks/new`));
    await page.getByLabel("Key").fill("daily");
    await page.getByLabel("Name", { exact: true }).fill("Daily lesson");
    await page.getByLabel("Event name").fill("lesson");
    await page.getByLabel("Time zone").fill("UTC");
    await page.getByLabel("Freezes at start").fill("1");
    await page.getByLabel("Most freezes held").fill("2");
    await page.getByLabel("Milestones").fill('[{"length": 3}]');
    await page.getByRole("button", { name: "Create streak" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("Streak daily created.");
    const streaks = await admin(`/apps/${studio.appId}/streaks`);
    expect(streaks.items[0]).toMatchObject({
      key: "daily",
      name: "Daily lesson",
      period: "daily",
      event_name: "lesson",
      time_zone: "UTC",
      freezes: { initial: 1, earn_every: 0, max: 2 },
      milestones: [{ length: 3, points_rewards: [] }],
    });
    await screenshot(page, "streak");
    await page.goto(url(`/console/apps/${studio.appId}/streaks`));
    expect(await page.locator("#list tbody tr td:first-child").allTextContents()).toEqual(["daily"]);
    await screenshot(page, "streaks-list");
  });

  it("shows a player's calendar (kept, frozen, missed), restores a lost streak and grants freezes, with reasons", async () => {
    const habit = await http("POST", `/api/v1/admin/apps/${studio.appId}/streaks`, {
      token: ADMIN_TOKEN,
      body: {
        key: "habit",
        name: "Habit",
        period: "daily",
        event_name: "practice",
        time_zone: "UTC",
        freezes: { initial: 1, max: 2 },
      },
    });
    expect(habit.status).toBe(201);
    // Two days kept, one bridged by the freeze, one missed: lost at 2.
    await event("mia");
    await advanceDays(1);
    await event("mia");
    await advanceDays(3);
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/players/mia`));
    const section = page.locator("#streaks");
    expect(await section.locator(".streak-calendar li").evaluateAll((els) => els.map((e) => e.className))).toEqual([
      "status-kept",
      "status-kept",
      "status-frozen",
      "status-missed",
    ]);
    await screenshot(page, "streaks-player");
    await section.getByLabel("Reason").first().fill("outage");
    await section.getByRole("button", { name: "Restore" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("Streak habit of mia: length 2, 0 freezes.");
    await page.locator("#streaks").getByLabel("Streak").nth(1).selectOption(habit.body.streak_id);
    await page.locator("#streaks").getByLabel("Amount").fill("5");
    await page.locator("#streaks").getByLabel("Reason").nth(1).fill("goodwill");
    await page.locator("#streaks").getByRole("button", { name: "Grant" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("Streak habit of mia: length 2, 2 freezes.");
    const audit = await admin(`/apps/${studio.appId}/audit-log?resource=player&resource_id=mia`);
    expect(audit.items.map((e: { action: string }) => e.action)).toEqual([
      "correct-streak-freezes",
      "correct-streak-restore",
    ]);
    await screenshot(page, "streaks-player-restored");
  });
});
