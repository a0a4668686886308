// `npm run catalog -- pull|plan|apply --app ID --url URL [--prune] [--force] FILE`: catalog as code
// from the command line. The admin token comes from ADMIN_TOKEN; webhook secrets written as
// {env: NAME} come from the environment. FILE is YAML (.yaml, .yml) or JSON; `pull` writes it.
import { parseArgs } from "node:util";
import {
  SCHEMA_PATH,
  catalogCall,
  formatPlan,
  readCatalogFile,
  resolveSecrets,
  writeCatalogFile,
} from "./lib/catalog-client.mjs";

const USAGE = `Usage: npm run catalog -- <pull|plan|apply> --app ID --url URL [--prune] [--force] FILE
  pull    writes the app's configuration to FILE (YAML for .yaml/.yml, else JSON)
  plan    shows what applying FILE would change, changing nothing
  apply   applies FILE: every change at once, or none
  --prune deletes the app's objects that FILE leaves out (plan and apply)
  --force applies changes that would break running player state (apply)
The admin token is read from ADMIN_TOKEN.`;

function fail(message) {
  console.error(message);
  process.exit(1);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      app: { type: "string" },
      url: { type: "string" },
      prune: { type: "boolean" },
      force: { type: "boolean" },
      help: { type: "boolean" },
    },
  });
} catch (err) {
  fail(`${err.message}\n${USAGE}`);
}
const { values, positionals } = parsed;
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const [command, file, ...extra] = positionals;
if (!["pull", "plan", "apply"].includes(command) || !file || extra.length > 0 || !values.app || !values.url)
  fail(USAGE);
const token = process.env.ADMIN_TOKEN;
if (!token) fail("Set ADMIN_TOKEN to the service's admin token.");

const target = { url: values.url, token, appId: values.app };
const color = process.stdout.isTTY && !process.env.NO_COLOR;

try {
  if (command === "pull") {
    const doc = await catalogCall({ ...target, method: "GET" });
    writeCatalogFile(file, doc, `${values.url.replace(/\/+$/, "")}${SCHEMA_PATH}`);
    const count = (doc.categories ?? []).reduce((n, c) => n + c.challenges.length, 0);
    console.log(
      `Wrote ${file}: ${doc.categories.length} categories, ${count} challenges, ${doc.battle_passes.length} battle passes, ${doc.leaderboards.length} leaderboards, ${doc.webhooks.length} webhooks.`,
    );
  } else {
    const { doc, notes } = resolveSecrets(readCatalogFile(file), process.env);
    for (const note of notes) console.error(`note: ${note}`);
    const answer =
      command === "plan"
        ? await catalogCall({ ...target, method: "POST", suffix: "/plan", query: { prune: values.prune }, body: doc })
        : await catalogCall({
            ...target,
            method: "PUT",
            query: { prune: values.prune, force: values.force },
            body: doc,
          });
    console.log(
      `${command === "plan" ? "Plan" : "Apply"} of ${file} for app ${values.app} at ${values.url}${values.prune ? " (prune)" : ""}\n`,
    );
    console.log(formatPlan(answer, { color }));
  }
} catch (err) {
  fail(err.message);
}
