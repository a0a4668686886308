// Starts `wrangler dev` for a local run, the end-to-end tests and the benchmarks: local D1 with
// migrations applied, Durable Objects, queues and cron (via --test-scheduled), on workerd.
import { freePort } from "./free-port.mjs";
import net from "node:net";
import { stripVTControlCharacters } from "node:util";
import { runWrangler, spawnWrangler } from "./wrangler.mjs";

const HOST = "127.0.0.1";

/** The port is held by another process: nothing was started, and nothing was sent to it. */
export class PortBusyError extends Error {
  constructor(port) {
    super(`Port ${port} is already in use on ${HOST}`);
    this.name = "PortBusyError";
    this.port = port;
  }
}

/**
 * Whether `port` can be bound on 127.0.0.1, found by binding a probe server and closing it again:
 * nothing connects to whoever holds the port. Rejects with PortBusyError when it is held.
 */
export function assertPortFree(port) {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (err) => reject(err.code === "EADDRINUSE" ? new PortBusyError(port) : err));
    try {
      probe.listen({ port, host: HOST, exclusive: true }, () => probe.close(() => resolve()));
    } catch (err) {
      reject(err);
    }
  });
}

/** Waits until `port` can be bound again (the server's processes have let it go), at most `ms`. */
async function portReleased(port, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      return await assertPortFree(port);
    } catch (err) {
      if (!(err instanceof PortBusyError)) throw err;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * wrangler dev's environment: no banner or update check (nor its Node version warning), and no
 * fetch of the `Request.cf` placeholder from Cloudflare, which fails with a stack trace offline; the
 * service reads nothing from `request.cf`.
 */
const QUIET_WRANGLER = { WRANGLER_HIDE_BANNER: "true", CLOUDFLARE_CF_FETCH_ENABLED: "false" };

/**
 * The service by default; `config` names another Worker's wrangler.toml (the benchmark's minimal
 * runtime-floor Worker), which then has no D1 migrations and answers `readyPath` once it is up.
 * `entry` starts the service's configuration with another main module (the benchmark's consumer
 * Worker, which wraps the service). `localTraces: false` turns off the trace wrangler dev records
 * of every invocation for its Local Explorer (X_LOCAL_OBSERVABILITY): it runs on the Worker's own
 * thread and costs each span (every D1, Durable Object and queue call), a development aid that
 * production does not run there. `onOutput` (with `quiet`) gets every chunk the server writes, from
 * its first line on, with the stream it came on.
 *
 * The port must be free before anything starts (else PortBusyError), and the server is asked for
 * `readyPath` only once the wrangler it started says it listens there and is still running: no
 * request ever goes to a server that another process holds on that port.
 * @param {{port: number, persistTo?: string, vars?: Record<string,string>, quiet?: boolean, config?: string, entry?:
 * string, readyPath?: string, localTraces?: boolean, onOutput?: (chunk: string, stream: "stdout" | "stderr") => void}}
 * options
 * @returns {Promise<{url: string, stop: () => Promise<void>, log: () => string}>}
 */
export async function startDevServer({
  port,
  persistTo,
  vars = {},
  quiet = false,
  config,
  entry,
  readyPath = "/openapi.json",
  localTraces = true,
  onOutput,
}) {
  await assertPortFree(port);
  const persist = persistTo ? ["--persist-to", persistTo] : [];
  if (!config)
    await runWrangler(["d1", "migrations", "apply", "DB", "--local", ...persist], {
      env: { CI: "true", ...QUIET_WRANGLER },
    });
  const varArgs = Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);
  const configArgs = config ? ["--config", config] : [];
  const entryArgs = entry ? [entry] : [];
  const child = spawnWrangler(
    [
      "dev",
      ...entryArgs,
      ...configArgs,
      "--port",
      String(port),
      "--ip",
      HOST,
      "--test-scheduled",
      "--show-interactive-dev-session=false",
      ...persist,
      ...varArgs,
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
      env: { ...QUIET_WRANGLER, ...(localTraces ? {} : { X_LOCAL_OBSERVABILITY: "false" }) },
    },
  );
  const url = `http://${HOST}:${port}`;
  let log = "";
  // wrangler's own line once its server listens on the port; until then the port is not ours to ask.
  let listening = false;
  const readyLine = `Ready on ${url}`;
  const keep = (stream) => (d) => {
    log = (log + d).slice(-20000);
    if (!listening && stripVTControlCharacters(log).includes(readyLine)) listening = true;
    if (quiet) onOutput?.(String(d), stream);
  };
  child.stdout.on("data", keep("stdout"));
  child.stderr.on("data", keep("stderr"));
  if (!quiet) {
    child.stdout.pipe(process.stdout);
    child.stderr.pipe(process.stderr);
  }
  const exited = new Promise((resolve) => child.once("exit", resolve));
  // The server runs in its own process group (a Ctrl-C in the terminal reaches only this process):
  // when this process exits without stop(), its server goes with it rather than hold the port.
  const killOnExit = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  process.once("exit", killOnExit);
  const stop = async () => {
    process.off("exit", killOnExit);
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        child.kill("SIGTERM");
      }
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {}
      }
    }
    // workerd, wrangler's child, may hold the port a moment longer: a restart on it must find it free.
    await portReleased(port, 5000);
  };
  const running = () => child.exitCode === null && child.signalCode === null;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (!running()) {
      // Taken between the check above and wrangler's start.
      if (/EADDRINUSE|Address already in use/i.test(log)) throw new PortBusyError(port);
      throw new Error(`wrangler dev exited with ${child.exitCode ?? child.signalCode}\n${log}`);
    }
    if (listening) {
      try {
        const r = await fetch(`${url}${readyPath}`);
        if (r.ok) return { url, stop, log: () => log };
      } catch {}
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`wrangler dev did not answer on ${url} within 90 s\n${log}`);
}

/**
 * startDevServer on a port free when picked: another process may bind it between the pick and
 * wrangler's start, so a busy port is picked again, a few times.
 */
export async function startDevServerOnFreePort(options, attempts = 3) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startDevServer({ ...options, port: await freePort() });
    } catch (err) {
      if (!(err instanceof PortBusyError) || attempt >= attempts) throw err;
    }
  }
}
