// The `wrangler` that PATH names, for scripts that act on a Cloudflare account (and for their
// tests, which put a fake one first on PATH). Under `npm run`, PATH starts with this project's
// node_modules/.bin, whose launcher refuses Node < 22 although the CLI itself runs on Node 20: that
// one is run as the pinned CLI with this Node instead.
import { spawn } from "node:child_process";
import { accessSync, constants, realpathSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./wrangler.mjs";

const pinnedCli = path.join(projectRoot, "node_modules/wrangler/wrangler-dist/cli.js");
const pinnedLauncher = path.join(projectRoot, "node_modules/wrangler/bin/wrangler.js");
const pinned = { command: process.execPath, args: ["--no-warnings", pinnedCli] };

function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** @returns {{command: string, args: string[]}} */
export function resolveWrangler(env = process.env) {
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    const candidate = dir && path.join(dir, "wrangler");
    if (!candidate || !isExecutable(candidate)) continue;
    return realpathSync(candidate) === realpathSync(pinnedLauncher) ? pinned : { command: candidate, args: [] };
  }
  return pinned;
}

/**
 * Runs wrangler without a terminal on stdin, so that it never prompts: it takes its documented
 * non-interactive defaults. Answers the exit code, stdout, and both streams together (for error
 * messages); `echo` also copies the output to this process's, as it comes.
 * @returns {Promise<{code: number, stdout: string, output: string}>}
 */
export function execWrangler(wrangler, args, { cwd, env = process.env, echo = false } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(wrangler.command, [...wrangler.args, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let output = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      output += d;
      if (echo) process.stdout.write(d);
    });
    child.stderr.on("data", (d) => {
      output += d;
      if (echo) process.stderr.write(d);
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, output }));
  });
}
