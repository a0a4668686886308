import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";

// `npm run deploy` against a fake wrangler on PATH (fake-wrangler/), as an operator runs it.
const root = path.resolve(import.meta.dirname, "../..");
const configPath = path.join(root, "wrangler.toml");
const fakeBin = path.join(import.meta.dirname, "fake-wrangler");
const migrations = readdirSync(path.join(root, "migrations"))
  .filter((f) => f.endsWith(".sql"))
  .sort();

const PRODUCTION = {
  worker: "open-gamification",
  database: "gamification",
  queues: ["gamification-webhooks", "gamification-background", "gamification-webhooks-dlq"],
  buckets: ["gamification-events"],
};
const STAGING = {
  worker: "open-gamification-staging",
  database: "gamification-staging",
  queues: ["gamification-webhooks-staging", "gamification-background-staging", "gamification-webhooks-staging-dlq"],
  buckets: ["gamification-events-staging"],
};

interface Account {
  loggedIn: boolean;
  accounts: { id: string; name: string }[];
  d1: { uuid: string; name: string; migrations: string[] }[];
  queues: string[];
  r2: string[];
  workers: Record<string, { secrets: Record<string, string>; versions: string[] }>;
  /** What `wrangler deploy` had to create itself. */
  provisioned: string[];
  /** The secrets files `wrangler deploy` was given. */
  secretsFiles: string[];
  failDeploy?: boolean;
}

const newAccount = (): Account => ({
  loggedIn: true,
  accounts: [{ id: "0123456789abcdef0123456789abcdef", name: "Studio" }],
  d1: [],
  queues: [],
  r2: [],
  workers: {},
  provisioned: [],
  secretsFiles: [],
});

let dir: string | undefined;
let configs: string;

beforeAll(async () => {
  // The config as the real wrangler resolves it, for the fake's deploy and migrations.
  const { unstable_readConfig } = await import("wrangler");
  configs = path.join(mkdtempSync(path.join(tmpdir(), "fake-wrangler-config-")), "configs.json");
  const resolved = Object.fromEntries(
    ["", "staging"].map((env) => {
      const c = unstable_readConfig({ config: configPath, env: env || undefined });
      return [
        env,
        {
          name: c.name,
          d1: c.d1_databases,
          r2: c.r2_buckets,
          queues: { producers: c.queues.producers ?? [], consumers: c.queues.consumers ?? [] },
          triggers: c.triggers,
        },
      ];
    }),
  );
  writeFileSync(configs, JSON.stringify(resolved));
});

afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Runs the deploy script against `account`; answers its output, the account after, and wrangler's calls. */
async function deploy(account: Account, ...args: string[]) {
  dir ??= mkdtempSync(path.join(tmpdir(), "deploy-test-"));
  const statePath = path.join(dir, "account.json");
  const logPath = path.join(dir, `calls-${Date.now()}.ndjson`);
  writeFileSync(statePath, JSON.stringify(account));
  writeFileSync(logPath, "");
  // The operator's own account choice must not leak into the test.
  const { CLOUDFLARE_ACCOUNT_ID: _, ...inherited } = process.env as Record<string, string | undefined>;
  const env = {
    ...inherited,
    PATH: `${fakeBin}${path.delimiter}${process.env.PATH}`,
    FAKE_WRANGLER_STATE: statePath,
    FAKE_WRANGLER_CONFIGS: configs,
    FAKE_WRANGLER_LOG: logPath,
  };
  const child = spawn(process.execPath, [path.join(root, "scripts/deploy.mjs"), "--config", configPath, ...args], {
    cwd: root,
    env: env as unknown as NodeJS.ProcessEnv,
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  const code = await new Promise<number>((resolve) => child.on("close", (c) => resolve(c ?? 1)));
  const calls = readFileSync(logPath, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) =>
      (JSON.parse(line) as string[]).filter((a, i, all) => a !== "--config" && all[i - 1] !== "--config").join(" "),
    );
  return { code, stdout, stderr, account: JSON.parse(readFileSync(statePath, "utf8")) as Account, calls };
}

/** The calls that read the account, in any order (queues are asked side by side). */
const lookups = (names: typeof PRODUCTION, env = "") => [
  `whoami --json${env}`,
  `d1 list --json${env}`,
  ...names.queues.map((q) => `queues info ${q}${env}`),
  ...names.buckets.map((b) => `r2 bucket info ${b} --json${env}`),
  `secret list${env}`,
];

/** How many calls read the account before anything is created. */
const READS = lookups(PRODUCTION).length;

describe("npm run deploy on a fresh account", () => {
  it("creates the database and every queue, migrates, deploys with generated secrets, and prints where it runs", async () => {
    const configBefore = readFileSync(configPath, "utf8");
    const run = await deploy(newAccount());
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);

    const reads = run.calls.slice(0, READS);
    expect(reads.sort()).toEqual(lookups(PRODUCTION).sort());
    expect(run.calls.slice(READS)).toEqual([
      "d1 create gamification",
      "queues create gamification-webhooks",
      "queues create gamification-background",
      "queues create gamification-webhooks-dlq",
      "r2 bucket create gamification-events",
      "d1 migrations apply gamification --remote",
      `deploy --secrets-file ${run.account.secretsFiles[0]}`,
    ]);

    expect(run.account.d1).toEqual([{ uuid: expect.any(String), name: "gamification", migrations }]);
    expect(run.account.queues).toEqual(PRODUCTION.queues);
    expect(run.account.r2).toEqual(PRODUCTION.buckets);
    // Nothing was left for `wrangler deploy` to create on its own, and wrangler.toml is unchanged.
    expect(run.account.provisioned).toEqual([]);
    expect(readFileSync(configPath, "utf8")).toBe(configBefore);

    const { secrets, versions } = run.account.workers[PRODUCTION.worker];
    expect(Object.keys(secrets).sort()).toEqual(["ADMIN_TOKEN", "JWT_SIGNING_KEYS", "TOPIC_SECRET"]);
    expect(secrets.ADMIN_TOKEN).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(secrets.TOPIC_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(secrets.JWT_SIGNING_KEYS)).toEqual([
      { kid: expect.stringMatching(/^k-\d{4}-\d{2}-\d{2}$/), secret: expect.stringMatching(/^[A-Za-z0-9_-]{48}$/) },
    ]);
    // The secrets file is gone once deployed.
    expect(existsSync(run.account.secretsFiles[0])).toBe(false);

    expect(run.stdout).toContain(
      [
        "Worker open-gamification:",
        "  D1 database  gamification               create",
        "  queue        gamification-webhooks      create",
        "  queue        gamification-background    create",
        "  queue        gamification-webhooks-dlq  create",
        "  R2 bucket    gamification-events        create",
        "  secret       ADMIN_TOKEN                generate",
        "  secret       JWT_SIGNING_KEYS           generate",
        "  secret       TOPIC_SECRET               generate",
        "  migrations   gamification               apply the pending ones (remote)",
        "  deploy       open-gamification          upload and deploy, with the static files of ./dist-assets",
      ].join("\n"),
    );
    const url = "https://open-gamification.studio.workers.dev";
    expect(run.stdout).toContain(
      [
        `✔ Deployed open-gamification (version ${versions[0]})`,
        `  URL            ${url}`,
        `  Health         ${url}/health`,
        `  Console        ${url}/console`,
        `  API reference  ${url}/docs`,
        "",
        `  Admin token    ${secrets.ADMIN_TOKEN}`,
        "  Shown this once and stored nowhere else: keep it in a password manager.",
        "",
        "Next: create an app and an API key for your game:",
        `  curl -X POST ${url}/api/v1/admin/apps -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' -d '{"name":"My game"}'`,
      ].join("\n"),
    );
    // The admin token is printed once; the other secrets never.
    expect(run.stdout.split(secrets.ADMIN_TOKEN)).toHaveLength(2);
    expect(run.stdout).not.toContain(secrets.TOPIC_SECRET);
    expect(run.stdout).not.toContain(JSON.parse(secrets.JWT_SIGNING_KEYS)[0].secret);
  });

  it("in a dry run, only reads the account and prints the plan", async () => {
    const run = await deploy(newAccount(), "--dry-run");
    expect(run.code).toBe(0);
    expect(run.calls.sort()).toEqual(lookups(PRODUCTION).sort());
    expect(run.account).toEqual(newAccount());
    expect(run.stdout).toContain("  queue        gamification-webhooks-dlq  create\n");
    expect(run.stdout).toContain("  secret       ADMIN_TOKEN                generate\n");
    expect(run.stdout).toContain("Dry run: nothing was created, set or deployed.\n");
  });
});

