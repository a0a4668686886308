// Figures and their ceilings are measured in interleaved rounds (A B C, A B C, ...), so that a
// change of the machine's background load during the run weighs on all of them alike and the
// ratios stay meaningful on a shared machine.
import { runLoad, warmUp } from "./http.mjs";
import { summarize } from "./stats.mjs";

/**
 * @param phases [{key, label, concurrency, make(i), onResult?(i, response), warmUpCount?, client?, measure?,
 *   requests?, before?, after?}]; make and onResult must depend on i only; each request number is used
 *   once, the warm-up's first. `client` and `measure(label, fn)`: another server's (the runtime floor's),
 *   measured with its own processes instead of the service's. `requests`: this phase's bound instead of
 *   the common one. `before()`: awaited before each round of the phase, outside its measure. `after()`:
 *   awaited inside the measured phase once its requests are answered (its CPU counts, its time not).
 * @returns {Promise<Record<string, {sent, ok, failures, wallMs, rps, p50, p99, mean, serverCpuMs?, runtimeCpuMs?}>>}
 */
export async function compareInRounds(ctx, phases, { rounds = 3, seconds, requests }) {
  const offset = {};
  for (const phase of phases) {
    // Warm-up requests reach onResult too: an event sent then still counts at the end. The rounds
    // go on with the next request numbers, so a user woken by the warm-up is not measured warm.
    const warm = await warmUp(phase.client ?? ctx.client, {
      concurrency: phase.concurrency,
      make: phase.make,
      onResult: phase.onResult,
      count: phase.warmUpCount,
    });
    if (phase.after) await phase.after();
    offset[phase.key] = warm.sent;
  }
  const totals = Object.fromEntries(
    phases.map((p) => [
      p.key,
      { sent: 0, ok: 0, failures: {}, wallMs: 0, latencies: [], cpuMs: 0, runtimeMs: 0, cpuKnown: true },
    ]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const phase of phases) {
      if (phase.before) await phase.before();
      const base = offset[phase.key];
      const load = async () => {
        const result = await runLoad(phase.client ?? ctx.client, {
          concurrency: phase.concurrency,
          maxRequests: Math.ceil((phase.requests ?? requests) / rounds),
          maxMs: (seconds * 1000) / rounds,
          // Request numbers continue across rounds.
          make: (i) => phase.make(base + i),
          onResult: phase.onResult && ((i, r) => phase.onResult(base + i, r)),
        });
        if (phase.after) await phase.after();
        return result;
      };
      const result = await (phase.measure ?? ctx.measured)(phase.label, load);
      offset[phase.key] += result.sent;
      const t = totals[phase.key];
      t.sent += result.sent;
      t.ok += result.ok;
      t.wallMs += result.wallMs;
      for (const v of result.latencies) t.latencies.push(v);
      for (const [k, n] of Object.entries(result.failures)) t.failures[k] = (t.failures[k] ?? 0) + n;
      if (result.serverCpu === undefined) t.cpuKnown = false;
      else {
        t.cpuMs += result.serverCpu;
        t.runtimeMs += result.runtimeCpu;
      }
    }
  }
  const merged = {};
  for (const phase of phases) {
    const t = totals[phase.key];
    merged[phase.key] = {
      sent: t.sent,
      ok: t.ok,
      failures: t.failures,
      wallMs: t.wallMs,
      rps: (t.ok / t.wallMs) * 1000,
      ...summarize(t.latencies),
      ...(t.cpuKnown && t.sent ? { serverCpuMs: t.cpuMs / t.sent, runtimeCpuMs: t.runtimeMs / t.sent } : {}),
    };
    const m = merged[phase.key];
    ctx.log(
      `${phase.label}: ${m.rps.toFixed(0)} req/s, p50 ${m.p50.toFixed(1)} ms, p99 ${m.p99.toFixed(1)} ms${m.serverCpuMs === undefined ? "" : `, server CPU ${m.serverCpuMs.toFixed(2)} ms/req (workerd ${m.runtimeCpuMs.toFixed(2)})`}`,
    );
  }
  return merged;
}
