import { describe, expect, it } from "vitest";
import { featureAreas, folderImports, layerProblems, reachProblems } from "../../scripts/check-layers.mjs";

// The import checks `npm test` runs: layers, how many files reach each area, channels through their door.
const imported = (from: string, file: string, to: string, target: string) => ({
  from,
  to,
  file,
  spec: `../${to}/${target}`,
  target,
});

describe("check-layers", () => {
  it("finds no problem in src/ as it is", () => {
    const imports = folderImports();
    expect([...layerProblems(imports), ...reachProblems(imports)]).toEqual([]);
  });

  it("counts every registered area, and the three named ones", () => {
    expect(featureAreas().sort()).toEqual([
      "achievements",
      "battlepasses",
      "challenges",
      "leaderboards",
      "leagues",
      "points",
      "streaks",
    ]);
  });

  it("refuses a third file outside an area that imports it", () => {
    const imports = [
      imported("registry", "src/registry/areas.ts", "challenges", "plugin"),
      imported("catalog", "src/catalog/a.ts", "challenges", "catalog"),
      imported("fanout", "src/fanout/b.ts", "challenges", "schemas"),
    ];
    const problems = reachProblems(imports).filter((p) => p.startsWith("src/challenges is imported"));
    expect(problems).toEqual([
      "src/challenges is imported by 3 files outside it (at most 2: the registry and one more; an area is reached through its plugin): src/registry/areas.ts, src/catalog/a.ts, src/fanout/b.ts",
    ]);
  });

  it("refuses a channel reached past its interface file", () => {
    const imports = [
      imported("wiring", "src/wiring/x.ts", "webhooks", "channel"),
      imported("wiring", "src/wiring/y.ts", "realtime", "watchers"),
    ];
    expect(reachProblems(imports).filter((p) => p.includes("channel is reached"))).toEqual([
      "src/wiring/y.ts: imports ../realtime/watchers; the realtime channel is reached through src/realtime/channel.ts only",
    ]);
  });
});