describe("npm run deploy on a deployed account", () => {
  it("creates nothing and keeps the secrets: it migrates what is pending and deploys", async () => {
    const first = await deploy(newAccount());
    const deployed = first.account;
    deployed.d1[0].migrations.pop(); // a release with a new migration
    const secrets = { ...deployed.workers[PRODUCTION.worker].secrets };

    const dry = await deploy(deployed, "--dry-run");
    expect(dry.stdout).toContain("  D1 database  gamification               exists\n");
    expect(dry.stdout).toContain("  secret       TOPIC_SECRET               set\n");
    expect(dry.stdout).toContain(
      "Dry run: nothing was created, set or deployed. A run would create nothing, only migrate and deploy.\n",
    );

    const run = await deploy(deployed);
    expect(run.code).toBe(0);
    expect(run.calls.slice(READS)).toEqual(["d1 migrations apply gamification --remote", "deploy"]);
    expect(run.stdout).toContain(`Migrations to be applied:\n${migrations.at(-1)}\n`);
    expect(run.account.d1[0].migrations).toEqual(migrations);
    expect(run.account.workers[PRODUCTION.worker].secrets).toEqual(secrets);
    expect(run.account.workers[PRODUCTION.worker].versions).toHaveLength(2);
    expect(run.account.queues).toEqual(PRODUCTION.queues);
    expect(run.account.provisioned).toEqual([]);
    expect(run.stdout).toContain(
      "  Admin token    already set (not shown). Replace it with `npm run wrangler -- secret put ADMIN_TOKEN`.\n",
    );
    expect(run.stdout).not.toContain(secrets.ADMIN_TOKEN);
  });

  it("deploys --env staging beside production, with its own database, queues, secrets and Worker", async () => {
    const production = (await deploy(newAccount())).account;
    const run = await deploy(production, "--env", "staging");
    expect(run.code).toBe(0);
    expect(run.calls.slice(0, READS).sort()).toEqual(lookups(STAGING, " --env staging").sort());
    expect(run.calls.slice(READS)).toEqual([
      "d1 create gamification-staging --env staging",
      ...STAGING.queues.map((q) => `queues create ${q} --env staging`),
      ...STAGING.buckets.map((b) => `r2 bucket create ${b} --env staging`),
      "d1 migrations apply gamification-staging --remote --env staging",
      `deploy --secrets-file ${run.account.secretsFiles[1]} --env staging`,
    ]);
    expect(run.account.d1.map((db) => [db.name, db.migrations.length])).toEqual([
      ["gamification", migrations.length],
      ["gamification-staging", migrations.length],
    ]);
    expect(run.account.queues).toEqual([...PRODUCTION.queues, ...STAGING.queues]);
    expect(Object.keys(run.account.workers)).toEqual([PRODUCTION.worker, STAGING.worker]);
    expect(run.account.workers[STAGING.worker].secrets.ADMIN_TOKEN).not.toBe(
      production.workers[PRODUCTION.worker].secrets.ADMIN_TOKEN,
    );
    expect(run.stdout).toContain("  URL            https://open-gamification-staging.studio.workers.dev\n");
  });
});

describe("npm run deploy when it cannot deploy", () => {
  it("stops before anything when not logged in", async () => {
    const run = await deploy({ ...newAccount(), loggedIn: false });
    expect(run.code).toBe(1);
    expect(run.calls).toEqual(["whoami --json"]);
    expect(run.stderr).toContain(
      "✘ Wrangler is not logged in to Cloudflare. Log in with `npm run wrangler -- login` (or set CLOUDFLARE_API_TOKEN), then run this again.",
    );
  });

  it("asks which account to use when the login reaches several", async () => {
    const run = await deploy({
      ...newAccount(),
      accounts: [
        { id: "a1", name: "Studio" },
        { id: "b2", name: "Personal" },
      ],
    });
    expect(run.code).toBe(1);
    expect(run.calls).toEqual(["whoami --json"]);
    expect(run.stderr).toContain(
      "✘ This login reaches 2 accounts: choose one with CLOUDFLARE_ACCOUNT_ID=<id> (or account_id in wrangler.toml):\n  a1  Studio\n  b2  Personal",
    );
  });

  it("shows wrangler's error when the deploy fails, and removes the generated secrets file", async () => {
    const run = await deploy({ ...newAccount(), failDeploy: true });
    expect(run.code).toBe(1);
    expect(run.calls.at(-1)).toMatch(/^deploy --secrets-file (.+)$/);
    expect(run.stderr).toContain("the fake account refuses this upload");
    expect(existsSync(run.calls.at(-1)!.split(" ")[2])).toBe(false);
    expect(run.stdout).not.toContain("Admin token");
  });
});
