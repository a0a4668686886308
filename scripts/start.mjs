// `npm start`: local D1 migrated, a demo app seeded with the demo game's catalog and a demo console
// owner (idempotently), `wrangler dev` on PORT (8787), and the credentials printed once the server
// is up. Everything runs on workerd; no Cloudflare account is needed.
//
// PORT: the port on 127.0.0.1 (default 8787). It must be free: else npm start exits at once with one
// line, before it migrates, seeds or sends anything, so a server already on that port is untouched.
// START_STATE_DIR: where the local data (D1, objects, queues: `state/`) and the demo credentials
// (`demo-credentials.json`) live; `.wrangler` by default. Another directory runs a separate instance.
import { randomBytes } from "node:crypto";
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { applyDemoCatalog, DEMO_APP, DEMO_CATALOG as demoCatalog, DEMO_CONSOLE_EMAIL, DEMO_KEY } from "./lib/demo.mjs";
import { assertPortFree, PortBusyError, startDevServer } from "./lib/dev-server.mjs";
import { projectRoot } from "./lib/wrangler.mjs";

const DEFAULT_PORT = 8787;

/** One line on stderr, and a non-zero exit. */
function fail(line) {
  console.error(line);
  process.exit(1);
}

/** The PORT setting: a whole number from 1 to 65535, or null. */
function portOf(raw) {
  if (raw === undefined || raw.trim() === "") return DEFAULT_PORT;
  return /^\d+$/.test(raw.trim()) && Number(raw) >= 1 && Number(raw) <= 65535 ? Number(raw) : null;
}

const PORT = portOf(process.env.PORT);
if (PORT === null)
  fail(
    `PORT must be a port number from 1 to 65535, not "${process.env.PORT}": for example PORT=${DEFAULT_PORT + 1} npm start`,
  );
const busyLine = (port) => {
  const other = port === 65535 ? port - 1 : port + 1;
  return `Port ${port} is already in use on 127.0.0.1 (another npm start?): stop what runs there, or choose another port, e.g. PORT=${other} npm start`;
};
// First of all: nothing is migrated, seeded, printed or sent while another process holds the port.
try {
  await assertPortFree(PORT);
} catch (err) {
  if (err instanceof PortBusyError) fail(busyLine(PORT));
  fail(`Port ${PORT} cannot be used on 127.0.0.1: ${err.message}`);
}

const stateDir = path.resolve(projectRoot, process.env.START_STATE_DIR || ".wrangler");
const persistTo = path.join(stateDir, "state");
const credentialsFile = path.join(stateDir, "demo-credentials.json");
/** A path as the user can type it: relative to the project when it is inside it. */
const shown = (file) => (path.relative(projectRoot, file).startsWith("..") ? file : path.relative(projectRoot, file));
const devVars = path.join(projectRoot, ".dev.vars");

if (!existsSync(devVars)) copyFileSync(path.join(projectRoot, ".dev.vars.example"), devVars);
// A .dev.vars from before ENVIRONMENT existed would run as production, which refuses its
// development secrets (503): it is a local file, so it says development.
if (!/^ENVIRONMENT=/m.test(readFileSync(devVars, "utf8"))) {
  appendFileSync(devVars, "\n# Added by npm start: these are development values.\nENVIRONMENT=development\n");
  console.log("  .dev.vars had no ENVIRONMENT: added ENVIRONMENT=development.");
}
const devVarsText = readFileSync(devVars, "utf8");
const adminToken = /^ADMIN_TOKEN=(.*)$/m.exec(devVarsText)?.[1]?.trim();
if (!adminToken)
  fail(".dev.vars has no ADMIN_TOKEN: add one, or delete .dev.vars to start again from .dev.vars.example");
// One short line per request in the terminal, unless .dev.vars chooses a format itself.
const vars = /^LOG_FORMAT=/m.test(devVarsText) ? {} : { LOG_FORMAT: "pretty" };

/**
 * The server's output: held back until the banner is printed (shown only if the start fails), then
 * passed through without what wrangler repeats: its own line per request (the Worker writes one)
 * and its list of bindings when it reloads.
 */
