// Finds the Chromium the console's browser tests drive: CHROMIUM_PATH, then the system's (Debian's
// `chromium` package), then one Playwright downloaded. Playwright cannot download browsers on
// every machine, so a system Chromium is the normal case.
import { accessSync, constants } from "node:fs";
import { spawnSync } from "node:child_process";
import { chromium } from "playwright-core";

const SYSTEM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/snap/bin/chromium"];

const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** @returns {{ path: string, source: string } | { path: null, reason: string }} */
export function findChromium() {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    return executable(configured)
      ? { path: configured, source: "CHROMIUM_PATH" }
      : { path: null, reason: `CHROMIUM_PATH is ${configured}, which is not an executable file` };
  }
  const system = SYSTEM_PATHS.find(executable);
  if (system) return { path: system, source: "the system" };
  const own = chromium.executablePath();
  if (own && executable(own)) return { path: own, source: "Playwright's browsers" };
  return {
    path: null,
    reason: `no Chromium found (looked at CHROMIUM_PATH, ${SYSTEM_PATHS.join(", ")} and Playwright's ${own}); install one with \`apt-get install -y chromium\``,
  };
}

/** The browser's own version line, e.g. "Chromium 150.0.7871.100 built on Debian ...". */
export function chromiumVersion(path) {
  const result = spawnSync(path, ["--version"], { encoding: "utf8", timeout: 20_000 });
  return (result.stdout || result.stderr || "").trim().split("\n")[0] || "unknown version";
}

/** The flags every test browser starts with: headless, no sandbox (containers), nothing that phones home. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
