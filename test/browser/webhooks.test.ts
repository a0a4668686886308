import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { receiver } from "../support/webhook-receiver";
import { newStudioApp } from "../e2e/support";
import { ADMIN_TOKEN, operator, http, notice, openBrowser, screenshot, signIn, url } from "./support";

/** A failed delivery, seen in the log with its attempt, fixed at the receiver and redelivered from the console. */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
let gone = true;
// 410 Gone fails a delivery at once (and disables the endpoint); afterwards the receiver accepts.
const rx = receiver(() => (gone ? 410 : 200));
let port = 0;

beforeAll(async () => {
  studio = await newStudioApp("Webhooks");
  port = await rx.listen();
  browser = await openBrowser();
  page = browser.page;
  const editor = await operator("editor");
  await signIn(page, editor.email, editor.password);
  await page.waitForURL(url("/console"));
});
afterAll(async () => {
  await browser.close();
  await rx.close();
});

const base = () => `/console/apps/${studio.appId}/webhooks`;

describe("webhooks in the console", () => {
  it("sends a test call that fails, shows its attempt, and redelivers it once the endpoint works again", async () => {
    await page.goto(url(base()));
    await page.getByLabel("Type", { exact: true }).selectOption("challenge-changed");
    await page.getByLabel("URL").fill(`http://127.0.0.1:${port}/hooks`);
    await page.getByLabel("Secret").fill("receiver-secret");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.waitForURL(/\/webhooks\/\d+$/);
    const endpointPath = new URL(page.url()).pathname;

    await page.getByRole("button", { name: "Send test call" }).click();
    await page.waitForURL(/\/webhooks\/deliveries\/\d+$/);
    const deliveryPath = new URL(page.url()).pathname;
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator("dl.facts dd").first().textContent();
        },
        { timeout: 20_000 },
      )
      .toContain("failed");
    expect(await page.locator("tbody tr").first().locator("td").allTextContents()).toEqual([
      "1",
      expect.any(String),
      "410",
      expect.stringMatching(/^\d+$/),
      "failed",
      "HTTP 410: no",
    ]);
    expect(rx.calls).toHaveLength(1);
    await screenshot(page, "delivery-failed");

    // The 410 disabled the endpoint: redelivering says so until it is saved again.
    await page.getByRole("button", { name: "Redeliver" }).click();
    await expect.poll(async () => (await notice(page).textContent()) ?? "").toMatch(/is disabled/);
    await page.goto(url(endpointPath));
    expect(await page.locator(".notice-error").textContent()).toContain("Disabled since");
    gone = false;
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await notice(page).textContent()) ?? "").toMatch(/saved/);

    await page.goto(url(deliveryPath));
    await page.getByRole("button", { name: "Redeliver" }).click();
    await expect
      .poll(async () => (await notice(page).textContent()) ?? "")
      .toMatch(/queued again with the same webhook-id/);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.locator("dl.facts dd").first().textContent();
        },
        { timeout: 20_000 },
      )
      .toContain("succeeded");
    expect(await page.locator("tbody tr").nth(1).locator("td").allTextContents()).toEqual([
      "2",
      expect.any(String),
      "200",
      expect.stringMatching(/^\d+$/),
      "succeeded",
      "2xx",
    ]);
    expect(rx.calls.map((c) => c.answered)).toEqual([410, 200]);
    expect(rx.calls[1].headers["webhook-id"]).toBe(rx.calls[0].headers["webhook-id"]);
    expect(rx.calls[1].url.searchParams.get("secret_key")).toBe("receiver-secret");
    await screenshot(page, "delivery");

    const log = await http("GET", `/api/v1/admin/apps/${studio.appId}/webhook-deliveries`, { token: ADMIN_TOKEN });
    expect(log.body.items).toMatchObject([{ status: "succeeded", attempt_count: 2, last_status_code: 200 }]);
    await page.goto(url(`${base()}/deliveries?status=succeeded`));
    expect(await page.locator("tbody tr").count()).toBe(1);
    await screenshot(page, "deliveries");
  });
});
