import { describe, expect, it } from "vitest";
import { changePaths, consoleFixture, readPaths } from "./fixtures";
import { ConsoleClient } from "./support";

/**
 * No console page or action answers 5xx, whatever it is sent; a viewer changes nothing, an editor administers nothing.
 */

const JUNK_QUERY =
  "currentPage=-5&pageSize=abc&search=%25%27%22%3Cscript%3E&type=alien&member=" +
  "m".repeat(600) +
  "&status=nope&webhook_id=abc&category_id=zz&user_id=%E2%80%AE%00x&event_name=%3Cb%3E&direction=sideways";

const JUNK_FORMS: Record<string, string>[] = [
  {},
  {
    name: "x".repeat(5000),
    category_id: "abc",
    category_slug: "Not A Slug!",
    "category_name.0.lang": "__proto__",
    "category_name.0.text": "x",
    "category_name.1.lang": "toString",
    "category_name.1.text": "y",
    challenge_goal: "99999999999999999999999",
    challenge_goal_condition: "7",
    challenge_duration_time: "1.5",
    live_date: "yesterday",
    period_range: "fortnight",
    period_range_reset_at_time: "25:61",
    event_name: "",
    "filters.0.field": "",
    "filters.0.op": "like",
    "filters.0.value": "x",
    "filters.9999999999.field": "f",
    counter_scope: "forever",
    start_date: "2027-01-01T00:00",
    end_date: "2026-01-01T00:00",
    level_priority: "-3",
    level_reward_type: "gold",
    reward_webhook_url: "ftp://x",
    "challenges.0.challenge_goal": "x",
    "challenges.zz.event_name": "a",
    webhook_type: "everything",
    url: "javascript:alert(1)",
    secret_key: "s",
    email: "not-an-email",
    role: "god",
    password: "1",
    user_id: "",
    "meta_data.amount": "1e3",
    "custom.0.key": "k",
    confirm_name: "nope",
    default_language: "english",
    direction: "up",
  },
  { _add: "challenges.0.filters" },
  { _add: "__proto__" },
  { _remove: "filters.99999999999999999999" },
  { _remove: "nonsense" },
];

describe("console robustness", () => {
  it("answers every page with junk in the query without a 5xx", async () => {
    const fixture = await consoleFixture("Junk queries");
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    for (const path of [
      ...readPaths(fixture),
      "/console/apps/abc",
      "/console/apps/99999999999999999999",
      "/console/static/nope.js",
      "/console/apps/1/players/%2F..%2F",
    ]) {
      const page = await owner.get(`${path}${path.includes("?") ? "&" : "?"}${JUNK_QUERY}`);
      expect(page.status, path).toBeLessThan(500);
    }
  }, 60_000);

  it("answers every action with junk forms, JSON or no token without a 5xx", async () => {
    const fixture = await consoleFixture("Junk forms");
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    for (const path of changePaths(fixture)) {
      for (const fields of JUNK_FORMS) {
        const result = await owner.post(path, fields);
        expect(result.status, `${path} ${JSON.stringify(fields).slice(0, 80)}`).toBeLessThan(500);
      }
      const json = await owner.request("POST", path, undefined, {
        "Content-Type": "application/json",
        Origin: "https://gamification.test",
      });
      expect(json.status, `${path} as JSON`).toBe(403);
    }
  }, 120_000);

  it("refuses every change of a viewer with 403, and leaves everything as it was", async () => {
    const fixture = await consoleFixture("Viewer");
    const viewer = new ConsoleClient();
    await viewer.signInAs("viewer");
    for (const path of changePaths(fixture)) {
      const result = await viewer.post(path, { confirm_name: "Viewer", name: "x" });
      expect(result.status, path).toBe(403);
      expect(result.html).toContain("Your role (viewer) may only read here");
    }
    // Reading is fine; the forms that only create things are for editors.
    for (const path of readPaths(fixture).filter(
      (p) => !p.startsWith("/console/users") && !p.endsWith("/keys") && !p.endsWith("/new"),
    )) {
      expect((await viewer.get(path)).status, path).toBe(200);
    }
    const owner = new ConsoleClient();
    await owner.signInAsOwner();
    expect((await owner.get(`/console/apps/${fixture.appId}/challenges/${fixture.challengeId}`)).status).toBe(200);
  }, 60_000);

  it("refuses an editor apps, API keys and console users", async () => {
    const fixture = await consoleFixture("Editor");
    const editor = new ConsoleClient();
    await editor.signInAs("editor");
    const app = `/console/apps/${fixture.appId}`;
    for (const path of [
      "/console/apps",
      `${app}/settings`,
      `${app}/delete`,
      `${app}/keys`,
      `${app}/keys/${fixture.keyId}/revoke`,
      "/console/users",
      `/console/users/${fixture.operatorId}`,
    ]) {
      expect((await editor.post(path, { name: "x" })).status, path).toBe(403);
    }
    for (const path of [`${app}/keys`, "/console/users"]) expect((await editor.get(path)).status, path).toBe(403);
    expect(
      (
        await editor.post(`${app}/challenges/categories/new`, {
          category_slug: "ok",
          "category_name.0.lang": "en",
          "category_name.0.text": "OK",
        })
      ).status,
    ).toBe(303);
  });
});
