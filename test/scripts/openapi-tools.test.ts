import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** The committed openapi.json as the tools of API teams see it: their linters and a generated client. */

const root = fileURLToPath(new URL("../..", import.meta.url));
const file = path.join(root, "openapi.json");
const document = JSON.parse(readFileSync(file, "utf8"));
const run = promisify(execFile);
const bin = (name: string) => path.join(root, "node_modules/.bin", name);

describe("the committed OpenAPI document, through API teams' tools", () => {
  it("passes Redocly's recommended rules without an error and Spectral's OpenAPI rules without a warning", async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" };
    const out = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
    const spectralFile = path.join(out, "spectral.json");
    const [redocly] = await Promise.all([
      run(bin("redocly"), ["lint", file, "--format", "json", "--config", path.join(root, "redocly.yaml")], {
        cwd: root,
        env,
        maxBuffer: 64 << 20,
      }).catch((failure) => failure),
      run(
        bin("spectral"),
        [
          "lint",
          file,
          "--ruleset",
          path.join(root, ".spectral.yaml"),
          "--format",
          "json",
          "--output",
          spectralFile,
          "--fail-severity",
          "warn",
        ],
        { cwd: root, env },
      ).catch((failure) => failure),
    ]);
    const redoclyReport = JSON.parse(redocly.stdout);
    const problems = (severity: string) =>
      redoclyReport.problems.filter((p: any) => p.severity === severity).map((p: any) => `${p.ruleId}: ${p.message}`);
    expect(problems("error")).toEqual([]);
    expect(problems("warn")).toEqual([]);
    const spectral = JSON.parse(readFileSync(spectralFile, "utf8"));
    expect(spectral.map((r: any) => `${r.code}: ${r.message} at ${r.path.join(".")}`)).toEqual([]);
  });

  it("generates a client with openapi-typescript's defaults in which a minimal event type-checks", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "openapi-ts-"));
    writeFileSync(path.join(dir, "api.ts"), astToString(await openapiTS(document)));
    writeFileSync(
      path.join(dir, "client.ts"),
      `import type { operations } from "./api";\n` +
        `type SendEvent = operations["sendEvent"]["requestBody"] extends { content: { "application/json": infer B } } ? B : never;\n` +
        `export const minimal: SendEvent = { event_name: "tutorial-finished", user_id: "player-42" };\n` +
        // The check can fail: an event without its name must not type-check (else tsc reports the unused directive).
        `// @ts-expect-error event_name is required\n` +
        `export const nameless: SendEvent = { user_id: "player-42" };\n`,
    );
    const program = ts.createProgram([path.join(dir, "client.ts")], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      target: ts.ScriptTarget.ES2022,
    });
    expect(ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual(
      [],
    );
  });
});
