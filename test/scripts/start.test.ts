import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// `npm start` as a new user runs it, each start with its own port and its own state directory
// (START_STATE_DIR), never the developer's `.wrangler`.
const root = path.resolve(import.meta.dirname, "../..");
const START_TIMEOUT = 150_000;

/** A port nobody holds right now (the system's choice). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const running = new Set<Started>();

function npmStart(port: number, stateDir: string): Started {
  const child = spawn("npm", ["start"], {
    cwd: root,
    env: { ...process.env, PORT: String(port), START_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const started = { child, stdout: () => stdout, stderr: () => stderr, exited };
  running.add(started);
  return started;
}

/** Ctrl-C: npm start stops its server and exits. */
async function stop(started: Started) {
  running.delete(started);
  if (started.child.exitCode !== null) return;
  process.kill(-started.child.pid!, "SIGINT");
  await started.exited;
}

afterAll(async () => {
  for (const started of [...running]) await stop(started);
});

interface Banner {
  url: string;
  email: string;
  password: string;
  adminToken: string;
  credentialsFile: string;
}

/** The banner's values, once it is printed (or the failure, if npm start exits first). */
async function bannerOf(started: Started): Promise<Banner> {
  const deadline = Date.now() + START_TIMEOUT - 10_000;
  while (!started.stdout().includes("Stop with Ctrl-C.")) {
    if (started.child.exitCode !== null)
      throw new Error(`npm start exited with ${started.child.exitCode}:\n${started.stdout()}\n${started.stderr()}`);
    if (Date.now() > deadline) throw new Error(`no banner:\n${started.stdout()}\n${started.stderr()}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const text = started.stdout();
  const value = (re: RegExp) => re.exec(text)?.[1] ?? "";
  const [, email, password] = /sign in as\s+(\S+) \/ (\S+)/.exec(text) ?? [];
  return {
    url: value(/Open Gamification is running at (\S+)/),
    email,
    password,
    adminToken: value(/Admin token\s+(\S+)/),
    credentialsFile: value(/Credentials in\s+(\S+)/),
  };
}

/** Signs in on the console's form, as a browser does: the status of the form's answer. */
async function signIn(url: string, email: string, password: string): Promise<number> {
  const form = await fetch(`${url}/console/sign-in`);
  const token = /name="_form" value="([^"]+)"/.exec(await form.text())![1];
  const cookie = form.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
  const answer = await fetch(`${url}/console/sign-in`, {
    method: "POST",
    redirect: "manual",
    headers: { Cookie: cookie, Origin: url, "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ _form: token, next: "/console", email, password }),
  });
  await answer.arrayBuffer();
  return answer.status;
}

describe("npm start on a port another process holds", () => {
  it("exits with one line naming the port and how to choose another, and sends the holder nothing", async () => {
    const connections: Socket[] = [];
    const holder = createServer((socket) => void connections.push(socket));
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve));
    const { port } = holder.address() as AddressInfo;
    const stateDir = path.join(mkdtempSync(path.join(tmpdir(), "npm-start-busy-")), "state");
    try {
      const started = npmStart(port, stateDir);
      expect(await started.exited).toBe(1);
      expect(started.stderr()).toBe(
        `Port ${port} is already in use on 127.0.0.1 (another npm start?): stop what runs there, or choose another port, e.g. PORT=${port + 1} npm start\n`,
      );
      // npm's own header is all there is on stdout.
      expect(started.stdout().trim().split("\n").slice(-1)).toEqual(["> node scripts/start.mjs"]);
      expect(connections.length).toBe(0);
      // Nothing was migrated or seeded.
      expect(existsSync(stateDir)).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
      rmSync(path.dirname(stateDir), { recursive: true, force: true });
    }
  });
});

describe("the printed console password", () => {
  const stateDir = mkdtempSync(path.join(tmpdir(), "npm-start-state-"));
  afterAll(async () => {
    for (const started of [...running]) await stop(started);
    rmSync(stateDir, { recursive: true, force: true });
  });
  let first: Banner;

  it("signs in on a fresh state directory, and is saved in the credentials file it names", {
    timeout: START_TIMEOUT,
  }, async () => {
    const started = npmStart(await freePort(), stateDir);
    first = await bannerOf(started);
    expect(first.email).toBe("demo@open-gamification.local");
    expect(first.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(first.credentialsFile).toBe(path.join(stateDir, "demo-credentials.json"));
    expect(JSON.parse(readFileSync(first.credentialsFile, "utf8"))).toEqual({
      appId: "1",
      apiKey: expect.stringMatching(/^gk_/),
      consoleEmail: first.email,
      consolePassword: first.password,
    });
    // The banner comes after the server's start and the seeding: the last lines are the banner's own.
    expect(started.stdout().trimEnd().split("\n").at(-1)).toBe("  One line per request follows. Stop with Ctrl-C.");
    expect(started.stderr()).toBe("");
    expect(await signIn(first.url, first.email, first.password)).toBe(303);
    // Then one short line per request.
    await expect
      .poll(() => started.stdout().trimEnd().split("\n").slice(-2))
      .toEqual([
        expect.stringMatching(/^GET \/console\/sign-in 200 \d+ms$/),
        expect.stringMatching(/^POST \/console\/sign-in 303 \d+ms$/),
      ]);
    await stop(started);
  });

  let restarted: { started: Started; banner: Banner };

  it("after a restart is the same one, and still signs in", { timeout: START_TIMEOUT }, async () => {
    const started = npmStart(await freePort(), stateDir);
    const again = await bannerOf(started);
    expect(again.password).toBe(first.password);
    expect(await signIn(again.url, again.email, again.password)).toBe(303);
    restarted = { started, banner: again };
  });

  it("after an owner changed the password, is a new one at the next start, and signs in", {
    timeout: START_TIMEOUT,
  }, async () => {
    const { url, adminToken, email } = restarted.banner;
    const admin = { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" };
    const found = (await (
      await fetch(`${url}/api/v1/admin/console-users?search=${encodeURIComponent(email)}`, { headers: admin })
    ).json()) as { items: { console_user_id: string }[] };
    const id = found.items[0].console_user_id;
    const changed = await fetch(`${url}/api/v1/admin/console-users/${id}`, {
      method: "PUT",
      headers: admin,
      body: JSON.stringify({ email, display_name: "Demo owner", role: "owner", password: "changed-by-an-owner-123" }),
    });
    expect(changed.status).toBe(200);
    expect(await signIn(url, email, first.password)).toBe(401);
    await stop(restarted.started);

    const after = await bannerOf(npmStart(await freePort(), stateDir));
    expect(after.password).not.toBe(first.password);
    expect(after.password).not.toBe("changed-by-an-owner-123");
    expect(await signIn(after.url, after.email, after.password)).toBe(303);
    expect(JSON.parse(readFileSync(after.credentialsFile, "utf8")).consolePassword).toBe(after.password);
  });
});
