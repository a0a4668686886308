// Builds dist/: the ES modules (esbuild, one file per entry, dependencies left to the installer)
// and their declarations (tsc).
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
rmSync(path.join(here, "dist"), { recursive: true, force: true });
await build({
  entryPoints: [path.join(here, "src/index.ts"), path.join(here, "src/realtime.ts")],
  outdir: path.join(here, "dist"),
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  external: ["openapi-fetch", "mqtt"],
  logLevel: "error",
});
const tsc = spawnSync(
  process.execPath,
  [require.resolve("typescript/bin/tsc"), "-p", path.join(here, "tsconfig.json")],
  { stdio: "inherit" },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
