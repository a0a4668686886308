import { defineConfig } from "vitest/config";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { TEST_SECRETS } from "./test/support/secrets.ts";
import { buildAssets } from "./scripts/build-assets.mjs";

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
        // The operator's scripts (npm run deploy) against a fake wrangler on PATH.
        { test: { name: "scripts", include: ["test/scripts/**/*.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 60_000 } },
        // Inside workerd: the real Worker, D1, Durable Objects and queues, isolated per test file.
        {
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
            name: "workers",
            include: ["test/integration/**/*.test.ts"],
            setupFiles: ["test/integration/apply-migrations.ts"],
          },
        },
        // Against `wrangler dev`, with real clients, as a new user would run it.
        {
          test: {
            name: "e2e",
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
