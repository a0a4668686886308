// Reads vitest's JSON report and tells where a run's time went: per project, the wall time from its
// first file's start to its last file's end and the time its files ran (the two differ when files
// of a project run side by side or wait for one another), and the slowest files of the run.
import path from "node:path";

/** The project a test file belongs to, from the folder vitest.config.ts includes it by. */
const PROJECT_BY_FOLDER = { unit: "unit", scripts: "scripts", integration: "workers", e2e: "e2e", browser: "browser" };

export function projectOf(file) {
  const parts = path.normalize(file).split(path.sep);
  const index = parts.lastIndexOf("test");
  return (index >= 0 && PROJECT_BY_FOLDER[parts[index + 1]]) || "other";
}

/** Per project: files, tests, wall seconds and file seconds; and the `slowest` files overall. */
export function summarizeTimes(report, root, slowest = 10) {
  const projects = new Map();
  const files = [];
  for (const result of report.testResults ?? []) {
    const name = projectOf(result.name);
    const seconds = Math.max(0, (result.endTime - result.startTime) / 1000);
    const entry = projects.get(name) ?? {
      project: name,
      files: 0,
      tests: 0,
      start: Infinity,
      end: -Infinity,
      fileSeconds: 0,
    };
    entry.files += 1;
    entry.tests += result.assertionResults?.length ?? 0;
    entry.start = Math.min(entry.start, result.startTime);
    entry.end = Math.max(entry.end, result.endTime);
    entry.fileSeconds += seconds;
    projects.set(name, entry);
    files.push({
      file: path.relative(root, result.name),
      project: name,
      seconds,
      tests: result.assertionResults?.length ?? 0,
    });
  }
  const order = Object.values(PROJECT_BY_FOLDER);
  const rows = [...projects.values()]
    .map(({ start, end, ...rest }) => ({ ...rest, wallSeconds: Math.max(0, (end - start) / 1000) }))
    .sort((a, b) => order.indexOf(a.project) - order.indexOf(b.project));
  files.sort((a, b) => b.seconds - a.seconds);
  return { projects: rows, slowest: files.slice(0, slowest) };
}

const pad = (value, width, right = false) => (right ? String(value).padStart(width) : String(value).padEnd(width));

/** The summary as a plain-text table for the end of `npm test`. */
export function formatTimes({ projects, slowest }, totalSeconds) {
  const lines = [
    "",
    "Time per project (wall: first file's start to last file's end; files: the files' own times added up)",
  ];
  lines.push(
    `  ${pad("project", 9)} ${pad("files", 5, true)} ${pad("tests", 6, true)} ${pad("wall s", 8, true)} ${pad("files s", 8, true)}`,
  );
  for (const p of projects) {
    lines.push(
      `  ${pad(p.project, 9)} ${pad(p.files, 5, true)} ${pad(p.tests, 6, true)} ${pad(p.wallSeconds.toFixed(1), 8, true)} ${pad(p.fileSeconds.toFixed(1), 8, true)}`,
    );
  }
  if (totalSeconds !== undefined) lines.push(`  whole run: ${totalSeconds.toFixed(1)} s`);
  lines.push("Slowest files");
  for (const f of slowest)
    lines.push(`  ${pad(f.seconds.toFixed(1), 6, true)} s  ${pad(f.project, 8)} ${f.file} (${f.tests} tests)`);
  return lines.join("\n");
}
