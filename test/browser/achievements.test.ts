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

/** Achievements in the console: a rung created by form, the ladder per event, the dashboard's panel, a player's holdings and a revocation. */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let editor: Awaited<ReturnType<typeof operator>>;

const create = async (body: Record<string, unknown>) => {
  const r = await http("POST", `/api/v1/admin/apps/${studio.appId}/achievements`, { token: ADMIN_TOKEN, body });
  expect(r.status).toBe(201);
  return r.body;
};
const event = async (userId: string, name: string) =>
  expect(
    (
      await http("POST", "/api/v1/events", {
        token: studio.apiKey,
        body: { user_id: userId, event_name: name, meta_data: {} },
      })
    ).status,
  ).toBe(200);

beforeAll(async () => {
  studio = await newStudioApp("Achievements console");
  editor = await operator("editor");
  await create({
    key: "slay-1",
    name: "First blood",
    kind: "metric",
    event_name: "slay",
    aggregation: "count",
    threshold: 1,
  });
  await create({
    key: "slay-10",
    name: "Hunter",
    kind: "metric",
    event_name: "slay",
    aggregation: "count",
    threshold: 10,
  });
  await create({
    key: "secret",
    name: "Explorer",
    kind: "manual",
    hidden: true,
    hidden_description: "Look behind the waterfall",
  });
  await create({ key: "both", name: "Legend", kind: "composite", requires: ["slay-1", "secret"] });
}, 60_000);

let page: Page;
freshBrowserForEachTest((p) => (page = p));

describe("achievements in the console", () => {
  it("creates a rung by form; the list shows the ladder per event with holders and rarity; the dashboard lists them", async () => {
    for (const user of ["ada", "bob", "cyd"]) await event(user, "slay");
    await event("dan", "loot");
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/achievements/new`));
    await page.getByLabel("Key").fill("slay-5");
    await page.getByLabel("Name", { exact: true }).fill('{"en": "Slayer", "de": "Töter"}');
    await page.getByLabel("Kind").selectOption("metric");
    await page.getByLabel("Event").fill("slay");
    await page.getByLabel("Aggregation").selectOption("count");
    await page.getByLabel("Threshold").fill("5");
    await page.getByLabel("Sort order").fill("1");
    await page.getByRole("button", { name: "Create achievement" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("Achievement slay-5 created.");
    const listed = await admin(`/apps/${studio.appId}/achievements`);
    expect(listed.items.find((a: { key: string }) => a.key === "slay-5")).toMatchObject({
      name: { en: "Slayer", de: "Töter" },
      kind: "metric",
      aggregation: "count",
      threshold: 5,
      backdated: true,
    });
    await screenshot(page, "achievement-form");
    await page.goto(url(`/console/apps/${studio.appId}/achievements`));
    // Three of four players hold the first rung, counted within a minute.
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator(".ladder li").first().textContent();
        },
        { timeout: 60_000 },
      )
      .toContain("3 holders · 75.0%");
    expect(await page.locator(".ladder li").allTextContents()).toHaveLength(3);
    await screenshot(page, "achievements-list");
    await page.goto(url(`/console/apps/${studio.appId}`));
    expect(await page.locator("section.panel", { hasText: "Achievements" }).textContent()).toContain("75.0%");
    await screenshot(page, "achievements-dashboard");
  });

  it("shows a player's holdings and progress, and revokes one with a reason (audited)", async () => {
    const granted = await http(
      "POST",
      `/api/v1/achievements/${studio.appId}/${(await admin(`/apps/${studio.appId}/achievements`)).items.find((a: { key: string }) => a.key === "secret").achievement_id}/grant`,
      { token: studio.apiKey, body: { user_id: "ada" } },
    );
    expect(granted.status).toBe(200);
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/players/ada`));
    const section = page.locator("#achievements");
    expect(await section.locator("p.muted").first().textContent()).toBe("Holds 3 of 5.");
    await screenshot(page, "achievements-player");
    await section.getByLabel("Achievement").selectOption({ label: "secret" });
    await section.getByLabel("Reason").fill("granted to the wrong player");
    await section.getByRole("button", { name: "Revoke" }).click();
    await expect.poll(() => notice(page).textContent()).toContain("Revoked 2 achievement(s) of ada.");
    expect(await section.locator("p.muted").first().textContent()).toBe("Holds 1 of 5.");
    const audit = await admin(`/apps/${studio.appId}/audit-log?resource=player&resource_id=ada`);
    expect(audit.items[0]).toMatchObject({
      action: "revoke-achievement",
      after: { reason: "granted to the wrong player" },
    });
  });
});
