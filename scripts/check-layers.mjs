// Checks that every import in src/ points down the layers of docs/architecture.md, that no two
// folders import each other, that each feature area is imported by at most MAX_AREA_IMPORTERS
// files outside its folder (the registry, src/registry/areas.ts, and no more than one other), and
// that the channels are reached only through their interface file. `npm test` runs it;
// `node scripts/check-layers.mjs --graph` prints the folder graph with the count of imports behind
// each edge, and `--areas` the files outside each area and channel that import it.
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
  kit: 3,
  events: 4,
  challenges: 4,
  battlepasses: 4,
  leaderboards: 4,
  points: 4,
  streaks: 4,
  achievements: 4,
  leagues: 4,
  realtime: 4,
  webhooks: 4,
  docs: 4,
  registry: 5,
  fanout: 6,
  players: 7,
  devtools: 7,
  catalog: 7,
  wiring: 8,
  ops: 9,
  console: 10,
  "(top)": 11,
};

/** The feature areas; every folder whose plugin the registry lists is one too. */
const FEATURE_AREAS = ["challenges", "battlepasses", "leaderboards", "points", "streaks", "achievements", "leagues"];
export const MAX_AREA_IMPORTERS = 2;

/** The channels every area uses, each reached from outside its folder through one interface file only. */
export const CHANNELS = { events: "channel.ts", webhooks: "channel.ts", realtime: "channel.ts" };

const srcDir = path.join(projectRoot, "src");
const REGISTRY = path.join(srcDir, "registry", "areas.ts");
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
      if (from !== to)
        imports.push({
          from,
          to,
          file: path.relative(projectRoot, file),
          spec: match[1],
          target: path.relative(path.join(srcDir, to), target),
        });
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

/** The feature areas: the fixed ones and every folder whose plugin the registry imports. */
export function featureAreas() {
  const registered = [...readFileSync(REGISTRY, "utf8").matchAll(IMPORT)]
    .filter((match) => match[1].endsWith("/plugin"))
    .map((match) => folderOf(path.resolve(path.dirname(REGISTRY), match[1])));
  return [...new Set([...FEATURE_AREAS, ...registered])].filter((folder) => !(folder in CHANNELS));
}

/** Per area and channel, the files outside its folder that import it. */
export function importersOf(imports, folders) {
  const importers = new Map(folders.map((folder) => [folder, new Set()]));
  for (const i of imports) importers.get(i.to)?.add(i.file);
  return importers;
}

export function reachProblems(imports) {
  const problems = [];
  for (const [area, files] of importersOf(imports, featureAreas())) {
    if (files.size > MAX_AREA_IMPORTERS)
      problems.push(
        `src/${area} is imported by ${files.size} files outside it (at most ${MAX_AREA_IMPORTERS}: the registry and one more; an area is reached through its plugin): ${[...files].join(", ")}`,
      );
  }
  for (const i of imports) {
    const door = CHANNELS[i.to];
    if (door && i.target !== door.replace(/\.ts$/, "") && i.target !== door)
      problems.push(`${i.file}: imports ${i.spec}; the ${i.to} channel is reached through src/${i.to}/${door} only`);
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
  if (process.argv.includes("--areas")) {
    for (const [folder, files] of importersOf(imports, [...featureAreas(), ...Object.keys(CHANNELS)]))
      console.log(`${folder}  ${files.size}  ${[...files].sort().join(" ")}`);
  }
  const problems = [...layerProblems(imports), ...reachProblems(imports)];
  for (const problem of problems) console.error(problem);
  console.log(`Layers: ${imports.length} imports across folders, ${problems.length} problems.`);
  process.exit(problems.length === 0 ? 0 : 1);
}
