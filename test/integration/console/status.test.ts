import { env } from "cloudflare:test";
import { afterEach, describe, expect, it } from "vitest";
import { version } from "../../../package.json";
import { MAINTENANCE_JOB, recordCronRun } from "../../../src/ops/cron-runs";
import { EXPECTED_D1_MIGRATION } from "../../../src/ops/expected-migration";
import { createTestApp } from "../helpers";
import { ConsoleClient } from "./support";

/**
 * The service status (GET /api/v1/admin/status) in the console: a page of its own, and its warnings where people land.
 */

/** The text of the first match of `pattern`: its code as it reads, its other tags as spaces. */
const textIn = (html: string, pattern: RegExp) =>
  (pattern.exec(html)?.[1] ?? "")
    .replace(/<\/?code>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim();

const warningsOf = (html: string) =>
  [
    ...(/<section class="panel warnings"[^>]*>(.*?)<\/section>/s.exec(html)?.[1] ?? "").matchAll(/<li>(.*?)<\/li>/gs),
  ].map((m) => m[1]);

afterEach(async () => {
  await env.DB.prepare("DELETE FROM cron_runs").run();
});

describe("the service status in the console", () => {
  it("shows a viewer what runs, with no warning in development", async () => {
    const viewer = new ConsoleClient();
    await viewer.signInAs("viewer");
    const page = await viewer.get("/console/status");
    expect(page.status).toBe(200);
    expect(page.html).toContain('href="/console/status" aria-current="page"');
    expect(page.html).toContain("No warnings: nothing unsafe or broken was found.");
    expect(warningsOf(page.html)).toEqual([]);
    const facts = textIn(page.html, /<dl class="facts">(.*?)<\/dl>/s);
    expect(facts).toContain(`Environment development Version ${version}`);
    expect(facts).toContain(
      `latest migration ${EXPECTED_D1_MIGRATION}, the code expects ${EXPECTED_D1_MIGRATION} current`,
    );
    expect(facts).toContain("Queues WEBHOOKS present BACKGROUND present");
    expect(facts).toContain(
      "No run yet: locally the cron runs on request (curl https://gamification.test/__scheduled)",
    );
    expect(page.html).toMatch(/<td>challenges<\/td><td class="num">\d+<\/td>/);

    const apps = await viewer.get("/console");
    expect(warningsOf(apps.html)).toEqual([]);
    expect(textIn(apps.html, /<section class="panel" aria-labelledby="service-status">(.*?)<\/section>/s)).toContain(
      `Version ${version} (development)`,
    );
  });

  it("puts the warnings on the apps page, every dashboard and the status page", async () => {
    const now = Date.now();
    await recordCronRun(env.DB, MAINTENANCE_JOB, now - 60_000, now - 59_000, ["event-retention"]);
    const { appId } = await createTestApp("Warned");
    const viewer = new ConsoleClient();
    await viewer.signInAs("viewer");
    const expected = `The cron's last run (${new Date(now - 60_000).toISOString()}) failed in: event-retention. Its log lines have source "cron".`;
    for (const path of ["/console", `/console/apps/${appId}`, "/console/status"]) {
      const page = await viewer.get(path);
      expect(page.status, path).toBe(200);
      expect(
        warningsOf(page.html).map((w) => w.replace(/&quot;/g, '"').replace(/&#39;/g, "'")),
        path,
      ).toEqual([expected]);
      expect(page.html, path).toContain('role="alert" aria-labelledby="service-warnings"');
    }
    expect((await viewer.get("/console/status")).html).toContain("failed in event-retention");
  });
});
