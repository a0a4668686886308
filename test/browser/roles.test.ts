import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  acceptNextDialog,
  ADMIN_TOKEN,
  operator,
  freshBrowserForEachTest,
  http,
  notice,
  openBrowser,
  postFromPage,
  screenshot,
  signIn,
  statusOf,
  url,
} from "./support";
import { newStudioApp } from "../e2e/support";

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let categoryId = "";
beforeAll(async () => {
  studio = await newStudioApp("Roles");
  const category = await http("POST", `/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
    token: ADMIN_TOKEN,
    body: { category_slug: "main", category_name: "Main" },
  });
  categoryId = category.body.category_id;
});

let page: Page;
freshBrowserForEachTest((p) => (page = p));

const app = (path = "") => `/console/apps/${studio.appId}${path}`;

describe("roles", () => {
  it("lets a viewer read everything and change nothing", async () => {
    const viewer = await operator("viewer");
    await signIn(page, viewer.email, viewer.password);
    await page.waitForURL(url("/console"));
    expect(await page.getByRole("button", { name: "Create app" }).count()).toBe(0);

    await page.goto(url(app(`/challenges/categories/${categoryId}`)));
    expect(await page.getByLabel("Slug").isDisabled()).toBe(true);
    expect(await page.getByRole("button", { name: "Save" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await page.goto(url(app("/challenges")));
    expect(await page.getByRole("link", { name: "New category" }).count()).toBe(0);
    await page.goto(url(app("/events")));
    expect(await page.getByRole("button", { name: "Send event" }).count()).toBe(0);

    // Changing anything anyway (a form sent by hand, with the session's own token) is refused.
    const attempts: [string, Record<string, string>][] = [
      [
        app("/challenges/categories/new"),
        { category_slug: "sneaky", "category_name.0.lang": "en", "category_name.0.text": "Sneaky" },
      ],
      [app(`/challenges/categories/${categoryId}/delete`), {}],
      [app("/events"), { user_id: "p1", event_name: "match-start" }],
      [app("/webhooks"), { webhook_type: "challenge-changed", url: "https://example.com/x" }],
      [app("/settings"), { name: "Renamed" }],
      [app("/keys"), { name: "mine" }],
      [app("/catalog/preview"), { document: "version: 1" }],
      [app("/catalog/apply"), { document: "version: 1", plan_digest: "x" }],
      ["/console/apps", { name: "Another app" }],
      ["/console/users", { email: "x@y.z", role: "owner", password: "long enough password" }],
    ];
    for (const [path, fields] of attempts) expect(await postFromPage(page, path, fields), path).toBe(403);
    expect(
      (await http("GET", `/api/v1/admin/apps/${studio.appId}/challenge-categories`, { token: ADMIN_TOKEN })).body.total,
    ).toBe(1);

    expect(await statusOf(page, "/console/users")).toBe(403);
    expect(await page.locator(".error-page .notice-error").textContent()).toBe(
      "Your role (viewer) may only read here; this needs an owner.",
    );
    await screenshot(page, "forbidden");
  });

  it("lets an editor configure an app but not manage keys, apps or console users", async () => {
    const editor = await operator("editor");
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(app("/challenges/categories/new")));
    await page.getByLabel("Slug").fill("daily");
    await page.locator("#f-category_name-0-text").fill("Daily");
    await page.getByLabel("Daily category").check();
    await page.getByRole("button", { name: "Create category" }).click();
    await page.waitForURL(url(app("/challenges")));
    const categories = await http("GET", `/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
      token: ADMIN_TOKEN,
    });
    expect(
      categories.body.items.map((c: { category_slug: string; is_daily_category: boolean }) => [
        c.category_slug,
        c.is_daily_category,
      ]),
    ).toContainEqual(["daily", true]);

    expect(
      await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "API keys" }).count(),
    ).toBe(0);
    expect(await statusOf(page, app("/keys"))).toBe(403);
    expect(await statusOf(page, "/console/users")).toBe(403);
    await page.goto(url(app("/settings")));
    expect(await postFromPage(page, app("/delete"), { confirm_name: "Roles" })).toBe(403);
  });

  it("refuses a change without the session's CSRF token", async () => {
    const owner = await operator("owner");
    await signIn(page, owner.email, owner.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(app("/challenges")));
    expect(
      await postFromPage(
        page,
        app("/challenges/categories/new"),
        { category_slug: "x", "category_name.0.text": "X" },
        { csrf: false },
      ),
    ).toBe(403);
  });

  it("lets an owner create an API key, shown once with a copy button, and revoke it", async () => {
    const owner = await operator("owner");
    await signIn(page, owner.email, owner.password);
    await page.waitForURL(url("/console"));
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: url("") });
    await page.goto(url(app("/keys")));
    await page.getByLabel("Name").fill("game server");
    await page.getByRole("button", { name: "Create key" }).click();
    await page.waitForSelector("#new-key");
    const key = (await page.locator("#new-key").textContent())!;
    expect(key).toMatch(/^gk_[A-Za-z0-9_-]{43}$/);
    await page.getByRole("button", { name: "Copy" }).click();
    await expect.poll(() => page.evaluate<string>("navigator.clipboard.readText()")).toBe(key);
    await screenshot(page, "keys-created");
    expect((await http("POST", "/api/v1/auth/access-token", { token: key, body: { user_id: "p1" } })).status).toBe(200);

    // Shown once: the page itself never shows it again.
    await page.goto(url(app("/keys")));
    expect(await page.content()).not.toContain(key);

    acceptNextDialog(page, /Revoke key game server\?/);
    await page
      .getByRole("row", { name: /game server/ })
      .getByRole("button", { name: "Revoke" })
      .click();
    await expect.poll(async () => (await notice(page).textContent()) ?? "").toBe("Key game server revoked.");
    expect((await http("POST", "/api/v1/auth/access-token", { token: key, body: { user_id: "p1" } })).status).toBe(401);
  });

  it("lets an owner add a console user, and a new role signs that user out", async () => {
    const owner = await operator("owner");
    await signIn(page, owner.email, owner.password);
    await page.waitForURL(url("/console"));
    await page.goto(url("/console/users"));
    const email = `new-${crypto.randomUUID().slice(0, 6)}@studio.test`;
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Name", { exact: true }).fill("Nina");
    await page.getByLabel("Role").selectOption("viewer");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Add user" }).click();
    await expect
      .poll(() => page.locator("#f-password-errors").textContent())
      .toBe("password must be at least 10 characters");
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Add user" }).click();
    await expect.poll(async () => (await notice(page).textContent()) ?? "").toBe(`${email} can now sign in as viewer.`);

    // The new user signs in elsewhere; promoting them ends that session.
    const other = await openBrowser();
    await signIn(other.page, email, "a long enough password");
    await other.page.waitForURL(url("/console"));
    await page.getByRole("link", { name: email }).click();
    await page.waitForURL(/\/console\/users\/\d+$/);
    await page.getByLabel("Role").selectOption("editor");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(async () => (await notice(page).textContent()) ?? "")
      .toBe(`${email} saved and signed out everywhere.`);
    await other.page.goto(url("/console"));
    expect(other.page.url()).toBe(url("/console/sign-in?next=%2Fconsole"));
    await other.close();
  });
});
