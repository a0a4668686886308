// Imports a pure TypeScript module of src/ (for example the leaderboards' seeding SQL) into this
// plain Node script, bundled with the esbuild that wrangler already ships, so the benchmark reuses
// the service's own code instead of copying it.
import path from "node:path";
import { build } from "esbuild";
import { projectRoot } from "../lib/wrangler.mjs";

export async function importTs(relativePath) {
  const result = await build({
    entryPoints: [path.join(projectRoot, relativePath)],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    logLevel: "silent",
  });
  const code = result.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString("base64")}`);
}
