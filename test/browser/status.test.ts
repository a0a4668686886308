import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { version } from "../../package.json";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { DEVELOPMENT_SECRET_VALUES } from "../../src/shared/secrets";
import { EXPECTED_D1_MIGRATION } from "../../src/ops/expected-migration";
import { openBrowser, screenshot, signInAsOwner, url } from "./support";

/** The service status in the console: what runs, and the warnings of a deployment left unsafe. */

const factsText = (page: import("playwright-core").Page) => page.locator("dl.facts").first().innerText();

describe("the service status page", () => {
  it("shows what runs and the cron's last run", async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await signInAsOwner(page);
      await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Service status" }).click();
      await page.waitForURL(url("/console/status"));
      expect(await page.locator(".notice-success").textContent()).toBe(
        "No warnings: nothing unsafe or broken was found.",
      );
      const facts = await factsText(page);
      expect(facts).toContain(version);
      expect(facts).toContain(`latest migration ${EXPECTED_D1_MIGRATION}, the code expects ${EXPECTED_D1_MIGRATION}`);
      expect(facts).toMatch(/WEBHOOKS present\s+BACKGROUND present/);
      // The local cron runs on request (wrangler dev --test-scheduled).
      expect((await fetch(url("/__scheduled"))).ok).toBe(true);
      await page.reload();
      expect(await factsText(page)).toMatch(/Cron\s+\S.*succeeded/);
    } finally {
      await browser.close();
    }
  });
});

describe("a deployment with unsafe settings", () => {
  // Its own server: production, with the development clock left on and the published topic secret.
  const adminToken = "p".repeat(40);
  let server: Awaited<ReturnType<typeof startDevServer>>;
  let persistTo = "";
  beforeAll(async () => {
    persistTo = mkdtempSync(path.join(tmpdir(), "gamification-unsafe-"));
    const vars = {
      ENVIRONMENT: "production",
      ADMIN_TOKEN: adminToken,
      JWT_SIGNING_KEYS: JSON.stringify([{ kid: "prod-1", secret: "s".repeat(48) }]),
      TOPIC_SECRET: DEVELOPMENT_SECRET_VALUES.TOPIC_SECRET,
      DEV_CLOCK: "on",
      ALLOW_LOOPBACK_WEBHOOKS: "off",
    };
    server = await startDevServer({ port: await freePort(), persistTo, vars, quiet: true, localTraces: false });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(persistTo, { recursive: true, force: true });
  });

  it("shows its warnings on the apps page, every dashboard and the status page", async () => {
    const browser = await openBrowser();
    try {
      const { page } = browser;
      await page.goto(`${server.url}/console/sign-in`);
      await page.getByText("Sign in with the admin token").click();
      await page.getByLabel("Admin token").fill(adminToken);
      await page.getByRole("button", { name: "Sign in as owner" }).click();
      await page.waitForURL(`${server.url}/console`);
      const warnings = page.locator(".warnings li");
      const expected = [/^DEV_CLOCK is "on" outside development/, /^TOPIC_SECRET is the development value/];
      expect(await page.locator(".warnings h2").textContent()).toBe("Service status: 2 warnings");
      for (const [i, pattern] of expected.entries()) expect(await warnings.nth(i).textContent()).toMatch(pattern);
      await screenshot(page, "apps-warnings");

      const created = await fetch(`${server.url}/api/v1/admin/apps`, {
        method: "POST",
        headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Unsafe studio" }),
      });
      const { app_id } = (await created.json()) as { app_id: string };
      await page.goto(`${server.url}/console/apps/${app_id}`);
      expect(await warnings.count()).toBe(2);

      await page.getByRole("link", { name: "Service status →" }).click();
      await page.waitForURL(`${server.url}/console/status`);
      expect(await warnings.count()).toBe(2);
      expect(await warnings.nth(1).locator("code").textContent()).toBe("wrangler secret put TOPIC_SECRET");
      expect(await factsText(page)).toMatch(/Environment\s+production/);
      expect(await factsText(page)).toContain("No run yet: it runs every minute.");
      await screenshot(page, "status-warnings");
    } finally {
      await browser.close();
    }
  });
});
