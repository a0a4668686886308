import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { admin, freshBrowserForEachTest, http, notice, operator, screenshot, signIn, url } from "./support";
import { newStudioApp } from "../e2e/support";

/** Leagues in the console: a league created with three tiers, its page with the season's cohorts, a player's section. */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let editor: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  studio = await newStudioApp("Leagues console");
  editor = await operator("editor");
}, 60_000);

let page: Page;
freshBrowserForEachTest((p) => (page = p));

const placed = async (leagueId: string, userId: string) => {
  const r = await http("GET", `/api/v1/leagues/${studio.appId}/${leagueId}?user_id=${userId}`, {
    token: studio.apiKey,
  });
  return r.body.cohort !== null;
};

describe("leagues in the console", () => {
  it("creates a league; its page shows the cohorts per tier with standings; the player's page shows their league", async () => {
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/leagues/new`));
    await page.getByLabel("Key", { exact: true }).fill("weekly-xp");
    await page.getByLabel("Name", { exact: true }).fill("Weekly league");
    await page.getByLabel("Event name").fill("earn-xp");
    await page.getByLabel("Value field").fill("xp");
    await page.getByLabel("Cohort size").fill("4");
    await page.getByLabel("Promoted per full cohort").fill("1");
    await page.getByLabel("Demoted per full cohort").fill("1");
    await page
      .getByLabel("Tiers (lowest first)")
      .fill(
        '[{"key": "bronze", "name": "Bronze"}, {"key": "silver", "name": "Silver"}, {"key": "gold", "name": "Gold"}]',
      );
    await page.getByRole("button", { name: "Create league" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("League weekly-xp created.");
    const leagues = await admin(`/apps/${studio.appId}/leagues`);
    expect(leagues.items).toHaveLength(1);
    expect(leagues.items[0]).toMatchObject({ key: "weekly-xp", cohort_size: 4, promote: 1, demote: 1 });
    const leagueId: string = leagues.items[0].league_id;

    const players = ["ana", "ben", "cleo", "dev", "eli", "fay"];
    for (const [i, player] of players.entries()) {
      const sent = await http("POST", "/api/v1/events", {
        token: studio.apiKey,
        body: { user_id: player, event_name: "earn-xp", meta_data: { xp: 100 - i * 7 } },
      });
      expect(sent.status).toBe(200);
      await expect.poll(() => placed(leagueId, player)).toBe(true);
    }
    await page.goto(url(`/console/apps/${studio.appId}/leagues/${leagueId}`));
    expect(await page.locator("#season .cohort h4").allTextContents()).toEqual([
      "Cohort 1 · 4/4 · full",
      "Cohort 2 · 2/4 · open",
    ]);
    expect(await page.locator("#season .cohort").first().locator("tbody td:nth-child(2)").allTextContents()).toEqual([
      "ana",
      "ben",
      "cleo",
      "dev",
    ]);
    await screenshot(page, "league");
    await page.goto(url(`/console/apps/${studio.appId}/leagues`));
    await screenshot(page, "leagues-list");
    await page.goto(url(`/console/apps/${studio.appId}/players/ana`));
    await expect.poll(() => page.locator("#leagues td").nth(2).textContent()).toContain("rank 1 of 4");
    await screenshot(page, "player-leagues");
  });
});
