// What the Cloudflare account already holds, asked through wrangler (4.156.2): `d1 list --json`,
// `queues info`, `r2 bucket info --json` and `secret list` (JSON by default). `queues list` and
// `r2 bucket list` print tables only and read one page, so queues and buckets are asked by name.

/** A wrangler command that failed: its output says why. */
export class WranglerFailed extends Error {
  constructor(args, result) {
    super(`wrangler ${args.join(" ")} failed (exit ${result.code}):\n${result.output.trim()}`);
  }
}

/** What wrangler prints for a name the account does not have. */
const MISSING = {
  queue: /Queue ".*" does not exist/,
  bucket: /The specified bucket does not exist|\[code: 10006\]/,
  worker: /Worker ".*"( \(env: [^)]*\))? not found/,
};

/**
 * @param {(args: string[]) => Promise<{code: number, stdout: string, output: string}>} wrangler runs one
 *   command for the deployed environment
 * @param {ReturnType<import("./deploy-plan.mjs").resourcesOf>} resources
 */
export async function readAccount(wrangler, resources) {
  const ask = async (args, missing) => {
    const result = await wrangler(args);
    if (result.code === 0) return result;
    if (missing?.test(result.output)) return null;
    throw new WranglerFailed(args, result);
  };
  const databases = JSON.parse((await ask(["d1", "list", "--json"])).stdout);
  const queues = await Promise.all(
    resources.queues.map(async (name) => ((await ask(["queues", "info", name], MISSING.queue)) ? name : null)),
  );
  const buckets = await Promise.all(
    resources.r2.map(async ({ name, jurisdiction }) => {
      const args = ["r2", "bucket", "info", name, "--json", ...(jurisdiction ? ["--jurisdiction", jurisdiction] : [])];
      return (await ask(args, MISSING.bucket)) ? name : null;
    }),
  );
  const secrets = await ask(["secret", "list"], MISSING.worker);
  return {
    d1: new Set(databases.map((db) => db.name)),
    queues: new Set(queues.filter(Boolean)),
    r2: new Set(buckets.filter(Boolean)),
    // A Worker never deployed has no secrets.
    secrets: new Set(secrets ? JSON.parse(secrets.stdout).map((s) => s.name) : []),
  };
}

/** The deploy entry wrangler writes to WRANGLER_OUTPUT_FILE_PATH (ND-JSON): its URLs and version. */
export function deployOutput(ndjson) {
  const entry = ndjson
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line))
    .findLast((e) => e.type === "deploy");
  if (!entry) throw new Error("wrangler deploy wrote no deploy entry to its output file");
  return { targets: entry.targets ?? [], versionId: entry.version_id ?? null };
}
