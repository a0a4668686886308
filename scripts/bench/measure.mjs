// Wraps each measured phase: with a local server, the CPU time its processes used during the phase
// (result.serverCpu, ms, result.serverCpuByRole, and result.runtimeCpu: the workerd that runs the
// Worker, its objects, local D1 and queues); with BENCH_PROFILE=1 also a profile of the
// Worker's isolate, logged; a phase that asks for it gets that profile's summary (result.profile).
import {
  cpuTimeMs,
  findInspector,
  formatProfile,
  openProfiler,
  serverProcesses,
  totalMs,
  WORKER_RUNTIME,
} from "./profile.mjs";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SETTLE_POLL_MS = 100;
/** Longer than the background queue's max_batch_timeout (wrangler.toml). */
const QUIET_MS = 1300;
const SETTLE_MAX_MS = 30_000;
/** Below this share of one core the server counts as idle (its timers and pings). */
const IDLE_SHARE = 0.1;

export function createMeasure({ server, config, log }) {
  /** The one inspector session of the run, opened at the first measured phase. */
  let profiler;
  return {
    async measured(label, fn, { profile: wanted = false } = {}) {
      const port = Number(new URL(server.url).port);
      const processes = server.local ? serverProcesses(port) : [];
      const profiling = config.profile || wanted;
      if (profiling && processes.length && !profiler) {
        const inspector = await findInspector(port);
        profiler = inspector ? await openProfiler(inspector, { outDir: config.profileOut }) : undefined;
        if (!profiler) log("profile: no inspector found");
      }
      const cpuBefore = cpuTimeMs(processes);
      const [result, profile] = profiler && profiling ? await profiler.profile(fn) : [await fn()];
      if (profile && config.profile) log(formatProfile(label, profile));
      if (profile && wanted && result) result.profile = profile;
      if (processes.length && result?.sent) {
        const cpuAfter = cpuTimeMs(processes);
        result.serverCpu = totalMs(cpuAfter) - totalMs(cpuBefore);
        result.serverCpuByRole = Object.fromEntries(
          Object.keys(cpuAfter).map((role) => [role, cpuAfter[role] - (cpuBefore[role] ?? 0)]),
        );
        result.runtimeCpu = result.serverCpuByRole[WORKER_RUNTIME] ?? 0;
        if (config.profile) {
          const perRole = Object.keys(cpuAfter).map(
            (role) => `${role} ${((cpuAfter[role] - (cpuBefore[role] ?? 0)) / result.sent).toFixed(2)}`,
          );
          log(`${label}: CPU ms per request by process: ${perRole.join(", ")}`);
        }
      }
      return result;
    },
    /**
     * Waits until the server's processes stay idle for longer than the background queue waits to
     * fill a batch (1 s), so that a phase's CPU includes the queue work its requests caused. Without
     * a local server (BENCH_URL), waits 2 s.
     */
    async settle() {
      const processes = server.local ? serverProcesses(Number(new URL(server.url).port)) : [];
      if (processes.length === 0) return sleep(2000);
      const deadline = Date.now() + SETTLE_MAX_MS;
      let quietSince = Date.now();
      let last = totalMs(cpuTimeMs(processes));
      while (Date.now() < deadline) {
        await sleep(SETTLE_POLL_MS);
        const now = totalMs(cpuTimeMs(processes));
        if (now - last > SETTLE_POLL_MS * IDLE_SHARE) quietSince = Date.now();
        last = now;
        if (Date.now() - quietSince >= QUIET_MS) return;
      }
      log(`settle: the server was still busy after ${SETTLE_MAX_MS / 1000} s`);
    },
    /** Before the server stops (a restart starts a new runtime with a new inspector). */
    closeProfiler() {
      profiler?.close();
      profiler = undefined;
    },
  };
}
