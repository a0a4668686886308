// Checks that every import in src/ points down the layers of docs/architecture.md, and that
// no two folders import each other. `npm test` runs it; `node scripts/check-layers.mjs --graph`
// prints the folder graph with the count of imports behind each edge.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./lib/wrangler.mjs";

/**
 * Each folder of src/ (and the top-level files, as "(top)") with its layer. An import may go to a
 * lower layer or stay inside its own folder; folders of one layer do not import each other.
 */
export const LAYERS = {
  shared: 0,
  rules: 1,
  changes: 1,
  apps: 1,
  user: 2,
  auth: 2,
  events: 3,
  challenges: 3,
  battlepasses: 3,
  leaderboards: 3,
  realtime: 3,
  webhooks: 3,
  docs: 3,
  points: 3,
  fanout: 4,
  players: 5,
  devtools: 5,
  catalog: 5,
  wiring: 6,
  ops: 7,
  console: 8,
  "(top)": 9,
};

const srcDir = path.join(projectRoot, "src");
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["'](\.{1,2}\/[^"']+)["']/g;

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const folderOf = (file) => {
  const parts = path.relative(srcDir, file).split(path.sep);
  return parts.length > 1 ? parts[0] : "(top)";
};

/** Every cross-folder import: `{from, to, file, line}`. */
export function folderImports() {
  const imports = [];
  for (const file of sourceFiles(srcDir)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const from = folderOf(file);
      const target = path.resolve(path.dirname(file), match[1]);
      // Files outside src/ (package.json for the version) are not layered.
      if (path.relative(srcDir, target).startsWith("..")) continue;
      const to = folderOf(target);
      if (from !== to) imports.push({ from, to, file: path.relative(projectRoot, file), spec: match[1] });
    }
  }
  return imports;
}

export function layerProblems(imports) {
  const problems = [];
  const edges = new Set(imports.map((i) => `${i.from} -> ${i.to}`));
  for (const i of imports) {
    const [from, to] = [LAYERS[i.from], LAYERS[i.to]];
    if (from === undefined) problems.push(`${i.file}: folder src/${i.from} has no layer in scripts/check-layers.mjs`);
    else if (to === undefined) problems.push(`${i.file}: imports ${i.spec}, in src/${i.to}, which has no layer`);
    else if (to >= from)
      problems.push(`${i.file}: imports ${i.spec} (${i.to}, layer ${to}) from layer ${from}: imports must point down`);
  }
  for (const edge of edges) {
    const [a, b] = edge.split(" -> ");
    if (a < b && edges.has(`${b} -> ${a}`)) problems.push(`src/${a} and src/${b} import each other`);
  }
  return problems;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const imports = folderImports();
  if (process.argv.includes("--graph")) {
    const counts = new Map();
    for (const i of imports) counts.set(`${i.from} -> ${i.to}`, (counts.get(`${i.from} -> ${i.to}`) ?? 0) + 1);
    for (const [edge, n] of [...counts].sort()) console.log(`${edge}  ${n}`);
  }
  const problems = layerProblems(imports);
  for (const problem of problems) console.error(problem);
  console.log(`Layers: ${imports.length} imports across folders, ${problems.length} problems.`);
  process.exit(problems.length === 0 ? 0 : 1);
}
