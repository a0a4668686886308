import { describe, expect, it } from "vitest";
import { ConsoleClient } from "./support";

describe("console sign-in", () => {
  it("redirects an anonymous visitor to sign-in, and back after signing in with the admin token", async () => {
    const browser = new ConsoleClient();
    const anonymous = await browser.get("/console/apps/1/challenges?currentPage=2");
    expect(anonymous.status).toBe(303);
    expect(anonymous.location).toBe("/console/sign-in?next=%2Fconsole%2Fapps%2F1%2Fchallenges%3FcurrentPage%3D2");

    const signedIn = await browser.signIn(
      { admin_token: "test-admin-token", next: "/console" },
      "/console/sign-in/admin-token",
    );
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe("/console");
    const cookie = signedIn.headers.getSetCookie().find((c) => c.startsWith("og_console_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/console/);

    const apps = await browser.get("/console");
    expect(apps.status).toBe(200);
    expect(apps.html).toContain("<h1>Apps</h1>");
    expect(apps.headers.get("Content-Security-Policy")).toContain("script-src 'self'");
  });
});
