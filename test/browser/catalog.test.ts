import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { parse, stringify } from "yaml";
import { newStudioApp } from "../e2e/support";
import {
  acceptNextDialog,
  admin,
  operator,
  notice,
  openBrowser,
  screenshot,
  signIn,
  signInAsOwner,
  url,
} from "./support";

/** Catalog as code in the console: download the app's document, import another with a preview, apply it. */

const demo = readFileSync(new URL("../../scripts/demo/catalog.yaml", import.meta.url), "utf8");

let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let appId = "";
const catalog = () => `/console/apps/${appId}/catalog`;

beforeAll(async () => {
  ({ appId } = await newStudioApp("Catalog studio"));
  browser = await openBrowser();
  page = browser.page;
  await signInAsOwner(page);
});
afterAll(() => browser.close());

async function preview(document: string) {
  await page.getByLabel("Catalog document (YAML or JSON)").fill(document);
  await page.getByRole("button", { name: "Preview" }).click();
}

describe("the catalog page", () => {
  it("imports the demo game's YAML with a preview, and applies it on confirmation", async () => {
    await page.goto(url(`/console/apps/${appId}`));
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Catalog" }).click();
    await page.waitForURL(url(catalog()));
    await preview(demo);
    await expect
      .poll(() => page.locator(".plan-summary").textContent())
      .toBe("Plan: 16 to create, 0 to update, 0 to delete.");
    expect(await page.locator(".plan-list li").filter({ hasText: "challenges/daily-matches" }).count()).toBe(1);
    expect((await admin(`/apps/${appId}/catalog`)).categories).toEqual([]);
    await screenshot(page, "catalog-preview");

    acceptNextDialog(page, /^Apply to Catalog studio: 16 to create, 0 to update, 0 to delete\?$/);
    await page.getByRole("button", { name: "Apply 16 changes" }).click();
    await expect
      .poll(async () => (await notice(page).textContent()) ?? "")
      .toBe("Catalog applied: 16 created, 0 updated, 0 deleted.");
    expect(page.url()).toBe(url(catalog()));
    const applied = await admin(`/apps/${appId}/catalog`);
    expect(applied.categories.map((c: { category_slug: string }) => c.category_slug)).toEqual(["daily", "weekly"]);
    expect(await page.locator("#export").locator("xpath=..").textContent()).toContain(
      "2 categories, 4 challenges, 1 battle pass, 2 leaderboards, 0 webhooks.",
    );
  });

  it("downloads the app's document as YAML and as JSON, as the CLI's pull writes them", async () => {
    await page.goto(url(catalog()));
    const api = await admin(`/apps/${appId}/catalog`);
    for (const [label, name] of [
      ["Download YAML", `app-${appId}-catalog.yaml`],
      ["Download JSON", `app-${appId}-catalog.json`],
    ]) {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: label }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      const text = readFileSync((await download.path())!, "utf8");
      const { $schema, ...doc } = name.endsWith(".json")
        ? JSON.parse(text)
        : { $schema: text.split("\n")[0], ...parse(text) };
      expect(doc).toEqual(api);
      expect($schema).toContain("/api/v1/public/catalog-schema.json");
    }
    // Downloading does not leave the page.
    expect(page.url()).toBe(url(catalog()));
  });

  it("shows each changed field before and after, and deletes what the document leaves out only with prune", async () => {
    const doc = parse(demo);
    doc.categories[0].challenges[0].challenge_goal = 5;
    doc.leaderboards = doc.leaderboards.slice(0, 1);
    await page.goto(url(catalog()));
    await page.getByLabel("Delete what the document leaves out (prune)").check();
    await preview(stringify(doc));
    await expect
      .poll(() => page.locator(".plan-summary").textContent())
      .toBe("Plan: 0 to create, 1 to update, 1 to delete.");
    expect(await page.locator(".plan-fields li").allTextContents()).toEqual(["challenge_goal: 3 → 5"]);
    // What was typed and ticked stays for another preview.
    expect(await page.getByLabel("Delete what the document leaves out (prune)").isChecked()).toBe(true);
    await screenshot(page, "catalog-plan");

    acceptNextDialog(page, /1 to delete\? It deletes 1 object, with what players hold of them\.$/);
    await page.getByRole("button", { name: "Apply 2 changes" }).click();
    await expect
      .poll(async () => (await notice(page).textContent()) ?? "")
      .toBe("Catalog applied: 0 created, 1 updated, 1 deleted.");
    const applied = await admin(`/apps/${appId}/catalog`);
    expect(applied.leaderboards.map((b: { key: string }) => b.key)).toEqual(["high-scores"]);
    expect(applied.categories[0].challenges[0].challenge_goal).toBe(5);
  });

  it("lists every problem of an invalid document with its path and line, and keeps the text", async () => {
    await page.goto(url(catalog()));
    const invalid = "version: 1\nleaderboards:\n  - key: Top Scores\n    name: Top\n    aggregation: avg\n";
    await preview(invalid);
    await expect
      .poll(() => page.locator("#f-document-errors li").allTextContents())
      .toEqual([
        "Line 3: leaderboards[0].key must be lower-case letters, digits, - and _ (at most 100), starting with a letter or digit",
        "Line 5: leaderboards[0].aggregation must be one of: sum, max, min, last",
        // Checked across the board's fields, after each field's own rule.
        "Line 3: leaderboards[0].event_name is required",
      ]);
    expect(await page.getByLabel("Catalog document (YAML or JSON)").inputValue()).toBe(invalid);
    expect(await page.getByLabel("Catalog document (YAML or JSON)").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#plan").count()).toBe(0);
    await screenshot(page, "catalog-invalid");
  });

  it("previews an uploaded file", async () => {
    await page.goto(url(catalog()));
    const doc = { version: 1, leaderboards: [{ key: "weekly-kills", name: "Kills", event_name: "kill-enemy" }] };
    await page
      .getByLabel("Or upload a file")
      .setInputFiles({ name: "boards.json", mimeType: "application/json", buffer: Buffer.from(JSON.stringify(doc)) });
    await page.getByRole("button", { name: "Preview" }).click();
    await expect
      .poll(() => page.locator(".plan-summary").textContent())
      .toMatch(/^Plan: 1 to create, 0 to update, 0 to delete\. \d+ objects of the app are not in the document\.$/);
    expect(JSON.parse(await page.getByLabel("Catalog document (YAML or JSON)").inputValue())).toEqual(doc);
  });

  it("lets a viewer export, and offers no import", async () => {
    const viewer = await operator("viewer");
    const other = await openBrowser();
    try {
      await signIn(other.page, viewer.email, viewer.password);
      await other.page.waitForURL(url("/console"));
      await other.page.goto(url(catalog()));
      expect(await other.page.getByRole("link", { name: "Download YAML" }).count()).toBe(1);
      expect(await other.page.getByRole("button", { name: "Preview" }).count()).toBe(0);
      expect(await other.page.getByText("Importing a document needs an editor or an owner.").count()).toBe(1);
    } finally {
      await other.close();
    }
  });
});
