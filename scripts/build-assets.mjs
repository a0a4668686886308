// Writes the static assets that Workers static assets serves (wrangler.toml [assets]) to
// dist-assets/, and src/shared/asset-urls.generated.ts, which maps each browser file to its URL.
// Nothing here is committed: wrangler runs this script before `wrangler dev` and `wrangler deploy`
// ([build] in wrangler.toml, so also `npm start`, `npm run size` and `npm run deploy`),
// vitest.config.ts runs it before any test, and `npm run typecheck` before tsc.
//
// Two groups, each in a directory named after the hash of its content, so a URL never serves two
// different files and browsers may keep every file for a year (dist-assets/_headers):
//   /static/console-<hash>/   the console's stylesheet and scripts, htmx, the MQTT client
//   /static/explorer-<hash>/  the API explorer at /docs: Scalar's API reference and its setup
// Files of a group import each other by relative URL, unchanged. Files are written only when their
// content changes, so `wrangler dev`, which watches src/, does not rebuild in a loop.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const ASSETS_DIR = path.join(root, "dist-assets");
const MANIFEST = path.join(root, "src/shared/asset-urls.generated.ts");
const SCALAR_DIR = path.join(root, "node_modules/@scalar/api-reference/dist/browser");
const SCALAR_ENTRY = "standalone.esm.js";

/**
 * Chunks of Scalar's hosted features (Agent Scalar, "Explore Scalar"): the explorer turns them off,
 * so nothing imports these files, and leaving them out makes sure none is ever loaded. Whatever
 * only they import is left out with them.
 */
const SCALAR_HOSTED_FEATURES = /^chunks\/(AgentScalarDrawer|ExploreScalarModal|ExploreScalarStickers|explore-scalar)-/;

const read = (file) => readFileSync(path.join(root, file));

/** The group's files as `{name: content}`, plus the hash of them all (names included). */
function group(files) {
  const hash = createHash("sha256");
  for (const name of Object.keys(files).sort()) hash.update(`${name}\0`).update(files[name]).update("\0");
  return { files, hash: hash.digest("hex").slice(0, 16) };
}

/** Scalar's browser build: the entry and every chunk it imports, statically or on demand. */
function scalarFiles() {
  const files = {};
  const visit = (name) => {
    if (name in files || SCALAR_HOSTED_FEATURES.test(name)) return;
    const content = readFileSync(path.join(SCALAR_DIR, name));
    files[name] = content;
    for (const match of content
      .toString("utf8")
      .matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)["'`](\.{1,2}\/[^"'`]+\.js)["'`]/g)) {
      visit(path.posix.normalize(path.posix.join(path.posix.dirname(name), match[1])));
    }
  };
  visit(SCALAR_ENTRY);
  return files;
}

function writeIfChanged(file, content) {
  if (existsSync(file) && readFileSync(file).equals(Buffer.from(content))) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

const HEADERS = `# Every URL under /static/ names its content (a hash of its group), so it never changes.
/static/*
  Cache-Control: public, max-age=31536000, immutable
  X-Content-Type-Options: nosniff
`;

export function buildAssets() {
  const consoleGroup = group({
    "console.css": read("src/console/static/console.css"),
    "console.js": read("src/console/static/console.browser.js"),
    "tester.js": read("src/console/static/tester.browser.js"),
    "htmx.min.js": read("node_modules/htmx.org/dist/htmx.min.js"),
    "mqtt.esm.js": read("node_modules/mqtt/dist/mqtt.esm.js"),
  });
  const explorerGroup = group({ "explorer.js": read("src/docs/static/explorer.browser.js"), ...scalarFiles() });
  const groups = { [`console-${consoleGroup.hash}`]: consoleGroup, [`explorer-${explorerGroup.hash}`]: explorerGroup };

  const staticDir = path.join(ASSETS_DIR, "static");
  // Groups of earlier builds are removed: the directory holds exactly what the code refers to.
  if (existsSync(staticDir)) {
    for (const entry of readdirSync(staticDir))
      if (!(entry in groups)) rmSync(path.join(staticDir, entry), { recursive: true, force: true });
  }
  for (const [dir, { files }] of Object.entries(groups)) {
    for (const [name, content] of Object.entries(files)) writeIfChanged(path.join(staticDir, dir, name), content);
  }
  writeIfChanged(path.join(ASSETS_DIR, "_headers"), HEADERS);

  const urls = {};
  for (const name of ["console.css", "console.js", "tester.js", "htmx.min.js", "mqtt.esm.js"])
    urls[name] = `/static/console-${consoleGroup.hash}/${name}`;
  urls["explorer.js"] = `/static/explorer-${explorerGroup.hash}/explorer.js`;
  writeIfChanged(
    MANIFEST,
    `// Written by scripts/build-assets.mjs (not committed): the URL of each browser file that Workers
// static assets serves from dist-assets/.
export const ASSET_URLS = ${JSON.stringify(urls, null, 2)} as const;
`,
  );
  return urls;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildAssets();
