import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { generateClient, GENERATED_DIR } from "../../scripts/client.mjs";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { TEST_SECRETS } from "../support/secrets";

/** The TypeScript client (packages/client) as a user gets it: generated from openapi.json, packed, installed, type-checked and run. */

const root = path.resolve(import.meta.dirname, "../..");
const packageDir = path.join(root, "packages/client");
const run = promisify(execFile);
const cleanup: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

/** The ```ts blocks of docs/client.md, in order. */
function docExamples(markdown: string): string[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
}

/** A webhook receiver: records each POST; `GET /calls` answers what it recorded. */
async function webhookReceiver() {
  const calls: { headers: Record<string, string>; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    if (req.method === "GET")
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(calls));
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers: Record<string, string> = {};
      for (const name of ["content-type", "webhook-id", "webhook-timestamp", "webhook-signature"])
        headers[name] = String(req.headers[name] ?? "");
      calls.push({ headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    hooks: `${base}/hooks`,
    calls: `${base}/calls`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Defines what the doc's examples take as given; the doc names them. */
const PRELUDE = `declare const process: { env: Record<string, string | undefined> };
const baseUrl = process.env.BASE_URL!;
const adminToken = process.env.ADMIN_TOKEN!;
const receiverUrl = process.env.RECEIVER_URL!;
`;

/** Hands the webhook call the service made to the doc's receiver, then a forged copy of it. */
const EPILOGUE = `
for (let attempt = 0; ; attempt++) {
  const calls = (await (await fetch(process.env.RECEIVER_CALLS!)).json()) as { headers: Record<string, string>; body: string }[];
  const call = calls.find((c) => c.body.includes('"finished"'));
  if (call) {
    const answer = await onWebhook(new Request(receiverUrl, { method: "POST", headers: call.headers, body: call.body }));
    console.log("receiver answered", answer.status);
    const forged = await onWebhook(new Request(receiverUrl, { method: "POST", headers: call.headers, body: call.body.replace("player-42", "player-7") }));
    console.log("forged call answered", forged.status, await forged.text());
    break;
  }
  if (attempt === 300) throw new Error("the service made no webhook call");
  await new Promise((resolve) => setTimeout(resolve, 100));
}
`;

/** What the tour prints: every line but the last two is shown in docs/client.md as a comment. */
const EXPECTED = [
  "High scores max",
  "true",
  "player-42 access-token",
  "player-42",
  "1 1 400 meta_data.score",
  "Win 3 matches: unlock",
  "finished gold",
  "409 0 string",
  "1 player-7 4200",
  "2 player-42 3100",
  "true Win 3 matches",
  "leaderboard-ranking-changed { score: 3100, rank: 2 } { score: 5000, rank: 1 }",
  "webhook: player-42's Win 3 matches is finished",
];

describe("the TypeScript client package", () => {
  it("has the generated files that npm run client writes from the committed openapi.json", async () => {
    const document = JSON.parse(readFileSync(path.join(root, "openapi.json"), "utf8"));
    const generated = await generateClient(document);
    expect(Object.keys(generated).sort()).toEqual(readdirSync(GENERATED_DIR).sort());
    for (const [name, text] of Object.entries(generated)) {
      // A difference means: run `npm run client` and commit packages/client/src/generated.
      expect(readFileSync(path.join(GENERATED_DIR, name), "utf8"), `packages/client/src/generated/${name}`).toBe(text);
    }
  });

  it("bundles the game client for browsers at the gzip size docs/client.md gives", async () => {
    const bundle = await build({
      stdin: {
        contents: 'export { createGameClient, ApiError } from "./src/index.ts";',
        resolveDir: packageDir,
        loader: "ts",
      },
      bundle: true,
      minify: true,
      format: "esm",
      platform: "browser",
      target: "es2022",
      write: false,
      logLevel: "error",
    });
    const minified = bundle.outputFiles[0].contents;
    const gzipped = gzipSync(minified, { level: 9 }).length;
    const stated = /is ([\d.]+) kB gzipped \(([\d.]+) kB minified\)/.exec(
      readFileSync(path.join(root, "docs/client.md"), "utf8"),
    );
    expect(stated?.slice(1)).toEqual([(gzipped / 1000).toFixed(1), (minified.length / 1000).toFixed(1)]);
    expect(gzipped).toBeLessThanOrEqual(12_000);
  });

  it("installed from its npm pack tarball into an empty folder, runs the doc's examples type-checked with tsc --strict against wrangler dev", async () => {
    const work = mkdtempSync(path.join(tmpdir(), "client-package-"));
    cleanup.push(() => rmSync(work, { recursive: true, force: true }));
    const { stdout: packed } = await run("npm", ["pack", "--json", "--pack-destination", work], {
      cwd: packageDir,
      maxBuffer: 16 << 20,
    });
    const tarball = path.join(work, JSON.parse(packed.slice(packed.indexOf("[")))[0].filename);

    const app = path.join(work, "app");
    rmSync(app, { recursive: true, force: true });
    await run("mkdir", ["-p", app]);
    writeFileSync(
      path.join(app, "package.json"),
      JSON.stringify({ name: "client-user", private: true, type: "module" }),
    );
    // openapi-fetch comes from the registry as the tarball names it; mqtt is the realtime helper's optional peer.
    const mqttVersion = JSON.parse(readFileSync(path.join(root, "node_modules/mqtt/package.json"), "utf8")).version;
    await run("npm", ["install", tarball, `mqtt@${mqttVersion}`, "--no-audit", "--no-fund"], {
      cwd: app,
      maxBuffer: 16 << 20,
    });
    const installed = JSON.parse(
      readFileSync(path.join(app, "node_modules/@open-gamification/client/package.json"), "utf8"),
    );
    expect(installed.dependencies).toEqual({
      "openapi-fetch": JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8")).dependencies[
        "openapi-fetch"
      ],
    });

    const doc = readFileSync(path.join(root, "docs/client.md"), "utf8");
    expect(
      EXPECTED.filter((line) => !doc.includes(`// ${line}`)),
      "lines docs/client.md does not show",
    ).toEqual([]);
    writeFileSync(path.join(app, "tour.ts"), PRELUDE + docExamples(doc).join("\n") + EPILOGUE);
    writeFileSync(
      path.join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          lib: ["ES2022", "DOM", "DOM.Iterable"],
          types: [],
          skipLibCheck: true,
          outDir: "out",
        },
        files: ["tour.ts"],
      }),
    );
    const tsc = await run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", app], {
      cwd: app,
    }).catch((failure) => failure);
    expect(tsc.stdout ?? "").toBe("");

    const receiver = await webhookReceiver();
    cleanup.push(receiver.close);
    const persistTo = path.join(work, "state");
    const server = await startDevServer({
      port: await freePort(),
      persistTo,
      vars: { ...TEST_SECRETS, WEBHOOK_RETRY_BASE_SECONDS: "0" },
      quiet: true,
      localTraces: false,
    });
    cleanup.push(server.stop);
    const env = {
      ...process.env,
      BASE_URL: server.url,
      ADMIN_TOKEN: TEST_SECRETS.ADMIN_TOKEN,
      RECEIVER_URL: receiver.hooks,
      RECEIVER_CALLS: receiver.calls,
    };
    const { stdout } = await run(process.execPath, [path.join(app, "out/tour.js")], {
      cwd: app,
      env,
      timeout: 120_000,
    });
    expect(stdout.trimEnd().split("\n")).toEqual([
      ...EXPECTED,
      "receiver answered 204",
      "forged call answered 401 no webhook-signature matches",
    ]);
  });
});
