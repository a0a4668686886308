// A stand-in for wrangler 4.156.2 in the deploy script's tests: it answers the commands the
// script runs as the real one does (same flags, same JSON on stdout, same error texts, same exit
// codes), against a pretend account kept in a JSON file. No machine here reaches Cloudflare.
//
//   FAKE_WRANGLER_STATE    the account (see newAccount in ../deploy.test.ts); updated by commands that change it
//   FAKE_WRANGLER_CONFIGS  the config as the real wrangler resolves it, by environment ("" for the top level)
//   FAKE_WRANGLER_LOG      every call is appended here, one JSON array of arguments per line
//   WRANGLER_OUTPUT_FILE_PATH  as the real one: `deploy` appends its ND-JSON entry
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import path from "node:path";

const argv = process.argv.slice(2);
appendFileSync(process.env.FAKE_WRANGLER_LOG, `${JSON.stringify(argv)}\n`);

/** Global flags every command takes. */
function takeFlag(name) {
  const i = argv.indexOf(name);
  if (i === -1) return null;
  const [, value] = argv.splice(i, 2);
  return value;
}
const configPath = takeFlag("--config");
const envName = takeFlag("--env") ?? "";
const secretsFile = takeFlag("--secrets-file");
const jurisdiction = takeFlag("--jurisdiction");
const json = argv.includes("--json");
const positional = argv.filter((a) => !a.startsWith("--"));

const statePath = process.env.FAKE_WRANGLER_STATE;
const state = JSON.parse(readFileSync(statePath, "utf8"));
const save = () => writeFileSync(statePath, JSON.stringify(state, null, 2));
const config = () => JSON.parse(readFileSync(process.env.FAKE_WRANGLER_CONFIGS, "utf8"))[envName];

/** As wrangler prints a UserError or an API error, and exits with 1. */
function error(message) {
  process.stderr.write(`\n✘ [ERROR] ${message}\n\n`);
  process.exit(1);
}
const apiError = (url, text, code) =>
  error(
    `A request to the Cloudflare API (/accounts/${state.accounts[0].id}${url}) failed.\n\n  ${text} [code: ${code}]`,
  );

const COMMANDS = [
  "whoami",
  "d1 list",
  "d1 create",
  "d1 migrations apply",
  "queues info",
  "queues create",
  "r2 bucket info",
  "r2 bucket create",
  "secret list",
  "deploy",
];
const command = COMMANDS.find((c) => positional.slice(0, c.split(" ").length).join(" ") === c);
const arg = command && positional[command.split(" ").length];
if (jurisdiction) error("fake wrangler: jurisdictions are not modelled");

if (command === "whoami") {
  if (!json) error("fake wrangler: whoami without --json");
  if (!state.loggedIn) {
    process.stdout.write(`${JSON.stringify({ loggedIn: false })}\n`);
    process.exit(1);
  }
  process.stdout.write(
    `${JSON.stringify({ loggedIn: true, authType: "OAuth Token", email: "ops@studio.example", accounts: state.accounts, tokenPermissions: [] }, null, 2)}\n`,
  );
  process.exit(0);
}

if (!state.loggedIn) {
  error(
    "In a non-interactive environment, it's necessary to set a CLOUDFLARE_API_TOKEN environment variable for wrangler to work.",
  );
}

const databaseNamed = (name) => state.d1.find((db) => db.name === name);
const worker = () => (state.workers[config().name] ??= { secrets: {}, versions: [] });

