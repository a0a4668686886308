import { describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { ConsoleClient } from "./support";

/** The rows a list page shows: the links in its table. */
const rowsOf = (html: string, pattern: RegExp) => [...html.matchAll(pattern)].map((m) => m[1]);

describe("console lists", () => {
  it("searches and pages challenges, battle passes, leaderboards and webhook endpoints, with an empty state that says what to do", async () => {
    const { appId } = await createTestApp("Lists");
    const create = async (path: string, body: unknown) => {
      const r = await call("POST", `/api/v1/admin/apps/${appId}${path}`, { token: ADMIN, body });
      expect(r.status).toBe(201);
      return r.body;
    };
    const category = await create("/challenge-categories", { category_slug: "main", category_name: "Main" });
    for (const [name, event] of [
      ["Kill 10", "kill-enemy"],
      ["Kill 20", "kill-enemy"],
      ["Run far", "character-run"],
    ]) {
      await create("/challenges", {
        category_id: category.category_id,
        challenge_name: { en: name },
        challenge_goal: 1,
        event_name: event,
      });
    }
    for (const name of ["Spring", "Summer"]) {
      await create("/battle-passes", {
        battle_pass_name: name,
        start_date: "2026-01-01T00:00:00Z",
        end_date: "2027-01-01T00:00:00Z",
      });
    }
    for (const [name, event] of [
      ["Top killers", "kill-enemy"],
      ["Runners", "character-run"],
    ])
      await create("/leaderboards", { name, event_name: event });
    for (const host of ["alpha", "beta"])
      await create("/webhooks", { webhook_type: "challenge-changed", url: `http://127.0.0.1:9/${host}` });

    const browser = new ConsoleClient();
    await browser.signInAs("viewer");
    const app = `/console/apps/${appId}`;
    const challenges = (query: string) =>
      browser.get(`${app}/challenges?${query}`).then((p) => rowsOf(p.html, /challenges\/\d+">([^<]+)<\/a>/g));
    expect(await challenges("search=kill")).toEqual(["Kill 10", "Kill 20"]);
    expect(await challenges("search=character-run")).toEqual(["Run far"]);
    expect(await challenges("pageSize=2&currentPage=2")).toEqual(["Run far"]);
    expect((await browser.get(`${app}/challenges?search=zzz`)).html).toContain("No challenge matches.");

    const passes = await browser.get(`${app}/battle-passes?search=SUM`);
    expect(rowsOf(passes.html, /battle-passes\/\d+">([^<]+)<\/a>/g)).toEqual(["Summer"]);
    const boards = await browser.get(`${app}/leaderboards?search=run`);
    expect(rowsOf(boards.html, /leaderboards\/\d+">([^<]+)<\/a>/g)).toEqual(["Runners"]);
    const hooks = await browser.get(`${app}/webhooks?search=bet`);
    expect(rowsOf(hooks.html, /<code>(http[^<]+)<\/code>/g)).toEqual(["http://127.0.0.1:9/beta"]);
    expect((await browser.get(`${app}/leaderboards?search=nothing`)).html).toContain(
      "No leaderboard matches “nothing”.",
    );

    const empty = await createTestApp("Empty");
    const emptyPage = await browser.get(`/console/apps/${empty.appId}/challenges`);
    expect(emptyPage.html).toContain("No categories yet.");
    expect(emptyPage.html).toContain(`or <a href="/console/apps/${empty.appId}/catalog">import a catalog</a>`);
  });
});
