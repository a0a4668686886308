// `npm run size` (and every CI run): builds the Worker as `wrangler deploy` would (--dry-run
// --outdir, nothing uploaded) and fails when it outgrows its budgets.
//   Worker script: at most 1 MiB gzip. Cloudflare's limits are 3 MiB (Free) and 10 MiB (Paid),
//     but a Worker's startup time grows with its size, and every cold isolate pays it.
//   Static assets ([assets] directory, served by Workers static assets): at most 5 MiB in all.
//     They do not count against the script, so they get a budget of their own. Wrangler's [build]
//     command writes them (scripts/build-assets.mjs) before it bundles.
import { gzipSync } from "node:zlib";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { projectRoot, runWrangler } from "./lib/wrangler.mjs";

const MiB = 1024 * 1024;
const BUDGETS = { scriptGzip: 1 * MiB, assets: 5 * MiB };

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Every file under `dir`, recursively. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/**
 * The upload's modules as wrangler measures them ("Total Upload ... gzip"): the gzip of all
 * modules together. Source maps are not part of the script's size, and the README.md is
 * wrangler's note about the folder.
 */
function measureScript(outdir) {
  const modules = filesUnder(outdir)
    .filter((file) => !file.endsWith(".map") && path.relative(outdir, file) !== "README.md")
    .sort()
    .map((file) => readFileSync(file));
  const all = Buffer.concat(modules);
  return { raw: all.length, gzip: gzipSync(all).length };
}

async function assetsDirectory() {
  const { unstable_readConfig } = await import("wrangler");
  const directory = unstable_readConfig({ config: path.join(projectRoot, "wrangler.toml") }).assets?.directory;
  return directory ? path.resolve(projectRoot, directory) : null;
}

const outdir = mkdtempSync(path.join(tmpdir(), "gamification-bundle-"));
try {
  await runWrangler(["deploy", "--dry-run", "--outdir", outdir], { env: { CI: "true" } });
  const script = measureScript(outdir);
  const assetsDir = await assetsDirectory();
  const assets = assetsDir ? filesUnder(assetsDir).reduce((sum, file) => sum + statSync(file).size, 0) : 0;

  const failures = [];
  console.log(
    `Worker script   ${kib(script.gzip)} gzip (${kib(script.raw)} raw); budget ${kib(BUDGETS.scriptGzip)} gzip`,
  );
  if (script.gzip > BUDGETS.scriptGzip) failures.push("the Worker script is over its budget");
  console.log(
    `Static assets   ${assetsDir ? `${kib(assets)} in ${path.relative(projectRoot, assetsDir)}` : "none ([assets] not configured)"}; budget ${kib(BUDGETS.assets)}`,
  );
  if (assets > BUDGETS.assets) failures.push("the static assets are over their budget");
  // Each group of files (scripts/build-assets.mjs: the console's, the explorer's) on a line of its own.
  const groups =
    assetsDir && existsSync(path.join(assetsDir, "static")) ? readdirSync(path.join(assetsDir, "static")).sort() : [];
  for (const group of groups) {
    const files = filesUnder(path.join(assetsDir, "static", group));
    console.log(
      `  ${group.padEnd(28)} ${kib(files.reduce((sum, file) => sum + statSync(file).size, 0)).padStart(11)} in ${files.length} files`,
    );
  }
  if (failures.length > 0) {
    console.error(`Size budget exceeded: ${failures.join("; ")}.`);
    process.exitCode = 1;
  }
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
