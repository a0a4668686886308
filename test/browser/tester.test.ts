import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import path from "node:path";
import {
  acceptNextDialog,
  ADMIN_TOKEN,
  operator,
  DESKTOP,
  http,
  notice,
  openBrowser,
  PHONE,
  screenshot,
  SCREENSHOTS,
  signIn,
  url,
} from "./support";
import { newStudioApp } from "../e2e/support";

/** The event tester sends events as a player; the live view shows what they changed, as a game receives it. */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let challengeId = "";
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;

beforeAll(async () => {
  studio = await newStudioApp("Tester");
  const create = async (path: string, body: unknown) => {
    const r = await http("POST", `/api/v1/admin/apps/${studio.appId}${path}`, { token: ADMIN_TOKEN, body });
    expect(r.status).toBe(201);
    return r.body;
  };
  const category = await create("/challenge-categories", { category_slug: "coins", category_name: "Coins" });
  const challenge = await create("/challenges", {
    category_id: category.category_id,
    challenge_name: "Collect 3 coins",
    challenge_goal: 3,
    event_name: "collect-item",
    is_auto_activated: true,
    filters: [{ field: "item_type", op: "eq", value: "coin" }],
  });
  challengeId = challenge.challenge_id;
  await create("/leaderboards", { name: "Coin hoarders", event_name: "collect-item", aggregation: "sum" });
  browser = await openBrowser();
  page = browser.page;
  const editor = await operator("editor");
  await signIn(page, editor.email, editor.password);
  await page.waitForURL(url("/console"));
});
afterAll(() => browser.close());

const liveEntries = () => page.locator(".live-log .summary").allTextContents();

describe("the event tester", () => {
  it("sends catalog events as a player and shows the live changes of their challenge and leaderboard", async () => {
    await page.goto(url(`/console/apps/${studio.appId}/events?user_id=player-7`));
    await expect
      .poll(() => page.locator(".live-status").textContent(), { timeout: 15_000 })
      .toMatch(/^Listening to 2 topics of player-7/);

    await page.getByLabel("Event", { exact: true }).fill("collect-item");
    await page.getByRole("button", { name: "Show its fields" }).click();
    await page.getByLabel("amount").fill("2");
    await page.getByLabel("item_type").fill("coin");
    await page.getByRole("button", { name: "Send event" }).click();
    await expect.poll(() => page.locator("#send-result h2").textContent()).toBe("Accepted");
    // First touch: the automatic challenge starts, then the event counts.
    await expect
      .poll(liveEntries, { timeout: 15_000 })
      .toContain(`Challenge ${challengeId} “Collect 3 coins”: unlock 0/3 → in-progress 0/3`);
    await expect
      .poll(liveEntries, { timeout: 15_000 })
      .toContain(`Challenge ${challengeId} “Collect 3 coins”: in-progress 0/3 → in-progress 2/3`);
    await expect
      .poll(liveEntries, { timeout: 15_000 })
      .toContain("Leaderboard “Coin hoarders”: user player-7 rank -1 → 1, score 0 → 2");

    // The form keeps the player and the event for the next one.
    expect(await page.getByLabel("Player (user id)").inputValue()).toBe("player-7");
    await page.getByLabel("amount").fill("1");
    await page.getByRole("button", { name: "Send event" }).click();
    await expect
      .poll(liveEntries, { timeout: 15_000 })
      .toContain(`Challenge ${challengeId} “Collect 3 coins”: in-progress 2/3 → finished 3/3`);
    await screenshot(page, "event-tester");
  });

  it("shows the intake's errors next to the event's fields", async () => {
    await page.getByLabel("amount").fill("");
    await page.getByLabel("item_type").fill("coin");
    await page.getByRole("button", { name: "Send event" }).click();
    await expect
      .poll(() => page.locator("#f-meta_data-amount-errors").textContent())
      .toBe("meta_data.amount is required for event 'collect-item'");
    expect(await page.locator("#send-result").textContent()).toBe("");
  });

  it("brings the live changes into view after a send at phone width, where they sit below the form", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(url(`/console/apps/${studio.appId}/events?user_id=player-9`));
    await expect
      .poll(() => page.locator(".live-status").textContent(), { timeout: 15_000 })
      .toMatch(/^Listening to 2 topics of player-9/);
    await page.getByLabel("Event", { exact: true }).fill("collect-item");
    await page.getByRole("button", { name: "Show its fields" }).click();
    await page.getByLabel("amount").fill("1");
    await page.getByLabel("item_type").fill("coin");
    await page.getByRole("button", { name: "Send event" }).click();
    await expect.poll(() => page.locator("#send-result h2").textContent()).toBe("Accepted");
    await expect
      .poll(
        async () =>
          (await liveEntries()).some((e) => e.startsWith("Leaderboard “Coin hoarders”: user player-9 rank -1 →")),
        { timeout: 15_000 },
      )
      .toBe(true);
    // The live panel's heading is on screen, below the sticky bar.
    const heading = await page.getByRole("heading", { name: "Live changes" }).boundingBox();
    expect(heading!.y).toBeGreaterThan(40);
    expect(heading!.y + heading!.height).toBeLessThan(PHONE.height);
    await page.screenshot({ path: path.join(SCREENSHOTS, "event-tester-sent-390.png") });
    await page.setViewportSize(DESKTOP);
  });

  it("shows the player's state after those events, and resets their challenges after confirmation", async () => {
    await page.goto(url(`/console/apps/${studio.appId}/players`));
    await page.getByLabel("Open a player by their exact id").fill("player-7");
    await page.getByRole("button", { name: "Open player" }).click();
    await page.waitForURL(url(`/console/apps/${studio.appId}/players/player-7`));
    const challengeRow = page.getByRole("row", { name: /Collect 3 coins/ });
    expect(await challengeRow.locator("td").allTextContents()).toEqual(
      expect.arrayContaining([challengeId, "Collect 3 coins", "finished", "3", "3"]),
    );
    // Scores and the recent events arrive through the background queue.
    await expect
      .poll(
        async () => {
          await page.reload();
          const events = await page.locator("section:has(h2:text('Recent events')) tbody tr").count();
          return [
            events,
            (
              await page
                .getByRole("row", { name: /Coin hoarders/ })
                .locator("td")
                .allTextContents()
            ).slice(0, 3),
          ];
        },
        { timeout: 15_000 },
      )
      .toEqual([2, ["Coin hoarders", "1", "3"]]);
    await screenshot(page, "player");

    acceptNextDialog(page, /Reset every challenge of player-7/);
    await page.getByRole("button", { name: "Reset challenges" }).click();
    await expect.poll(async () => (await notice(page).textContent()) ?? "").toBe("Challenges of player-7 reset.");
    const state = await http("GET", `/api/v1/admin/apps/${studio.appId}/users/player-7`, { token: ADMIN_TOKEN });
    expect(
      state.body.challenges.find((c: { challenge_id: string }) => c.challenge_id === challengeId)?.type ?? "gone",
    ).not.toBe("finished");
  });
});