const WRANGLER_NOISE = [
  /^\[wrangler:info\] (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ \d{3}\b/,
  /^\[wrangler:info\] Ready on /,
  /^Your Worker has access to the following bindings:/,
  /^Binding\s+Resource\s+Mode/,
  /^env\.\S+\s.*\s(local|remote)\s*$/,
  /^Using (secrets|vars) defined in /,
];
const held = [];
let passing = false;
/** Resolves when a line matching the test arrives, while the output is held. */
let awaitedLine = null;
const partial = { stdout: "", stderr: "" };
function onOutput(chunk, stream = "stdout") {
  const lines = (partial[stream] + chunk).split("\n");
  partial[stream] = lines.pop();
  for (const line of lines) {
    const plain = stripVTControlCharacters(line);
    if (!passing) {
      held.push(line);
      if (awaitedLine?.test(plain)) awaitedLine.resolve();
      continue;
    }
    if (WRANGLER_NOISE.some((re) => re.test(plain))) continue;
    (stream === "stderr" ? process.stderr : process.stdout).write(`${line}\n`);
  }
}

let server;
// Ctrl-C: the server stops with this process, also while it is still starting.
const shutdown = async () => {
  if (server) await server.stop();
  process.exit(0);
};
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
try {
  server = await startDevServer({ port: PORT, persistTo, vars, quiet: true, onOutput });
} catch (err) {
  if (err instanceof PortBusyError) fail(busyLine(PORT));
  process.stderr.write(`${held.join("\n")}\n`);
  fail(`npm start: the server did not start: ${err.message.split("\n")[0]}`);
}

async function api(method, urlPath, token, body) {
  const response = await fetch(`${server.url}${urlPath}`, {
    method,
    // X-Actor: the audit log names the seeding as such.
    headers: {
      Authorization: `Bearer ${token}`,
      "X-Actor": "npm start",
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

function saveCredentials(credentials) {
  mkdirSync(path.dirname(credentialsFile), { recursive: true });
  writeFileSync(credentialsFile, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
}

/** The demo app and a working key: reused when they still exist, created otherwise. */
async function seedDemo(saved) {
  if (saved?.appId && saved.apiKey) {
    const probe = await api("POST", "/api/v1/auth/access-token", saved.apiKey, { user_id: "demo-user" });
    if (probe.status === 200) return { appId: saved.appId, apiKey: saved.apiKey };
  }
  let appId = saved?.appId;
  if (!appId || (await api("GET", `/api/v1/admin/apps/${appId}`, adminToken)).status !== 200) {
    const created = await api("POST", "/api/v1/admin/apps", adminToken, DEMO_APP);
    if (created.status !== 201) throw new Error(`could not create the demo app: ${JSON.stringify(created.body)}`);
    appId = created.body.app_id;
  }
  const key = await api("POST", `/api/v1/admin/apps/${appId}/api-keys`, adminToken, DEMO_KEY);
  if (key.status !== 201) throw new Error(`could not create the demo key: ${JSON.stringify(key.body)}`);
  return { appId, apiKey: key.body.key };
}

/** The value of a cookie set by `response`. */
function cookieOf(response, name) {
  for (const header of response.headers.getSetCookie()) {
    const [pair] = header.split(";");
    if (pair.startsWith(`${name}=`)) return pair;
  }
  return null;
}

/**
 * Whether `password` signs the demo owner in, tried as the console's sign-in form does; a session it
 * opens is closed again, so the owner's list of sessions shows only the developer's own.
 */
async function signsIn(password) {
  const form = await fetch(`${server.url}/console/sign-in`, { redirect: "manual" });
  const formToken = /name="_form" value="([^"]+)"/.exec(await form.text())?.[1];
  const formCookie = cookieOf(form, "og_console_sign_in");
  if (!formToken || !formCookie) return false;
  const signIn = await fetch(`${server.url}/console/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: formCookie, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _form: formToken, next: "/console", email: DEMO_CONSOLE_EMAIL, password }),
  });
  await signIn.arrayBuffer();
  const session = cookieOf(signIn, "og_console_session");
  if (signIn.status !== 303 || !session) return false;
  const page = await fetch(`${server.url}/console`, { headers: { Cookie: session } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (csrf) {
    const signOut = await fetch(`${server.url}/console/sign-out`, {
      method: "POST",
      redirect: "manual",
      headers: { Cookie: session, Origin: server.url, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ _csrf: csrf }),
    });
    await signOut.arrayBuffer();
  }
  return true;
}

/**
 * The demo console owner and a password that signs in: the saved one while it still does, else a
 * new one (the owner created if missing) set through the admin API, as a script would.
 */
async function seedOperator(savedPassword) {
  const found = await api(
    "GET",
    `/api/v1/admin/console-users?search=${encodeURIComponent(DEMO_CONSOLE_EMAIL)}`,
    adminToken,
  );
  const user = found.body?.items?.find((u) => u.email === DEMO_CONSOLE_EMAIL);
  if (user && savedPassword && (await signsIn(savedPassword))) return savedPassword;
  const password = randomBytes(12).toString("base64url");
  const body = { email: DEMO_CONSOLE_EMAIL, display_name: user?.display_name || "Demo owner", role: "owner", password };
  const saved = user
    ? await api("PUT", `/api/v1/admin/console-users/${user.console_user_id}`, adminToken, body)
    : await api("POST", "/api/v1/admin/console-users", adminToken, body);
  if (saved.status !== 200 && saved.status !== 201)
    throw new Error(`could not seed the console user: ${JSON.stringify(saved.body)}`);
  return password;
}

/**
 * Waits until the server's lines of the requests above have come through the pipe (a last request
 * to a path of its own, whose line is recognised in either log format), so that the banner comes
 * after them; at most a few seconds, the banner matters more.
 */
async function outputSettled() {
  const marker = `/npm-start-ready-${randomBytes(6).toString("hex")}`;
  const seen = new Promise((resolve) => {
    awaitedLine = { test: () => false, resolve };
  });
  const answer = await fetch(`${server.url}${marker}`);
  const requestId = answer.headers.get("X-Request-Id");
  await answer.arrayBuffer();
  const pretty = `GET ${marker} 404 `;
  awaitedLine.test = (line) =>
    line.startsWith(pretty) || (requestId !== null && line.includes(`request_id: '${requestId}'`));
  if (held.some((line) => awaitedLine.test(stripVTControlCharacters(line)))) return;
  await Promise.race([seen, new Promise((r) => setTimeout(r, 3000))]);
}

let demo;
let catalogOutcome;
let consolePassword;
try {
  const saved = existsSync(credentialsFile) ? JSON.parse(readFileSync(credentialsFile, "utf8")) : null;
  demo = await seedDemo(saved);
  catalogOutcome = await applyDemoCatalog({ url: server.url, adminToken, appId: demo.appId });
  consolePassword = await seedOperator(saved?.consolePassword);
  saveCredentials({ appId: demo.appId, apiKey: demo.apiKey, consoleEmail: DEMO_CONSOLE_EMAIL, consolePassword });
  await outputSettled();
} catch (err) {
  process.stderr.write(`${held.join("\n")}\n`);
  await server.stop();
  fail(`npm start: seeding the demo failed: ${err.message}`);
}

console.log(`
  Open Gamification is running at ${server.url}
    Admin console    ${server.url}/console
      sign in as     ${DEMO_CONSOLE_EMAIL} / ${consolePassword}   (or with the admin token)
    API reference    ${server.url}/docs   (OpenAPI: ${server.url}/openapi.json)
    MQTT (WebSocket) ws://127.0.0.1:${PORT}/mqtt
    Demo app id      ${demo.appId}
    Demo API key     ${demo.apiKey}
    Demo catalog     ${demoCatalog} (${catalogOutcome})
    Admin token      ${adminToken}
    Credentials in   ${shown(credentialsFile)}

  Try:  curl -X POST ${server.url}/api/v1/auth/access-token -H 'Authorization: Bearer ${demo.apiKey}' \\
          -H 'Content-Type: application/json' -d '{"user_id":"player-1"}'
  One line per request follows. Stop with Ctrl-C.
`);
passing = true;
