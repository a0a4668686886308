// Runs the project's pinned wrangler. Its bin refuses Node < 22 although `wrangler dev`, D1 and the
// vitest plugin work on Node 20, so the CLI entry is started directly with this Node.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cli = path.join(projectRoot, "node_modules/wrangler/wrangler-dist/cli.js");

/** Starts wrangler with `args`; the child inherits stdio unless told otherwise. */
export function spawnWrangler(args, options = {}) {
  return spawn(process.execPath, ["--no-warnings", cli, ...args], {
    cwd: projectRoot,
    stdio: "inherit",
    ...options,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", ...options.env },
  });
}

/** Runs wrangler to completion; rejects with its output when it fails. */
export function runWrangler(args, options = {}) {
  return new Promise((resolve, reject) => {
    const child = spawnWrangler(args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`wrangler ${args.join(" ")} exited with ${code}:\n${output}`)),
    );
  });
}
