// `npm start`: local D1 migrated, a demo app seeded with the demo game's catalog and a demo console
// user (idempotently), `wrangler dev` on port 8787, and the credentials printed. Everything runs on
// workerd; no Cloudflare account is needed.
import { randomBytes } from "node:crypto";
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { applyDemoCatalog, DEMO_APP, DEMO_CATALOG as demoCatalog, DEMO_CONSOLE_EMAIL, DEMO_KEY } from "./lib/demo.mjs";
import { startDevServer } from "./lib/dev-server.mjs";
import { projectRoot } from "./lib/wrangler.mjs";

const PORT = Number(process.env.PORT ?? 8787);
const devVars = path.join(projectRoot, ".dev.vars");
const credentialsFile = path.join(projectRoot, ".wrangler", "demo-credentials.json");

if (!existsSync(devVars)) copyFileSync(path.join(projectRoot, ".dev.vars.example"), devVars);
// A .dev.vars from before ENVIRONMENT existed would run as production, which refuses its
// development secrets (503): it is a local file, so it says development.
if (!/^ENVIRONMENT=/m.test(readFileSync(devVars, "utf8"))) {
  appendFileSync(devVars, "\n# Added by npm start: these are development values.\nENVIRONMENT=development\n");
  console.log("  .dev.vars had no ENVIRONMENT: added ENVIRONMENT=development.");
}
const adminToken = /^ADMIN_TOKEN=(.*)$/m.exec(readFileSync(devVars, "utf8"))?.[1]?.trim();
if (!adminToken) throw new Error(".dev.vars has no ADMIN_TOKEN");

const server = await startDevServer({ port: PORT });
const shutdown = async () => {
  await server.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);

async function api(method, urlPath, token, body) {
  const response = await fetch(`${server.url}${urlPath}`, {
    method,
    // X-Actor: the audit log names the seeding as such.
    headers: { Authorization: `Bearer ${token}`, "X-Actor": "npm start", ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

/** The demo app and a working key: reused when they still exist, created otherwise. */
async function seedDemo() {
  const saved = existsSync(credentialsFile) ? JSON.parse(readFileSync(credentialsFile, "utf8")) : null;
  if (saved) {
    const probe = await api("POST", "/api/v1/auth/access-token", saved.apiKey, { user_id: "demo-user" });
    if (probe.status === 200) return saved;
  }
  let appId = saved?.appId;
  if (!appId || (await api("GET", `/api/v1/admin/apps/${appId}`, adminToken)).status !== 200) {
    const created = await api("POST", "/api/v1/admin/apps", adminToken, DEMO_APP);
    if (created.status !== 201) throw new Error(`could not create the demo app: ${JSON.stringify(created.body)}`);
    appId = created.body.app_id;
  }
  const key = await api("POST", `/api/v1/admin/apps/${appId}/api-keys`, adminToken, DEMO_KEY);
  if (key.status !== 201) throw new Error(`could not create the demo key: ${JSON.stringify(key.body)}`);
  const credentials = { appId, apiKey: key.body.key };
  mkdirSync(path.dirname(credentialsFile), { recursive: true });
  writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2));
  return credentials;
}

/**
 * An owner for the console: reused while it exists with the saved password, otherwise created
 * (or given a new password) through the admin API, as a script would.
 */
async function seedConsoleUser(credentials) {
  const found = await api("GET", `/api/v1/admin/console-users?search=${encodeURIComponent(DEMO_CONSOLE_EMAIL)}`, adminToken);
  const user = found.body?.items?.find((u) => u.email === DEMO_CONSOLE_EMAIL);
  if (user && credentials.consolePassword) return credentials.consolePassword;
  const password = randomBytes(12).toString("base64url");
  const body = { email: DEMO_CONSOLE_EMAIL, display_name: "Demo owner", role: "owner", password };
  const saved = user
    ? await api("PUT", `/api/v1/admin/console-users/${user.console_user_id}`, adminToken, body)
    : await api("POST", "/api/v1/admin/console-users", adminToken, body);
  if (saved.status !== 200 && saved.status !== 201) throw new Error(`could not seed the console user: ${JSON.stringify(saved.body)}`);
  writeFileSync(credentialsFile, JSON.stringify({ ...credentials, consolePassword: password }, null, 2));
  return password;
}

const demo = await seedDemo();
const catalogOutcome = await applyDemoCatalog({ url: server.url, adminToken, appId: demo.appId });
const consolePassword = await seedConsoleUser(demo);
console.log(`
  Open Gamification is running at ${server.url}
    Admin console   ${server.url}/console
      sign in as    ${DEMO_CONSOLE_EMAIL} / ${consolePassword}   (or with the admin token)
    API reference   ${server.url}/docs   (OpenAPI: ${server.url}/openapi.json)
    MQTT (WebSocket) ws://127.0.0.1:${PORT}/mqtt
    Demo app id     ${demo.appId}
    Demo API key    ${demo.apiKey}
    Demo catalog    ${demoCatalog} (${catalogOutcome})
    Admin token     ${adminToken}

  Try:  curl -X POST ${server.url}/api/v1/auth/access-token -H 'Authorization: Bearer ${demo.apiKey}' \\
          -H 'Content-Type: application/json' -d '{"user_id":"player-1"}'
  Stop with Ctrl-C.
`);
