// Wraps each measured phase: with a local server, the CPU time its processes used during the phase
// (result.serverCpu, ms, and result.serverCpuByRole); with BENCH_PROFILE=1 also a profile of the
// Worker's isolate, logged; a phase that asks for it gets that profile's summary (result.profile).
import { cpuTimeMs, findInspector, formatProfile, openProfiler, serverProcesses, totalMs } from "./profile.mjs";

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
        result.serverCpuByRole = Object.fromEntries(Object.keys(cpuAfter).map((role) => [role, cpuAfter[role] - (cpuBefore[role] ?? 0)]));
        if (config.profile) {
          const perRole = Object.keys(cpuAfter).map((role) => `${role} ${((cpuAfter[role] - (cpuBefore[role] ?? 0)) / result.sent).toFixed(2)}`);
          log(`${label}: CPU ms per request by process: ${perRole.join(", ")}`);
        }
      }
      return result;
    },
    /** Before the server stops (a restart starts a new runtime with a new inspector). */
    closeProfiler() {
      profiler?.close();
      profiler = undefined;
    },
  };
}
