// `npm run deploy`: creates what the Cloudflare account lacks for this Worker, applies the D1
// migrations, generates missing secrets and deploys. Idempotent: a second run creates nothing.
//
//   npm run deploy                      the production Worker of wrangler.toml
//   npm run deploy -- --env staging     the [env.staging] Worker, with its own resources
//   npm run deploy -- --dry-run         prints the plan; creates, sets and uploads nothing
//
// The resources come from wrangler.toml as wrangler resolves it (every D1 database, queue
// producer, consumer and dead-letter queue, R2 bucket, static assets), so new bindings need no
// change here. Why it creates them itself (wrangler 4.156.2): `wrangler deploy` creates D1
// databases, R2 buckets and producer queues it cannot find, but not consumer or dead-letter
// queues, and remote migrations fail before the database exists. Everything is looked up by name,
// so wrangler.toml needs no ids and is never rewritten.
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { deployOutput, readAccount, WranglerFailed } from "./lib/deploy-account.mjs";
import { createsNothing, describePlan, planDeployment, resourcesOf } from "./lib/deploy-plan.mjs";
import { execWrangler, resolveWrangler } from "./lib/wrangler-cli.mjs";
import { projectRoot } from "./lib/wrangler.mjs";

const USAGE = "Usage: npm run deploy [-- --env <name>] [-- --dry-run] [-- --config <path to wrangler.toml>]";

/** A reason to stop, told to the operator as it is (no stack). */
class Stop extends Error {}

/** Fresh random secrets, shaped as the service reads them (src/shared/secrets.ts). */
const GENERATORS = {
  ADMIN_TOKEN: () => randomBytes(32).toString("base64url"),
  JWT_SIGNING_KEYS: () =>
    JSON.stringify([
      { kid: `k-${new Date().toISOString().slice(0, 10)}`, secret: randomBytes(36).toString("base64url") },
    ]),
  TOPIC_SECRET: () => randomBytes(32).toString("base64url"),
};

const EMPTY_ACCOUNT = { d1: new Set(), queues: new Set(), r2: new Set(), secrets: new Set() };

/** The config of one environment, resolved by the pinned wrangler as `wrangler deploy` will read it. */
async function readConfig(configPath, envName) {
  const { experimental_readRawConfig, unstable_readConfig } = await import("wrangler");
  if (envName && !experimental_readRawConfig({ config: configPath }).rawConfig.env?.[envName]) {
    throw new Stop(
      `${path.basename(configPath)} has no [env.${envName}]: add that section (see [env.staging]) before deploying it.`,
    );
  }
  return unstable_readConfig({ config: configPath, env: envName });
}

/** Runs wrangler commands for one environment of one config, from the config's folder. */
function wranglerFor(configPath, envName) {
  const bin = resolveWrangler();
  const scope = ["--config", configPath, ...(envName ? ["--env", envName] : [])];
  return (args, extra = {}) => execWrangler(bin, [...args, ...scope], { cwd: path.dirname(configPath), ...extra });
}

/** What the account holds; a dry run without a login plans for an empty account. */
async function inspectAccount(wrangler, config, resources, dryRun) {
  const who = await wrangler(["whoami", "--json"]);
  if (who.code !== 0) {
    const login = "Log in with `npm run wrangler -- login` (or set CLOUDFLARE_API_TOKEN), then run this again.";
    if (!dryRun) throw new Stop(`Wrangler is not logged in to Cloudflare. ${login}`);
    console.log(`\nNot logged in to Cloudflare: the plan below is that of an account holding nothing yet. ${login}`);
    return EMPTY_ACCOUNT;
  }
  // Without a terminal wrangler cannot ask which account to use.
  const { accounts = [] } = JSON.parse(who.stdout);
  if (accounts.length > 1 && !process.env.CLOUDFLARE_ACCOUNT_ID && !config.account_id) {
    const list = accounts.map((a) => `  ${a.id}  ${a.name}`).join("\n");
    throw new Stop(
      `This login reaches ${accounts.length} accounts: choose one with CLOUDFLARE_ACCOUNT_ID=<id> (or account_id in wrangler.toml):\n${list}`,
    );
  }
  return readAccount(wrangler, resources);
}

