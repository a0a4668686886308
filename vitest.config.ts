import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations, type D1Migration } from "@cloudflare/vitest-plugin";
import { TEST_SECRETS } from "./test/support/secrets.ts";
import { buildAssets } from "./scripts/build-assets.mjs";

/**
 * Files that read or change what the whole service shares (every app, every console user, the
 * cron's runs, the applied migrations) and expect only their own: each runs with storage of its own.
 */
const NEEDS_OWN_STORAGE = [
  "test/integration/admin/apps-and-keys.test.ts",
  "test/integration/admin/audit-log.test.ts",
  "test/integration/console/status.test.ts",
  "test/integration/ops/status.test.ts",
];

/** A project of tests inside workerd. */
function workersProject(
  migrations: D1Migration[],
  test: { name: string; isolate: boolean; include: string[]; exclude?: string[] },
) {
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        // MIGRATION_TEST_DB: an empty database on which a test applies migrations step by step.
        // One broker shard: tests that look into a broker object find every /mqtt socket in
        // shard 0; test/integration/realtime/shards.test.ts connects to chosen shards instead.
        miniflare: {
          bindings: { ...TEST_SECRETS, TEST_MIGRATIONS: migrations, MQTT_BROKER_SHARDS: "1" },
          d1Databases: ["MIGRATION_TEST_DB"],
        },
      }),
    ],
    test: {
      ...test,
      expect: patientPolls,
      setupFiles: ["test/integration/setup.ts"],
      // Sized for a machine busy with other work: a test waits on conditions, and a slow machine
      // must not turn a passing test into a failure.
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  };
}

/** `expect.poll` gives up after 1 s by default: too soon for a page or a queue on a busy machine. */
const patientPolls = { poll: { timeout: 15_000 } };

export default defineConfig(async () => {
  // The static assets and their URLs (src/shared/asset-urls.generated.ts), which the Worker imports.
  buildAssets();
  const migrations = await readD1Migrations("migrations");
  return {
    test: {
      // Every request writes a log line: the output of a test is shown only when it fails.
      silent: "passed-only" as const,
      projects: [
        // Pure cores: no runtime, no I/O.
        { test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" } },
        // Tools run as processes: the operator's scripts (npm start, npm run deploy against a fake
        // wrangler on PATH) and the API teams' linters and client generator on openapi.json.
        {
          test: {
            name: "scripts",
            include: ["test/scripts/**/*.test.ts"],
            environment: "node",
            testTimeout: 180_000,
            hookTimeout: 180_000,
          },
        },
        // Inside workerd: the real Worker, D1, Durable Objects and queues. The files share one
        // runtime and its storage, as tests of different apps and players; loading the Worker
        // afresh for every file would cost most of the project's time.
        workersProject(migrations, {
          name: "workers",
          isolate: false,
          include: ["test/integration/**/*.test.ts"],
          exclude: NEEDS_OWN_STORAGE,
        }),
        workersProject(migrations, { name: "workers-own-storage", isolate: true, include: NEEDS_OWN_STORAGE }),
        // Against `wrangler dev`, with real clients, as a new user would run it.
        {
          test: {
            name: "e2e",
            expect: patientPolls,
            include: ["test/e2e/**/*.test.ts"],
            environment: "node",
            globalSetup: ["test/e2e/global-setup.ts"],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
        // The admin console in a real Chromium (Playwright) against `wrangler dev`.
        {
          test: {
            name: "browser",
            expect: patientPolls,
            include: ["test/browser/**/*.test.ts"],
            environment: "node",
            globalSetup: ["test/browser/global-setup.ts"],
            testTimeout: 90_000,
            hookTimeout: 120_000,
            fileParallelism: false,
          },
        },
      ],
    },
  };
});
