import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { chromiumVersion, findChromium } from "../../scripts/lib/chromium.mjs";
import { TEST_SECRETS } from "../support/secrets";
import { E2E_VARS } from "../e2e/global-setup";

declare module "vitest" {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

/** One `wrangler dev` with fresh local state for the browser tests, and the Chromium they drive. */
export default async function setup(project: TestProject) {
  const found = findChromium();
  if (found.path === null) throw new Error(`The browser tests need Chromium: ${found.reason}`);
  console.log(`Browser tests: Chromium from ${found.source}, ${found.path} (${chromiumVersion(found.path)})`);
  const persistTo = mkdtempSync(path.join(tmpdir(), "gamification-browser-"));
  const port = await freePort();
  const server = await startDevServer({
    port,
    persistTo,
    vars: { ...TEST_SECRETS, ...E2E_VARS },
    quiet: true,
    localTraces: false,
  });
  project.provide("baseUrl", server.url);
  project.provide("chromiumPath", found.path);
  return async () => {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  };
}
