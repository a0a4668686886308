import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { version } from "../../package.json";
import { newStudioApp } from "../e2e/support";
import { ADMIN_TOKEN, baseUrl, http, openBrowser, PHONE, SCREENSHOTS, url } from "./support";

/**
 * The API explorer at /docs (Scalar's API reference, served as static assets of this origin): it
 * renders /openapi.json, finds operations, and sends requests to this origin with any of the
 * three credentials, without a single request to another host.
 */

async function documentFacts() {
  const doc = (await http("GET", "/openapi.json")).body;
  return {
    title: doc.info.title as string,
    leaderboards: doc.paths["/api/v2/leaderboards"].get.summary as string,
    check: doc.paths["/api/v1/auth/check"].get.summary as string,
    status: doc.paths["/api/v1/admin/status"].get.summary as string,
  };
}

/** Every request the page makes, by URL, from before it loads. */
function recordRequests(page: Page): string[] {
  const requests: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  return requests;
}

/**
 * zod, inside Scalar's bundle, probes once whether it may compile validators with `Function("")`;
 * the page's policy refuses eval, so zod validates without compiling. The probe is caught, but the
 * browser reports the refusal.
 */
const ZOD_EVAL_PROBE = /^CSP violation script-src \S+\/static\/explorer-[0-9a-f]{16}\/chunks\/\S+ $/;

const offOrigin = (requests: string[]) => requests.filter((u) => new URL(u).origin !== new URL(baseUrl()).origin);

