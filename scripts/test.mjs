// `npm test`: the type check and the import layers, then every test project (unit, workers, e2e,
// browser) in one vitest run, closing with one plain "N passed, N failed" line that CI reads. The
// browser project needs a Chromium: which one is used, or why the browser tests are skipped, is
// said loudly.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectRoot } from "./lib/wrangler.mjs";
import { chromiumVersion, findChromium } from "./lib/chromium.mjs";

const run = (command, args, env = {}) => spawnSync(command, args, { cwd: projectRoot, stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

function banner(lines) {
  const width = Math.max(...lines.map((l) => l.length));
  console.log(["", "=".repeat(width), ...lines, "=".repeat(width), ""].join("\n"));
}

// The static assets and src/shared/asset-urls.generated.ts, which the type check reads.
if (run(process.execPath, [path.join(projectRoot, "scripts/build-assets.mjs")]) !== 0) {
  console.error("Building the static assets failed.");
  process.exit(1);
}
if (run(process.execPath, [path.join(projectRoot, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."]) !== 0) {
  console.error("Type check failed.");
  process.exit(1);
}
if (run(process.execPath, [path.join(projectRoot, "scripts/check-layers.mjs")]) !== 0) {
  console.error("An import points up the layers (README, Layout).");
  process.exit(1);
}

const extra = process.argv.slice(2);
const pickedProjects = extra.some((arg) => arg.startsWith("--project"));
const browserWanted = !pickedProjects || extra.some((arg, i) => arg === "--project=browser" || (arg === "--project" && extra[i + 1] === "browser"));
const chromium = findChromium();
let projects = [];
let browserLine = null;
if (browserWanted && chromium.path) {
  browserLine = `Browser tests: RUN with ${chromiumVersion(chromium.path)} (${chromium.path}, found via ${chromium.source})`;
  banner([browserLine]);
} else if (browserWanted) {
  browserLine = `Browser tests: SKIPPED, ${chromium.reason}`;
  banner([browserLine, "  Set CHROMIUM_PATH or install Chromium to run them; CI (.ci/run) installs Debian's chromium."]);
  if (!pickedProjects) projects = ["unit", "workers", "e2e"].flatMap((p) => ["--project", p]);
}

const report = path.join(mkdtempSync(path.join(tmpdir(), "vitest-report-")), "report.json");
const status = run(
  process.execPath,
  [path.join(projectRoot, "node_modules/vitest/vitest.mjs"), "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...projects, ...extra],
  chromium.path ? { CHROMIUM_PATH: chromium.path } : {},
);

try {
  const result = JSON.parse(readFileSync(report, "utf8"));
  console.log(`\nTests: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests + result.numTodoTests} skipped`);
  if (browserLine) console.log(browserLine);
} catch {
  console.error("No test report was written.");
}
process.exit(status);
