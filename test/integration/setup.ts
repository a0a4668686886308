import { applyD1Migrations, env, type D1Migration } from "cloudflare:test";
import { afterAll } from "vitest";

// TEST_MIGRATIONS is a test-only binding set in vitest.config.ts, not part of the Worker's Env.
const { TEST_MIGRATIONS } = env as unknown as { TEST_MIGRATIONS: D1Migration[] };

// Files that share a runtime share its database: it is migrated once, by the first of them.
const shared = globalThis as { migrated?: Promise<void> };
shared.migrated ??= applyD1Migrations(env.DB, TEST_MIGRATIONS);
await shared.migrated;

// The development clock lives in the shared database: a file that moves it puts it back, so that
// the next file starts at the real time.
afterAll(async () => {
  await env.DB.prepare("DELETE FROM dev_clock").run();
});