/** Creates what is missing, migrates, deploys with the new secrets; answers wrangler's deploy entry. */
async function execute(wrangler, plan, generated) {
  const step = async (title, args, extra = {}) => {
    console.log(`\n→ ${title}`);
    const result = await wrangler(args, extra);
    if (result.code !== 0) throw new WranglerFailed(args, result);
  };
  for (const name of plan.createDatabases) await step(`Creating D1 database ${name}`, ["d1", "create", name]);
  for (const name of plan.createQueues) await step(`Creating queue ${name}`, ["queues", "create", name]);
  for (const { name, jurisdiction } of plan.createBuckets) {
    await step(`Creating R2 bucket ${name}`, [
      "r2",
      "bucket",
      "create",
      name,
      ...(jurisdiction ? ["--jurisdiction", jurisdiction] : []),
    ]);
  }
  // Before the new code: migrations only add (expand-only), so the version still serving keeps working.
  for (const name of plan.migrateDatabases)
    await step(`Applying the D1 migrations of ${name}`, ["d1", "migrations", "apply", name, "--remote"], {
      echo: true,
    });

  const scratch = mkdtempSync(path.join(tmpdir(), "gamification-deploy-"));
  try {
    const secretsFile = path.join(scratch, "secrets.json");
    const outputFile = path.join(scratch, "output.ndjson");
    const names = Object.keys(generated);
    // Uploaded with the version itself, so that its first request already has them.
    if (names.length > 0) writeFileSync(secretsFile, JSON.stringify(generated), { mode: 0o600 });
    const args = ["deploy", ...(names.length > 0 ? ["--secrets-file", secretsFile] : [])];
    const title = `Deploying ${plan.worker}${names.length > 0 ? ` with new secrets ${names.join(", ")}` : ""}`;
    await step(title, args, { echo: true, env: { ...process.env, WRANGLER_OUTPUT_FILE_PATH: outputFile } });
    return deployOutput(readFileSync(outputFile, "utf8"));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** Where it runs, the admin token if it is new, and what to do next. */
function summary(worker, deployed, adminToken) {
  const url = deployed.targets.find((t) => t.startsWith("https://"))?.replace(/\/+$/, "");
  const lines = [`\n✔ Deployed ${worker}${deployed.versionId ? ` (version ${deployed.versionId})` : ""}`];
  if (url)
    lines.push(
      `  URL            ${url}`,
      `  Health         ${url}/health`,
      `  Console        ${url}/console`,
      `  API reference  ${url}/docs`,
    );
  else
    lines.push(
      `  No https URL among its targets (${deployed.targets.join(", ") || "none"}): it answers on its routes.`,
    );
  if (adminToken)
    lines.push(
      "",
      `  Admin token    ${adminToken}`,
      "  Shown this once and stored nowhere else: keep it in a password manager.",
    );
  else
    lines.push(
      "",
      "  Admin token    already set (not shown). Replace it with `npm run wrangler -- secret put ADMIN_TOKEN`.",
    );
  const base = url ?? "https://<your Worker>";
  const admin = `-H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json'`;
  lines.push(
    "",
    "Next: create an app and an API key for your game:",
    `  curl -X POST ${base}/api/v1/admin/apps ${admin} -d '{"name":"My game"}'`,
    `  curl -X POST ${base}/api/v1/admin/apps/<app_id>/api-keys ${admin} -d '{"name":"game server"}'`,
    `Check it: curl -H "Authorization: Bearer $ADMIN_TOKEN" ${base}/api/v1/admin/status   (warnings: [] when all is well)`,
  );
  return lines.join("\n");
}

async function main(argv) {
  const { values: opts } = parseArgs({
    args: argv,
    options: {
      env: { type: "string", short: "e" },
      "dry-run": { type: "boolean" },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (opts.help) return console.log(USAGE);
  const dryRun = opts["dry-run"] ?? false;
  const envName = opts.env ?? null;
  const configPath = path.resolve(opts.config ?? path.join(projectRoot, "wrangler.toml"));
  const config = await readConfig(configPath, envName);
  const resources = resourcesOf(config);
  const wrangler = wranglerFor(configPath, envName);

  console.log(
    `${dryRun ? "Planning" : "Deploying"} ${resources.worker}${envName ? ` (environment ${envName})` : ""} from ${configPath}`,
  );
  const plan = planDeployment(resources, await inspectAccount(wrangler, config, resources, dryRun));
  console.log(`\n${describePlan(resources, plan).join("\n")}`);
  if (dryRun) {
    return console.log(
      `\nDry run: nothing was created, set or deployed.${createsNothing(plan) ? " A run would create nothing, only migrate and deploy." : ""}`,
    );
  }
  const generated = Object.fromEntries(plan.generateSecrets.map((name) => [name, GENERATORS[name]()]));
  const deployed = await execute(wrangler, plan, generated);
  console.log(summary(resources.worker, deployed, generated.ADMIN_TOKEN));
}

try {
  await main(process.argv.slice(2));
} catch (err) {
  const usage = typeof err?.code === "string" && err.code.startsWith("ERR_PARSE_ARGS");
  const known = usage || err instanceof Stop || err instanceof WranglerFailed;
  console.error(`\n✘ ${known ? err.message : err.stack}${usage ? `\n${USAGE}` : ""}`);
  process.exit(1);
}
