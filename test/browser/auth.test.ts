import { describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { operator, freshBrowserForEachTest, screenshot, signIn, url } from "./support";

let page: Page;
freshBrowserForEachTest((p) => (page = p));

describe("signing in and out", () => {
  it("sends every console path to sign-in while nobody is signed in, and back after signing in", async () => {
    for (const path of [
      "/console",
      "/console/apps/1",
      "/console/apps/1/challenges/new",
      "/console/users",
      "/console/no-such-page",
    ]) {
      await page.goto(url(path));
      expect(page.url()).toBe(url(`/console/sign-in?next=${encodeURIComponent(path)}`));
    }
    await screenshot(page, "sign-in");
    const user = await operator("editor");
    await page.goto(url("/console/users"));
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    // Back where the visit started; an editor may not manage users.
    await page.waitForURL(url("/console/users"));
    expect(await page.locator("h1").textContent()).toBe("Not allowed");
  });

  it("answers a wrong password with a clear message after a delay, keeping the email", async () => {
    const user = await operator("viewer");
    await page.goto(url("/console/sign-in"));
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Password").fill("not the password");
    const started = Date.now();
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === url("/console/sign-in") && r.request().method() === "POST"),
      page.getByRole("button", { name: "Sign in", exact: true }).click(),
    ]);
    expect(response.status()).toBe(401);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await page.waitForSelector("#sign-in-error");
    expect(await page.locator("#sign-in-error").textContent()).toBe("Wrong email or password.");
    expect(await page.getByLabel("Email").inputValue()).toBe(user.email);
    await screenshot(page, "sign-in-wrong-password");
  });

  it("signs in with a password, shows who is signed in, and signs out for good", async () => {
    const user = await operator("owner");
    await signIn(page, user.email, user.password);
    await page.waitForURL(url("/console"));
    expect(await page.locator(".user-name").textContent()).toContain("A owner");
    const [session] = (await page.context().cookies()).filter((c) => c.name === "og_console_session");
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: "Strict", path: "/console" });

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(url("/console/sign-in"));
    expect(await page.locator(".notice-success").textContent()).toBe("You are signed out.");
    await page.goto(url("/console"));
    expect(page.url()).toBe(url("/console/sign-in?next=%2Fconsole"));

    // The old cookie opens nothing: sign-out revoked the session on the server.
    await page.context().addCookies([session]);
    await page.goto(url("/console"));
    expect(page.url()).toBe(url("/console/sign-in?next=%2Fconsole"));
  });
});
