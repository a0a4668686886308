// `npm test`: the type check and the import layers, then every test project (unit, workers, e2e)
// in one vitest run, closing with one plain "N passed, N failed" line that CI reads.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectRoot } from "./lib/wrangler.mjs";

const run = (command, args) => spawnSync(command, args, { cwd: projectRoot, stdio: "inherit" }).status ?? 1;

if (run(process.execPath, [path.join(projectRoot, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."]) !== 0) {
  console.error("Type check failed.");
  process.exit(1);
}
if (run(process.execPath, [path.join(projectRoot, "scripts/check-layers.mjs")]) !== 0) {
  console.error("An import points up the layers (README, Layout).");
  process.exit(1);
}

const report = path.join(mkdtempSync(path.join(tmpdir(), "vitest-report-")), "report.json");
const extra = process.argv.slice(2);
const status = run(process.execPath, [
  path.join(projectRoot, "node_modules/vitest/vitest.mjs"), "run",
  "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...extra,
]);

try {
  const result = JSON.parse(readFileSync(report, "utf8"));
  console.log(`\nTests: ${result.numPassedTests} passed, ${result.numFailedTests} failed, ${result.numPendingTests + result.numTodoTests} skipped`);
} catch {
  console.error("No test report was written.");
}
process.exit(status);
