// Starts `wrangler dev` for a local run, the end-to-end tests and the benchmarks: local D1 with
// migrations applied, Durable Objects, queues and cron (via --test-scheduled), on workerd.
import { runWrangler, spawnWrangler } from "./wrangler.mjs";

/**
 * The service by default; `config` names another Worker's wrangler.toml (the benchmark's minimal
 * runtime-floor Worker), which then has no D1 migrations and answers `readyPath` once it is up.
 * `entry` starts the service's configuration with another main module (the benchmark's consumer
 * Worker, which wraps the service). `localTraces: false` turns off the trace wrangler dev records
 * of every invocation for its Local Explorer (X_LOCAL_OBSERVABILITY): it runs on the Worker's own
 * thread and costs each span (every D1, Durable Object and queue call), a development aid that
 * production does not run there. `onOutput` (with `quiet`) gets every chunk the server writes, from
 * its first line on.
 * @param {{port: number, persistTo?: string, vars?: Record<string,string>, quiet?: boolean, config?: string, entry?: string, readyPath?: string, localTraces?: boolean, onOutput?: (chunk: string) => void}} options
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startDevServer({ port, persistTo, vars = {}, quiet = false, config, entry, readyPath = "/openapi.json", localTraces = true, onOutput }) {
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  if (!config) await runWrangler(["d1", "migrations", "apply", "DB", "--local", ...persist], { env: { CI: "true" } });
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const configArgs = config ? ["--config", config] : [];
  const entryArgs = entry ? [entry] : [];
  const child = spawnWrangler(
    ["dev", ...entryArgs, ...configArgs, "--port", String(port), "--ip", "127.0.0.1", "--test-scheduled", "--show-interactive-dev-session=false", ...persist, ...varArgs],
    {
      stdio: quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
      detached: true,
      env: localTraces ? {} : { X_LOCAL_OBSERVABILITY: "false" },
    },
  );
  let log = "";
  if (quiet) {
    const keep = (d) => {
      log = (log + d).slice(-20000);
      onOutput?.(String(d));
    };
    child.stdout.on("data", keep);
    child.stderr.on("data", keep);
  }
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode !== null) return;
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      child.kill("SIGTERM");
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {}
    }
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}\n${log}`);
    try {
      const r = await fetch(`${url}${readyPath}`);
      if (r.ok) return { url, stop, log: () => log };
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not answer on ${url} within 90 s\n${log}`);
}