switch (command) {
  case "d1 list":
    if (!json) error("fake wrangler: d1 list without --json");
    process.stdout.write(
      `${JSON.stringify(
        state.d1.map(({ uuid, name }) => ({
          uuid,
          name,
          created_at: "2026-11-24T00:00:00.000Z",
          version: "production",
          num_tables: 0,
          file_size: 0,
        })),
        null,
        2,
      )}\n`,
    );
    break;
  case "d1 create":
    if (databaseNamed(arg)) error("A database with that name already exists");
    state.d1.push({ uuid: randomUUID(), name: arg, migrations: [] });
    save();
    console.log(`✅ Successfully created DB '${arg}' in region WEUR\nCreated your new D1 database.`);
    break;
  case "d1 migrations apply": {
    if (!argv.includes("--remote")) error("fake wrangler: migrations apply without --remote");
    const entry = config().d1.find((db) => db.database_name === arg || db.binding === arg);
    const db = databaseNamed(entry?.database_name ?? arg);
    if (!db) error(`Couldn't find a D1 DB named '${arg}' in the API. Run 'wrangler d1 create ${arg}' to create it.`);
    const dir = path.resolve(path.dirname(configPath), entry?.migrations_dir ?? "migrations");
    const pending = readdirSync(dir)
      .filter((f) => f.endsWith(".sql") && !db.migrations.includes(f))
      .sort();
    if (pending.length === 0) console.log("✅ No migrations to apply!");
    else {
      console.log(`Migrations to be applied:\n${pending.join("\n")}`);
      db.migrations.push(...pending);
      save();
    }
    break;
  }
  case "queues info":
    if (!state.queues.includes(arg))
      error(`Queue "${arg}" does not exist. To create it, run: wrangler queues create ${arg}`);
    console.log(
      `Queue Name: ${arg}\nQueue ID: ${arg}-id\nCreated On: 2026-11-24T00:00:00Z\nLast Modified: 2026-11-24T00:00:00Z\nNumber of Producers: 0\nNumber of Consumers: 0`,
    );
    break;
  case "queues create":
    if (state.queues.includes(arg)) apiError("/queues", "Queue name already taken", 11009);
    state.queues.push(arg);
    save();
    console.log(`🌀 Creating queue '${arg}'\n✅ Created queue '${arg}'`);
    break;
  case "r2 bucket info":
    if (!state.r2.includes(arg)) apiError(`/r2/buckets/${arg}`, "The specified bucket does not exist.", 10006);
    process.stdout.write(
      `${JSON.stringify({ name: arg, location: "WEUR", creation_date: "2026-11-24T00:00:00.000Z", object_count: 0, bucket_size: "0 B" })}\n`,
    );
    break;
  case "r2 bucket create":
    if (state.r2.includes(arg))
      apiError("/r2/buckets", "The bucket you tried to create already exists, and you own it.", 10004);
    state.r2.push(arg);
    save();
    console.log(`Creating bucket '${arg}'...\n✅ Created bucket '${arg}' with default storage class of Standard.`);
    break;
  case "secret list": {
    const existing = state.workers[config().name];
    if (!existing) {
      error(
        `Worker "${config().name}"${envName ? ` (env: ${envName})` : ""} not found.\n\nIf this is a new Worker, run \`wrangler deploy\` first to create it.`,
      );
    }
    process.stdout.write(
      `${JSON.stringify(
        Object.keys(existing.secrets).map((name) => ({ name, type: "secret_text" })),
        null,
        "  ",
      )}\n`,
    );
    break;
  }
  case "deploy": {
    if (state.failDeploy) error("A request to the Cloudflare API failed: the fake account refuses this upload.");
    const cfg = config();
    // The real deploy creates D1 databases, R2 buckets and producer queues it cannot find (recorded
    // as provisioned), and stops at consumer and dead-letter queues that do not exist.
    for (const consumer of cfg.queues.consumers) {
      for (const name of [consumer.queue, consumer.dead_letter_queue].filter(Boolean)) {
        if (!state.queues.includes(name))
          error(`Queue "${name}" does not exist. To create it, run: wrangler queues create ${name}`);
      }
    }
    for (const db of cfg.d1.filter((d) => !d.database_id && !databaseNamed(d.database_name))) {
      state.d1.push({ uuid: randomUUID(), name: db.database_name, migrations: [] });
      state.provisioned.push(`D1 ${db.database_name}`);
    }
    for (const bucket of cfg.r2.filter((b) => !state.r2.includes(b.bucket_name))) {
      state.r2.push(bucket.bucket_name);
      state.provisioned.push(`R2 ${bucket.bucket_name}`);
    }
    for (const producer of cfg.queues.producers.filter((p) => !state.queues.includes(p.queue))) {
      state.queues.push(producer.queue);
      state.provisioned.push(`queue ${producer.queue}`);
    }
    const target = worker();
    if (secretsFile) {
      if (!existsSync(secretsFile)) error(`fake wrangler: no secrets file ${secretsFile}`);
      Object.assign(target.secrets, JSON.parse(readFileSync(secretsFile, "utf8")));
      state.secretsFiles.push(secretsFile);
    }
    const versionId = randomUUID();
    target.versions.push(versionId);
    save();
    const url = `https://${cfg.name}.studio.workers.dev`;
    const targets = [
      url,
      ...cfg.triggers.crons.map((c) => `schedule: ${c}`),
      ...cfg.queues.producers.map((p) => `Producer for ${p.queue}`),
      ...cfg.queues.consumers.map((c) => `Consumer for ${c.queue}`),
    ];
    if (process.env.WRANGLER_OUTPUT_FILE_PATH) {
      appendFileSync(
        process.env.WRANGLER_OUTPUT_FILE_PATH,
        `${JSON.stringify({ version: 1, type: "wrangler-session", wrangler_version: "4.156.2", command_line_args: argv, log_file_path: "/dev/null" })}\n`,
      );
      appendFileSync(
        process.env.WRANGLER_OUTPUT_FILE_PATH,
        `${JSON.stringify({ type: "deploy", version: 1, worker_name: cfg.name, worker_tag: "tag", version_id: versionId, targets, wrangler_environment: envName || undefined, worker_name_overridden: false })}\n`,
      );
    }
    console.log(
      `Total Upload: 1340.08 KiB / gzip: 251.60 KiB\nUploaded ${cfg.name} (3.10 sec)\nDeployed ${cfg.name} triggers (1.20 sec)\n${targets.map((t) => `  ${t}`).join("\n")}\nCurrent Version ID: ${versionId}`,
    );
    break;
  }
  default:
    process.stderr.write(`fake wrangler: unsupported command: ${process.argv.slice(2).join(" ")}\n`);
    process.exit(2);
}
