// `npm test`: the type check and the import layers, then every test project (unit, scripts, workers,
// e2e, browser) in one vitest run, then the time each project took and the slowest files, closing
// with one plain "N passed, N failed" line that CI reads. The browser project needs a Chromium:
// which one is used, or why the browser tests are skipped, is said loudly.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectRoot } from "./lib/wrangler.mjs";
import { chromiumVersion, findChromium } from "./lib/chromium.mjs";
import { formatTimes, summarizeTimes } from "./lib/test-times.mjs";

const run = (command, args, env = {}) =>
  spawnSync(command, args, { cwd: projectRoot, stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;

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
// Formatting and lint (biome.jsonc): zero findings, as CI requires.
if (run(process.execPath, [path.join(projectRoot, "node_modules/@biomejs/biome/bin/biome"), "check", "."]) !== 0) {
  console.error("Lint or formatting findings: `npm run format` writes the formatting; fix the rest.");
  process.exit(1);
}
if (run(process.execPath, [path.join(projectRoot, "scripts/check-layers.mjs")]) !== 0) {
  console.error("An import points up the layers (docs/architecture.md).");
  process.exit(1);
}

const extra = process.argv.slice(2);
const pickedProjects = extra.some((arg) => arg.startsWith("--project"));
const browserWanted =
  !pickedProjects ||
  extra.some((arg, i) => arg === "--project=browser" || (arg === "--project" && extra[i + 1] === "browser"));
const chromium = findChromium();
let browserLine = null;
if (browserWanted && chromium.path) {
  browserLine = `Browser tests: RUN with ${chromiumVersion(chromium.path)} (${chromium.path}, found via ${chromium.source})`;
  banner([browserLine]);
} else if (browserWanted) {
  browserLine = `Browser tests: SKIPPED, ${chromium.reason}`;
  banner([
    browserLine,
    "  Set CHROMIUM_PATH or install Chromium to run them; CI (.ci/run) installs Debian's chromium.",
  ]);
}

/**
 * The whole suite runs in lanes, each its own vitest run, side by side: the end-to-end and browser
 * projects run their files one at a time against a server of their own, and vitest runs such
 * projects only after all the others, one after the other; as separate runs they overlap with the
 * workerd tests instead, whose time is mostly the runtime's while theirs is mostly waiting.
 * Arguments (a project, a file) make one run of exactly what they name.
 */
const lanes =
  extra.length > 0
    ? [{ name: "tests", args: extra }]
    : [
        { name: "unit and workers", args: ["--project", "unit", "--project", "workers*"] },
        { name: "scripts", args: ["--project", "scripts"] },
        { name: "e2e", args: ["--project", "e2e"] },
        ...(chromium.path ? [{ name: "browser", args: ["--project", "browser"] }] : []),
      ];

const reports = mkdtempSync(path.join(tmpdir(), "vitest-report-"));
const started = performance.now();
const vitest = path.join(projectRoot, "node_modules/vitest/vitest.mjs");

/**
 * One lane: the first streams its output as it comes; the others' is shown whole once each ends, so that lines do not
 * interleave.
 */
function runLane(lane, index) {
  const report = path.join(reports, `${index}.json`);
  const args = [vitest, "run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...lane.args];
  const live = index === 0;
  const child = spawn(process.execPath, args, {
    cwd: projectRoot,
    stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...(chromium.path ? { CHROMIUM_PATH: chromium.path } : {}) },
  });
  let output = "";
  if (!live) {
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
  }
  return new Promise((resolve) => {
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (!live) process.stdout.write(`\n----- ${lane.name} -----\n${output}`);
      console.log(`----- ${lane.name}: ${code === 0 ? "passed" : "FAILED"} after ${seconds.toFixed(1)} s -----`);
      resolve({ code: code ?? 1, report });
    });
  });
}

const results = await Promise.all(lanes.map(runLane));
const merged = { testResults: [], numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0 };
let missing = false;
for (const { report } of results) {
  try {
    const result = JSON.parse(readFileSync(report, "utf8"));
    merged.testResults.push(...result.testResults);
    for (const key of ["numPassedTests", "numFailedTests", "numPendingTests", "numTodoTests"])
      merged[key] += result[key];
  } catch {
    missing = true;
  }
}
if (missing) console.error("A lane wrote no test report: its vitest run ended before reporting.");
console.log(formatTimes(summarizeTimes(merged, projectRoot), (performance.now() - started) / 1000));
console.log(
  `\nTests: ${merged.numPassedTests} passed, ${merged.numFailedTests} failed, ${merged.numPendingTests + merged.numTodoTests} skipped`,
);
if (browserLine) console.log(browserLine);
process.exit(results.some((r) => r.code !== 0) || missing ? 1 : 0);