async function save(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

const pageWidth = (page: Page) => page.evaluate<number>("document.documentElement.scrollWidth");

async function openExplorer(page: Page, title: string) {
  await page.goto(url("/docs"));
  await page.getByRole("heading", { name: title, level: 1 }).waitFor();
}

/** Searches with the explorer's own search box (behind the menu on a phone); answers the results. */
async function search(page: Page, query: string): Promise<Locator> {
  const menu = page.getByRole("button", { name: "Open Menu" });
  if (await menu.isVisible()) await menu.click();
  await page
    .getByRole("button", { name: /Search/ })
    .first()
    .click();
  await page.getByRole("combobox", { name: "Enter search query" }).fill(query);
  return page.getByRole("listbox", { name: "Reference Search Results" }).getByRole("option");
}

const endsWithPath = (path: string) => new RegExp(`${path.replace(/[/{}]/g, "\\$&")}$`);

/** Opens an operation through the search, by its summary and path. */
async function openOperation(page: Page, summary: string, path: string) {
  const results = await search(page, summary);
  await results
    .filter({ hasText: summary })
    .filter({ hasText: endsWithPath(path) })
    .first()
    .click();
  await page.getByRole("heading", { name: summary }).waitFor();
}

/** In the request client, picks `scheme` as the only credential and types `token` into it. */
async function useCredential(client: Locator, scheme: string, token: string) {
  const picker = client.getByRole("button", { name: /Selected Auth Type/ });
  const preselected = (await picker.innerText()).replace(/^.*Selected Auth Type:\s*/s, "").trim();
  await picker.click();
  const page = client.page();
  const offered = (await page.getByRole("option").allInnerTexts()).map((t) => t.split("\n")[0].trim());
  if (preselected !== scheme) {
    await page.getByRole("option", { name: scheme }).click();
    await page.getByRole("option", { name: preselected }).click();
  }
  await picker.click();
  await expect.poll(async () => (await picker.innerText()).trim()).toBe(`Selected Auth Type: ${scheme}`);
  await client.getByPlaceholder("Token").fill(token);
  return offered;
}

describe("the API explorer at /docs", () => {
  it("loads from this origin only, finds operations, and sends a request with an API key", async () => {
    const facts = await documentFacts();
    const studio = await newStudioApp("Explorer studio");
    const browser = await openBrowser({ tolerate: ZOD_EVAL_PROBE });
    try {
      const { page } = browser;
      const requests = recordRequests(page);
      await openExplorer(page, facts.title);
      await save(page, "docs-1280");

      // The results name each operation by its summary, with its method and path.
      const results = await search(page, "leaderboard");
      const listing = results
        .filter({ hasText: facts.leaderboards })
        .filter({ hasText: endsWithPath("/api/v2/leaderboards") });
      await expect.poll(() => listing.count()).toBe(1);
      expect((await listing.innerText()).replace(/\s+/g, " ")).toContain(
        "GET HTTP Method: get Path: /api/v2/leaderboards",
      );
      await save(page, "docs-search-1280");
      await page.keyboard.press("Escape");

      // A result leads to its operation, whose "Test Request" opens the request client.
      await openOperation(page, facts.check, "/api/v1/auth/check");
      await page.getByRole("button", { name: "Test Request (get /api/v1/auth/check)" }).click();
      const client = page.getByRole("dialog");
      await client.getByRole("button", { name: /Selected Auth Type/ }).waitFor();
      const offered = await useCredential(client, "ApiKey", studio.apiKey);
      expect(offered.sort()).toEqual(["AccessToken", "AdminToken", "ApiKey"]);

      const answered = page.waitForResponse((r) => r.url() === url("/api/v1/auth/check"));
      await client.getByRole("button", { name: /^Send/ }).first().click();
      const response = await answered;
      expect(response.request().headers().authorization).toBe(`Bearer ${studio.apiKey}`);
      expect(response.status()).toBe(200);
      await expect.poll(() => client.innerText()).toContain("200 OK");
      const shown = await client.innerText();
      expect(shown).toContain(`"app_id": "${studio.appId}"`);
      expect(shown).toContain(`"credential": "api-key"`);
      await save(page, "docs-try-it-1280");

      expect(requests.filter((u) => u === url("/openapi.json")).length).toBe(1);
      expect(offOrigin(requests)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("sends an access token, and fits a 390 px screen without sideways scroll", async () => {
    const facts = await documentFacts();
    const studio = await newStudioApp("Explorer phone studio");
    const accessToken = await studio.tokenFor("explorer-player");
    const browser = await openBrowser({ tolerate: ZOD_EVAL_PROBE });
    try {
      const { page } = browser;
      const requests = recordRequests(page);
      await page.setViewportSize(PHONE);
      await openExplorer(page, facts.title);
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await save(page, "docs-390");

      await openOperation(page, facts.check, "/api/v1/auth/check");
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await save(page, "docs-operation-390");

      await page.getByRole("button", { name: "Test Request (get /api/v1/auth/check)" }).click();
      const client = page.getByRole("dialog");
      await client.getByRole("button", { name: /Selected Auth Type/ }).waitFor();
      await useCredential(client, "AccessToken", accessToken);
      const answered = page.waitForResponse((r) => r.url() === url("/api/v1/auth/check"));
      await client.getByRole("button", { name: /^Send/ }).first().click();
      const response = await answered;
      expect(response.request().headers().authorization).toBe(`Bearer ${accessToken}`);
      expect(response.status()).toBe(200);
      await expect.poll(() => client.innerText()).toContain("200 OK");
      const shown = await client.innerText();
      expect(shown).toContain(`"user_id": "explorer-player"`);
      expect(shown).toContain(`"credential": "access-token"`);
      expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
      await save(page, "docs-try-it-390");

      expect(offOrigin(requests)).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("sends the admin token to an admin operation", async () => {
    const facts = await documentFacts();
    const browser = await openBrowser({ tolerate: ZOD_EVAL_PROBE });
    try {
      const { page } = browser;
      const requests = recordRequests(page);
      await openExplorer(page, facts.title);
      await openOperation(page, facts.status, "/api/v1/admin/status");
      await page.getByRole("button", { name: "Test Request (get /api/v1/admin/status)" }).click();
      const client = page.getByRole("dialog");
      await client.getByRole("button", { name: /Selected Auth Type/ }).waitFor();
      await useCredential(client, "AdminToken", ADMIN_TOKEN);
      const answered = page.waitForResponse((r) => r.url() === url("/api/v1/admin/status"));
      await client.getByRole("button", { name: /^Send/ }).first().click();
      const response = await answered;
      expect(response.request().headers().authorization).toBe(`Bearer ${ADMIN_TOKEN}`);
      expect(response.status()).toBe(200);
      await expect.poll(() => client.innerText()).toContain("200 OK");
      expect(await client.innerText()).toContain(`"service": "${version}"`);
      expect(offOrigin(requests)).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
