import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, afterEach, beforeEach, expect, inject } from "vitest";
import { CHROMIUM_ARGS } from "../../scripts/lib/chromium.mjs";
import { ADMIN_TOKEN, baseUrl, http } from "../e2e/support";

export { ADMIN_TOKEN, baseUrl, http };

export const DESKTOP = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * Where every run saves its screenshots (not committed; test/browser/gallery holds a chosen few for docs/console.md).
 */
export const SCREENSHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), "screenshots");

let shared: Promise<Browser> | undefined;

/**
 * One Chromium per test file, launched at its first use and closed after the file's last test:
 * starting a browser costs far more than a context, and contexts share no cookies or storage.
 */
function sharedBrowser(): Promise<Browser> {
  shared ??= chromium.launch({ executablePath: inject("chromiumPath"), headless: true, args: CHROMIUM_ARGS });
  return shared;
}

// Each test file imports this module afresh, so this closes the browser of the file.
afterAll(async () => {
  const browser = await shared;
  shared = undefined;
  await browser?.close();
});

/**
 * A fresh browser context: no cookies or storage from any other test. `tolerate` names the console
 * errors a page is known to cause and that break nothing.
 */
export async function openBrowser(
  options: { tolerate?: RegExp } = {},
): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  const context = await (await sharedBrowser()).newContext({ viewport: DESKTOP });
  // Content-Security-Policy violations name their source, so a failure says what broke the policy.
  await context.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation', e.violatedDirective, e.sourceFile + ':' + e.lineNumber + ':' + e.columnNumber, e.sample))",
  );
  const page = await context.newPage();
  const problems: string[] = [];
  // A page that breaks its CSP or throws is a failure, not noise.
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (
      message.type() === "error" &&
      !/status of (40[0-9]|429)/.test(message.text()) &&
      !options.tolerate?.test(message.text())
    )
      problems.push(`console error: ${message.text()}`);
  });
  return {
    context,
    page,
    async close() {
      await context.close();
      expect(problems).toEqual([]);
    },
  };
}

/** A fresh browser for every test of the file, handed to `use`, and closed (and checked) after it. */
export function freshBrowserForEachTest(use: (page: Page) => void) {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  beforeEach(async () => {
    browser = await openBrowser();
    use(browser.page);
  });
  afterEach(() => browser.close());
}

export const url = (p: string) => `${baseUrl()}${p}`;

export async function signInAsOwner(page: Page) {
  await page.goto(url("/console/sign-in"));
  await page.getByText("Sign in with the admin token").click();
  await page.getByLabel("Admin token").fill(ADMIN_TOKEN);
  await page.getByRole("button", { name: "Sign in as owner" }).click();
  await page.waitForURL(url("/console"));
}

export async function signIn(page: Page, email: string, password: string) {
  await page.goto(url("/console/sign-in"));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** A console user made through the admin API, as a script would. */
export async function operator(role: "owner" | "editor" | "viewer") {
  const email = `${role}-${crypto.randomUUID().slice(0, 8)}@studio.test`;
  const password = `pw-${crypto.randomUUID()}`;
  const r = await http("POST", "/api/v1/admin/console-users", {
    token: ADMIN_TOKEN,
    body: { email, role, password, display_name: `A ${role}` },
  });
  expect(r.status).toBe(201);
  return { email, password, id: r.body.console_user_id as string };
}

/** Reads back through the admin API. */
export async function admin(pathname: string) {
  const r = await http("GET", `/api/v1/admin${pathname}`, { token: ADMIN_TOKEN });
  expect(r.status).toBe(200);
  return r.body;
}

/** The notice a change leaves (fixed in a corner, it does not move the page). */
export const notice = (page: Page) => page.locator(".toast");

/**
 * Saves the page at desktop and at phone width, and checks that at phone width nothing makes
 * the page itself scroll sideways (tables scroll inside their own box).
 */
export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  // A full-page picture starts at the top, where the sticky bar belongs.
  await page.evaluate("window.scrollTo(0, 0)");
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.evaluate("window.scrollTo(0, 0)");
  const overflow = await page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-390.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
  expect(overflow, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(0);
}

/** Accepts the next confirmation dialog (destructive actions ask first). */
export function acceptNextDialog(page: Page, expected?: RegExp) {
  page.once("dialog", async (dialog) => {
    if (expected) expect(dialog.message()).toMatch(expected);
    await dialog.accept();
  });
}

/**
 * A form post from inside the signed-in page (its cookies, its origin), as a tampered or scripted
 * form would send it; `csrf: false` leaves the token out. Answers the HTTP status.
 */
export async function postFromPage(
  page: Page,
  pathname: string,
  fields: Record<string, string>,
  options: { csrf?: boolean } = {},
) {
  return page.evaluate(
    async ({ pathname, fields, csrf }) => {
      const doc = (globalThis as any).document;
      const token = doc.querySelector('input[name="_csrf"]')?.value ?? "";
      const body = new URLSearchParams({ ...fields, ...(csrf ? { _csrf: token } : {}) });
      const response = await fetch(pathname, { method: "POST", body, redirect: "manual" });
      return response.status;
    },
    { pathname, fields, csrf: options.csrf ?? true },
  );
}

/** The status a page answers, by navigating to it. */
export async function statusOf(page: Page, pathname: string) {
  const response = await page.goto(url(pathname));
  return response?.status();
}
