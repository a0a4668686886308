// The one table the benchmark prints: a row per figure, with its ceiling and target.

/**
 * @typedef {{scenario: string, metric: string, value?: number, unit?: string, ceiling?: number,
 *   ratio?: number, p50?: number, p99?: number, target?: string, pass?: boolean, verdict?: string}} Row
 * `verdict` replaces pass/fail where a row is not the service's figure but says of a target whether
 * the runtime floor lets any service reach it (floor.mjs); it leaves the run's exit code alone.
 */

const fmt = (v, digits = 1) => {
  if (v === undefined || v === null || Number.isNaN(v)) return "";
  if (typeof v === "string") return v;
  if (Number.isInteger(v) || Math.abs(v) >= 1000) return Math.round(v).toLocaleString("en-US");
  return v.toFixed(Math.abs(v) < 10 ? Math.max(digits, 2) : digits);
};

/** "; server CPU a vs b ms/req" when both were measured (a local server on Linux). */
export const cpuNote = (result, ceiling) =>
  result.serverCpuMs !== undefined && ceiling?.serverCpuMs !== undefined
    ? `; server CPU ${result.serverCpuMs.toFixed(1)} vs ${ceiling.serverCpuMs.toFixed(1)} ms/req`
    : "";

export function createReport() {
  /** @type {Row[]} */
  const rows = [];
  const notes = [];
  return {
    rows,
    notes,
    add(row) {
      rows.push(row);
      return row;
    },
    /** A scenario that could not run: one row saying why, instead of failing the whole run. */
    missing(scenario, why) {
      rows.push({ scenario, metric: `n/a (${why})`, pass: undefined });
    },
    note(text) {
      notes.push(text);
    },
    markdown() {
      const header = ["scenario", "metric", "value", "ceiling", "ratio", "p50 ms", "p99 ms", "target", "pass/fail"];
      const lines = [
        `| ${header.join(" | ")} |`,
        `|${header.map((_h, i) => (i < 2 || i === 7 ? "---" : "---:")).join("|")}|`,
      ];
      for (const r of rows) {
        const value = r.value === undefined ? "" : `${fmt(r.value)}${r.unit ? ` ${r.unit}` : ""}`;
        const ceiling = r.ceiling === undefined ? "" : `${fmt(r.ceiling)}${r.unit ? ` ${r.unit}` : ""}`;
        const verdict = r.verdict ?? (r.pass === undefined ? (r.target ? "n/a" : "") : r.pass ? "pass" : "**FAIL**");
        const cells = [
          r.scenario,
          r.metric,
          value,
          ceiling,
          r.ratio === undefined ? "" : `${fmt(r.ratio, 2)}×`,
          fmt(r.p50),
          fmt(r.p99),
          r.target ?? "",
          verdict,
        ];
        lines.push(`| ${cells.map((c) => String(c).replace(/\|/g, "\\|")).join(" | ")} |`);
      }
      return lines.join("\n");
    },
  };
}
