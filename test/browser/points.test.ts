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

/** Points in the console: a system created with levels and a trigger, and a player's balance adjusted with a reason. */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let editor: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  studio = await newStudioApp("Points console");
  editor = await operator("editor");
  const coins = await http("POST", `/api/v1/admin/apps/${studio.appId}/points-systems`, {
    token: ADMIN_TOKEN,
    body: { key: "coins", name: { en: "Coins" }, spendable: true, max_balance: 100000 },
  });
  expect(coins.status).toBe(201);
}, 60_000);

let page: Page;
freshBrowserForEachTest((p) => (page = p));

describe("points in the console", () => {
  it("creates a points system with levels and a trigger; a player earns from it", async () => {
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/points/new`));
    await page.getByLabel("Key").fill("xp");
    await page.getByLabel("Name").fill("Experience");
    await page.getByLabel("Takes the challenges' experience points").check();
    await page
      .getByLabel("Levels")
      .fill(
        '[{"level": 1, "name": "Rookie", "points": 0}, {"level": 2, "name": "Apprentice", "points": 100}, {"level": 3, "name": "Veteran", "points": 500}]',
      );
    await page.getByLabel("Triggers").fill('[{"event_name": "slay", "points": 40}]');
    await page.getByRole("button", { name: "Create points system" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("Points system xp created.");
    const systems = await admin(`/apps/${studio.appId}/points-systems`);
    expect(systems.items.map((s: { key: string }) => s.key)).toEqual(["coins", "xp"]);
    expect(systems.items[1]).toMatchObject({
      credits_challenge_xp: true,
      levels: [{ level: 1 }, { level: 2 }, { level: 3 }],
      triggers: [{ event_name: "slay", every: 1, points: 40, filters: [], value_field: null }],
    });
    await screenshot(page, "points-system");
    await page.goto(url(`/console/apps/${studio.appId}/points`));
    expect(await page.locator("#list tbody tr td:first-child").allTextContents()).toEqual(["coins", "xp"]);
    await screenshot(page, "points-list");
  });

  it("shows a player's balances, level and ledger, and adjusts a balance with a reason (audited)", async () => {
    for (let i = 0; i < 3; i++)
      expect(
        (
          await http("POST", "/api/v1/events", {
            token: studio.apiKey,
            body: { user_id: "pia", event_name: "slay", meta_data: {} },
          })
        ).status,
      ).toBe(200);
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/players/pia`));
    const points = page.locator("#points");
    expect(await points.locator("tbody tr").nth(1).textContent()).toContain("120");
    await points.getByLabel("System").selectOption("coins");
    await points.getByLabel("Amount").fill("250");
    await points.getByLabel("Reason").fill("refund of a failed purchase");
    await points.getByRole("button", { name: "Adjust" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("Balance of pia in coins is now 250.");
    const rows = await page.locator("#points table").first().locator("tbody tr").allTextContents();
    expect(rows).toEqual(["Coins (coins)250250——", "Experience (xp)1201202 Apprentice3 at 500"]);
    const audit = await admin(`/apps/${studio.appId}/audit-log?resource=player&resource_id=pia`);
    expect(audit.items[0]).toMatchObject({
      action: "correct-points-adjust",
      after: { system: "coins", balance: 250, reason: "refund of a failed purchase" },
    });
    await screenshot(page, "points-player");
  });
});
