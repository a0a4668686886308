import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDevServerOnFreePort } from "../../scripts/lib/dev-server.mjs";
import { applyDemoCatalog, DEMO_APP, DEMO_KEY } from "../../scripts/lib/demo.mjs";
import { projectRoot } from "../../scripts/lib/wrangler.mjs";

/**
 * The README's five-minute tour, run as a reader runs it: every `sh` block after a
 * `<!-- tour -->` comment, command by command in one bash, against a server seeded as `npm start`
 * seeds the demo (a fresh database, the development values of .dev.vars.example, the demo app and
 * key, the demo catalog). Each `# → ...` line under a command is the answer the README shows; `…`
 * stands for any text. So the README cannot drift from the service.
 */

const readme = readFileSync(path.join(projectRoot, "README.md"), "utf8");
const devVars = Object.fromEntries(
  readFileSync(path.join(projectRoot, ".dev.vars.example"), "utf8")
    .split("\n")
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
);

/** The `sh` blocks that follow an HTML comment `<!-- name -->`. */
function blocksAfter(name: string): string[] {
  const pattern = new RegExp(`<!-- ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``, "g");
  return [...readme.matchAll(pattern)].map((m) => m[1]!);
}

interface Step {
  command: string;
  /** The answer the README shows, if any. */
  expected?: string;
}

/** One step per command (continued lines joined), with the `# → ` line that follows it. */
function stepsOf(block: string): Step[] {
  const steps: Step[] = [];
  let pending = "";
  for (const line of block.split("\n")) {
    if (pending) {
      pending += `\n${line}`;
      if (!line.endsWith("\\")) {
        steps.push({ command: pending });
        pending = "";
      }
      continue;
    }
    const answer = /^# → (.*)$/.exec(line);
    if (answer) {
      const last = steps.at(-1);
      if (!last || last.expected !== undefined) throw new Error(`an answer without its command: ${line}`);
      last.expected = answer[1];
      continue;
    }
    if (line.trim() === "" || line.startsWith("#")) continue;
    if (line.endsWith("\\")) pending = line;
    else steps.push({ command: line });
  }
  return steps;
}

/** The README's answer as a pattern: `…` is any text, everything else literal. */
function answerPattern(expected: string): RegExp {
  const parts = expected.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${parts.join("[\\s\\S]*?")}$`);
}

/** Reads only: safe to send again while the answer is not there yet (background work). */
const readsOnly = (command: string) => !/\s-X\s|\s-d\s|=\$\(/.test(command);

/** One bash for the whole tour, so that variables set by a step (TOKEN) stay for the next ones. */
class Shell {
  private readonly child: ChildProcessWithoutNullStreams;
  private out = "";
  private err = "";
  private count = 0;

  constructor(env: Record<string, string>) {
    const childEnv = { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } as unknown as NodeJS.ProcessEnv;
    this.child = spawn("bash", ["--noprofile", "--norc"], { env: childEnv });
    this.child.stdout.on("data", (d) => (this.out += d));
    this.child.stderr.on("data", (d) => (this.err += d));
  }

  async run(command: string, timeoutMs = 30_000): Promise<{ output: string; status: number; stderr: string }> {
    const marker = `__tour_step_${++this.count}__`;
    this.out = "";
    this.err = "";
    this.child.stdin.write(`${command}\nprintf '\\n${marker} %d\\n' $?\n`);
    const done = new RegExp(`\\n${marker} (\\d+)\\n$`);
    const deadline = Date.now() + timeoutMs;
    while (!done.test(this.out)) {
      if (Date.now() > deadline) throw new Error(`no end of: ${command}\n${this.out}${this.err}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const status = Number(done.exec(this.out)![1]);
    return { output: this.out.replace(done, "").replace(/\n$/, ""), status, stderr: this.err };
  }

  close() {
    this.child.stdin.end();
    this.child.kill();
  }
}

let server: { url: string; stop: () => Promise<void> };
let persistTo: string;
let seeded: { appId: string; apiKey: string; catalog: string };

beforeAll(async () => {
  persistTo = mkdtempSync(path.join(tmpdir(), "gamification-tour-"));
  server = await startDevServerOnFreePort({ persistTo, vars: devVars, quiet: true, localTraces: false });
  const admin = { Authorization: `Bearer ${devVars.ADMIN_TOKEN}`, "Content-Type": "application/json" };
  const app: { app_id: string } = await (
    await fetch(`${server.url}/api/v1/admin/apps`, { method: "POST", headers: admin, body: JSON.stringify(DEMO_APP) })
  ).json();
  const key: { key: string } = await (
    await fetch(`${server.url}/api/v1/admin/apps/${app.app_id}/api-keys`, {
      method: "POST",
      headers: admin,
      body: JSON.stringify(DEMO_KEY),
    })
  ).json();
  const catalog = await applyDemoCatalog({ url: server.url, adminToken: devVars.ADMIN_TOKEN!, appId: app.app_id });
  seeded = { appId: app.app_id, apiKey: key.key, catalog };
});

afterAll(async () => {
  await server?.stop();
  if (persistTo) rmSync(persistTo, { recursive: true, force: true });
});

describe("the README's five-minute tour", () => {
  it("seeds the demo as the banner shows it", () => {
    expect(seeded.appId).toBe("1");
    expect(seeded.catalog).toBe("16 created, 0 updated");
    expect(readme).toContain(`    Demo app id     ${seeded.appId}\n`);
    expect(readme).toContain(`    Demo catalog    scripts/demo/catalog.yaml (${seeded.catalog})\n`);
    expect(readme).toContain(`    Admin token     ${devVars.ADMIN_TOKEN}\n`);
  });

  it("asks the reader to set exactly the variables it uses, with npm start's values", () => {
    const [vars, ...more] = blocksAfter("tour-vars");
    expect(more).toEqual([]);
    const assigned = vars!
      .split("\n")
      .filter(Boolean)
      .map((line) => /^([A-Z_]+)=(\S+)/.exec(line)!.slice(1, 3));
    expect(assigned).toEqual([
      ["URL", "http://127.0.0.1:8787"],
      ["ADMIN_TOKEN", devVars.ADMIN_TOKEN],
      ["API_KEY", "gk_..."],
    ]);
  });

  it("names the demo's objects by the ids the demo catalog gives them", async () => {
    const rows = [
      ...readme.matchAll(/^\| (challenge|leaderboard|battle pass) `(\d+)`[^|]*\| "([^"]+)"[^|]*\| `([a-z0-9-]+)` \|/gm),
    ];
    expect(rows.map((r) => `${r[1]} ${r[2]}`)).toEqual([
      "challenge 1",
      "challenge 2",
      "challenge 3",
      "challenge 4",
      "leaderboard 1",
      "leaderboard 2",
      "battle pass 1",
    ]);
    const collection = {
      challenge: "challenges",
      leaderboard: "leaderboards",
      "battle pass": "battle-passes",
    } as const;
    for (const [, kind, id, name, key] of rows) {
      const r = await fetch(
        `${server.url}/api/v1/admin/apps/${seeded.appId}/${collection[kind as keyof typeof collection]}/${id}`,
        {
          headers: { Authorization: `Bearer ${devVars.ADMIN_TOKEN}` },
        },
      );
      expect(r.status, `${kind} ${id}`).toBe(200);
      const body: { key: string; challenge_name?: unknown; name?: unknown; battle_pass_name?: unknown } =
        await r.json();
      expect(body.key, `${kind} ${id}`).toBe(key);
      const shown = JSON.stringify(body.challenge_name ?? body.name ?? body.battle_pass_name);
      expect(shown, `${kind} ${id}`).toContain(`"${name}"`);
    }
  });

  it("answers every command as the README shows", { timeout: 120_000 }, async () => {
    const blocks = blocksAfter("tour");
    expect(blocks.length).toBe(7);
    const steps = blocks.flatMap(stepsOf);
    expect(steps.filter((s) => s.expected !== undefined).length).toBe(15);
    const shell = new Shell({ URL: server.url, ADMIN_TOKEN: devVars.ADMIN_TOKEN!, API_KEY: seeded.apiKey });
    try {
      for (const step of steps) {
        let result = await shell.run(step.command);
        expect(result.status, `${step.command}\n${result.stderr}`).toBe(0);
        if (step.expected === undefined) {
          expect(result.output, step.command).toBe("");
          continue;
        }
        const pattern = answerPattern(step.expected);
        // Leaderboards are applied in the background: a read is asked again until its answer is there.
        const deadline = Date.now() + 15_000;
        while (!pattern.test(result.output) && readsOnly(step.command) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 200));
          result = await shell.run(step.command);
        }
        expect(result.output, step.command).toMatch(pattern);
      }
    } finally {
      shell.close();
    }
  });
});
