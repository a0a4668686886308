// `npm run openapi`: writes the OpenAPI document (DEV_CLOCK off, as deployed) to openapi.json at
// the repository root, without starting a server. The app is bundled by esbuild for Node: the
// Workers-only modules it imports (cloudflare:workers, the console's text files) are stubbed, since
// building the document runs none of them. test/integration/docs/openapi-file.test.ts fails when
// the committed file differs from the document the Worker serves. It then writes the generated part of
// the TypeScript client (packages/client/src/generated) from it, as `npm run client` does.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { GENERATED_DIR, generateClient } from "./client.mjs";
import { projectRoot } from "./lib/wrangler.mjs";

export const OPENAPI_FILE = path.join(projectRoot, "openapi.json");

/** The wrangler.toml [[rules]] Text globs and the runtime's own modules: empty stand-ins. */
const workerOnly = {
  name: "worker-only-modules",
  setup(builder) {
    builder.onResolve({ filter: /^cloudflare:/ }, (args) => ({ path: args.path, namespace: "runtime-stub" }));
    builder.onLoad({ filter: /.*/, namespace: "runtime-stub" }, () => ({
      contents: "export class DurableObject {} export class WorkerEntrypoint {} export const env = {};",
      loader: "js",
    }));
    builder.onResolve({ filter: /(\.browser\.js|\.css|htmx\.min\.js|mqtt\.esm\.js)$/ }, (args) => ({
      path: args.path,
      namespace: "text-stub",
    }));
    builder.onLoad({ filter: /.*/, namespace: "text-stub" }, () => ({ contents: "", loader: "text" }));
  },
};

/** The document as the Worker serves it with DEV_CLOCK off. */
export async function buildDocument() {
  // Inside the project, so that the bundle's package imports resolve from node_modules.
  const outdir = path.join(projectRoot, "node_modules/.cache/openapi");
  mkdirSync(outdir, { recursive: true });
  const outfile = path.join(outdir, `document-${process.pid}.mjs`);
  await build({
    stdin: {
      contents:
        'import { buildApp } from "./src/app"; import { openApiDocument } from "./src/docs/document"; export const document = openApiDocument(buildApp(), { development: false });',
      resolveDir: projectRoot,
      loader: "ts",
    },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    jsx: "automatic",
    jsxImportSource: "hono/jsx",
    outfile,
    plugins: [workerOnly],
    logLevel: "error",
  });
  try {
    return (await import(pathToFileURL(outfile).href)).document;
  } finally {
    rmSync(outfile, { force: true });
  }
}

export const documentText = (document) => `${JSON.stringify(document, null, 2)}\n`;

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const document = await buildDocument();
  writeFileSync(OPENAPI_FILE, documentText(document));
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(
    `Wrote ${path.relative(process.cwd(), OPENAPI_FILE) || "openapi.json"}: ${operations} operations, ${Object.keys(document.paths).length} paths, ${Object.keys(document.webhooks ?? {}).length} webhooks.`,
  );
  // From the file as written, exactly as `npm run client` reads it.
  const files = await generateClient(JSON.parse(documentText(document)));
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(GENERATED_DIR, name), text);
  console.log(
    `Wrote the client's ${Object.keys(files).join(" and ")} in ${path.relative(process.cwd(), GENERATED_DIR)}.`,
  );
}
