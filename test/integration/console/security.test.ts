import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ADMIN, call } from "../helpers";
import { ConsoleClient } from "./support";

const newUser = async (role = "editor", password = "correct horse battery") => {
  const email = `user-${crypto.randomUUID().slice(0, 8)}@studio.test`;
  const r = await call("POST", "/api/v1/admin/console-users", {
    token: ADMIN,
    body: { email, role, password, display_name: "Ann" },
  });
  expect(r.status).toBe(201);
  return { email, password, id: r.body.console_user_id as string };
};

describe("console users in the admin API", () => {
  it("creates, lists, replaces and deletes console users, never showing a password or its hash", async () => {
    const email = `Ann.${crypto.randomUUID().slice(0, 6)}@Studio.TEST`;
    const created = await call("POST", "/api/v1/admin/console-users", {
      token: ADMIN,
      body: { email, role: "viewer", password: "correct horse battery" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      console_user_id: expect.stringMatching(/^\d+$/),
      email: email.toLowerCase(),
      display_name: "",
      role: "viewer",
      active_sessions: 0,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const again = await call("POST", "/api/v1/admin/console-users", {
      token: ADMIN,
      body: { email: email.toUpperCase(), role: "owner", password: "another long one" },
    });
    expect(again).toMatchObject({
      status: 409,
      body: { status: 409, errors: [{ field: "email", problem: "is already a console user" }] },
    });
    const invalid = await call("POST", "/api/v1/admin/console-users", {
      token: ADMIN,
      body: { email: "nope", role: "admin", password: "short" },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["email", "password", "role"]);

    const list = await call("GET", `/api/v1/admin/console-users?search=${encodeURIComponent(email.slice(0, 8))}`, {
      token: ADMIN,
    });
    expect(list.body).toMatchObject({ total: 1, items: [{ email: email.toLowerCase() }] });

    const id = created.body.console_user_id;
    const replaced = await call("PUT", `/api/v1/admin/console-users/${id}`, {
      token: ADMIN,
      body: { email: email.toLowerCase(), role: "owner", display_name: "Ann" },
    });
    expect(replaced.body).toMatchObject({ role: "owner", display_name: "Ann" });
    expect(JSON.stringify(replaced.body)).not.toMatch(/pbkdf2|password/);
    expect((await call("DELETE", `/api/v1/admin/console-users/${id}`, { token: ADMIN })).status).toBe(204);
    expect((await call("GET", `/api/v1/admin/console-users/${id}`, { token: ADMIN })).status).toBe(404);
  });

  it("stores passwords as PBKDF2-SHA256 with 100,000 iterations and a salt of their own", async () => {
    const a = await newUser("viewer", "the same password");
    const b = await newUser("viewer", "the same password");
    const rows = await env.DB.prepare("SELECT password_hash FROM console_users WHERE console_user_id IN (?, ?)")
      .bind(Number(a.id), Number(b.id))
      .all<{ password_hash: string }>();
    const [first, second] = rows.results.map((r) => r.password_hash.split("$"));
    expect(first[0]).toBe("pbkdf2-sha256");
    expect(first[1]).toBe("100000");
    expect(atob(first[2])).toHaveLength(16);
    expect(atob(first[3])).toHaveLength(32);
    expect(first[2]).not.toBe(second[2]);
    expect(first[3]).not.toBe(second[3]);
  });
});

describe("console sign-in", () => {
  it("answers a wrong password or an unknown email alike, after a delay, and counts the failure", async () => {
    const user = await newUser();
    const browser = new ConsoleClient();
    for (const fields of [
      { email: user.email, password: "wrong password" },
      { email: "nobody@studio.test", password: "wrong password" },
    ]) {
      const started = Date.now();
      const result = await browser.signIn(fields);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
      expect(result.status).toBe(401);
      expect(result.html).toContain("Wrong email or password.");
      expect(result.html).toContain(`value="${fields.email}"`);
    }
    const row = await env.DB.prepare("SELECT failed_sign_ins FROM console_users WHERE console_user_id = ?")
      .bind(Number(user.id))
      .first<{ failed_sign_ins: number }>();
    expect(row?.failed_sign_ins).toBe(1);
    expect((await browser.signIn({ email: user.email, password: user.password })).status).toBe(303);
    const reset = await env.DB.prepare("SELECT failed_sign_ins FROM console_users WHERE console_user_id = ?")
      .bind(Number(user.id))
      .first<{ failed_sign_ins: number }>();
    expect(reset?.failed_sign_ins).toBe(0);
  });

  it("locks an account after ten wrong passwords in a row, for fifteen minutes after the last", async () => {
    const user = await newUser();
    const lock = (agoMs: number) =>
      env.DB.prepare(
        "UPDATE console_users SET failed_sign_ins = 10, last_failed_sign_in_at = ? WHERE console_user_id = ?",
      )
        .bind(Date.now() - agoMs, Number(user.id))
        .run();
    await lock(60_000);
    const browser = new ConsoleClient();
    const locked = await browser.signIn({ email: user.email, password: user.password });
    expect(locked.status).toBe(429);
    expect(locked.html).toContain("Too many wrong passwords for this account. Try again in 14 minutes");
    await lock(16 * 60_000);
    expect((await browser.signIn({ email: user.email, password: user.password })).status).toBe(303);
  });

  it("refuses a sign-in form that did not come from the sign-in page", async () => {
    const user = await newUser();
    const browser = new ConsoleClient();
    const noCookie = await browser.request(
      "POST",
      "/console/sign-in",
      new URLSearchParams({ email: user.email, password: user.password, _form: "made-up" }),
    );
    expect(noCookie.status).toBe(403);
    expect(noCookie.html).toContain("The sign-in form had expired.");
    const page = await browser.get("/console/sign-in");
    const formToken = /name="_form" value="([^"]+)"/.exec(page.html)![1];
    const crossSite = await browser.request(
      "POST",
      "/console/sign-in",
      new URLSearchParams({ email: user.email, password: user.password, _form: formToken }),
      {
        Origin: "https://evil.example",
      },
    );
    expect(crossSite.status).toBe(403);
  });

  it("signs in with the admin token as owner, and refuses anything else after a delay", async () => {
    const browser = new ConsoleClient();
    const started = Date.now();
    const wrong = await browser.signIn({ admin_token: "not-it" }, "/console/sign-in/admin-token");
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(wrong.status).toBe(401);
    expect(wrong.html).toContain("That is not the admin token.");
    const right = await browser.signIn(
      { admin_token: ADMIN, next: "https://evil.example/x" },
      "/console/sign-in/admin-token",
    );
    expect(right).toMatchObject({ status: 303, location: "/console" });
    expect((await browser.get("/console")).html).toMatch(/Admin token <span class="badge role-owner">owner<\/span>/);
  });
});

describe("console sessions", () => {
  it("ends on sign-out for good, even for a copy of the cookie", async () => {
    const browser = new ConsoleClient();
    await browser.signInAsOwner();
    const cookie = browser.cookies.get("og_console_session")!;
    const signedOut = await browser.post("/console/sign-out");
    expect(signedOut).toMatchObject({ status: 303, location: "/console/sign-in" });
    const copy = new ConsoleClient();
    copy.cookies.set("og_console_session", cookie);
    expect((await copy.get("/console")).status).toBe(303);
  });

  it("ends when it expires, and when an owner changes the user's role or password", async () => {
    const user = await newUser("editor");
    const browser = new ConsoleClient();
    expect((await browser.signIn({ email: user.email, password: user.password })).status).toBe(303);
    expect((await browser.get("/console")).status).toBe(200);
    await call("PUT", `/api/v1/admin/console-users/${user.id}`, {
      token: ADMIN,
      body: { email: user.email, role: "viewer" },
    });
    expect((await browser.get("/console")).status).toBe(303);

    expect((await browser.signIn({ email: user.email, password: user.password })).status).toBe(303);
    expect((await browser.get("/console")).html).toContain("role-viewer");
    await env.DB.prepare("UPDATE console_sessions SET expires_at = ? WHERE console_user_id = ?")
      .bind(Date.now() - 1, Number(user.id))
      .run();
    expect((await browser.get("/console")).status).toBe(303);
  });

  it("needs the session's CSRF token, from this origin, for every change", async () => {
    const browser = new ConsoleClient();
    await browser.signInAsOwner();
    const fields = { name: "Should not exist" };
    expect((await browser.post("/console/apps", fields, { csrf: null })).status).toBe(403);
    expect((await browser.post("/console/apps", fields, { csrf: "x".repeat(43) })).status).toBe(403);
    expect((await browser.post("/console/apps", fields, { headers: { Origin: "https://evil.example" } })).status).toBe(
      403,
    );
    expect((await browser.post("/console/apps", fields, { headers: { "Sec-Fetch-Site": "cross-site" } })).status).toBe(
      403,
    );
    // htmx sends the token as a header.
    const viaHeader = await browser.post(
      "/console/apps",
      { name: "Via header" },
      { csrf: null, headers: { "X-CSRF-Token": browser.csrf } },
    );
    expect(viaHeader.status).toBe(303);
    // Every app of the runtime, page by page: other files' apps share the database.
    const names: string[] = [];
    for (let page = 1; ; page++) {
      const apps = await call("GET", `/api/v1/admin/apps?pageSize=100&currentPage=${page}`, { token: ADMIN });
      names.push(...apps.body.items.map((a: { name: string }) => a.name));
      if (names.length >= apps.body.total || apps.body.items.length === 0) break;
    }
    expect(names).toContain("Via header");
    expect(names).not.toContain("Should not exist");
  });
});
