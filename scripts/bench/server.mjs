// The server under test: a `wrangler dev` of its own (fresh state in a temp dir, bench secrets), or
// the one at BENCH_URL. Stopping and starting again keeps the state, which is how leaderboards are
// seeded straight into local D1 while no other process holds the database open.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startDevServer } from "../lib/dev-server.mjs";
import { BENCH_VARS } from "./config.mjs";

export async function openServer(config) {
  if (config.url) {
    return { url: config.url.replace(/\/$/, ""), local: false, stop: async () => {}, cleanup: () => {} };
  }
  const persistTo = mkdtempSync(path.join(tmpdir(), "gamification-bench-"));
  const start = () =>
    startDevServer({ port: config.port, persistTo, vars: BENCH_VARS, quiet: true, localTraces: false });
  let server = await start();
  return {
    url: server.url,
    local: true,
    persistTo,
    log: () => server.log(),
    stop: () => server.stop(),
    async start() {
      server = await start();
    },
    cleanup() {
      if (!config.keepState) rmSync(persistTo, { recursive: true, force: true });
    },
  };
}
