import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startDevServerOnFreePort } from "../../scripts/lib/dev-server.mjs";
import { TEST_SECRETS } from "../support/secrets";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/** Extra variables for the end-to-end server (e.g. short webhook back-off), beyond the test secrets. */
export const E2E_VARS: Record<string, string> = {
  // Webhook retries at once instead of after 60 s, 120 s, ...: a failing receiver exhausts its attempts in seconds.
  WEBHOOK_RETRY_BASE_SECONDS: "0",
};

/** One `wrangler dev` for the whole e2e run, on a free port, with its own fresh local state. */
export default async function setup(project: TestProject) {
  const persistTo = mkdtempSync(path.join(tmpdir(), "gamification-e2e-"));
  const server = await startDevServerOnFreePort({
    persistTo,
    vars: { ...TEST_SECRETS, ...E2E_VARS },
    quiet: true,
    localTraces: false,
  });
  project.provide("baseUrl", server.url);
  return async () => {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
