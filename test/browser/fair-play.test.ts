import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  acceptNextDialog,
  ADMIN_TOKEN,
  admin,
  operator,
  freshBrowserForEachTest,
  http,
  notice,
  postFromPage,
  screenshot,
  signIn,
  url,
} from "./support";
import { eventually, newStudioApp } from "../e2e/support";

/** Fair play in the console: bans, a board's review queue and the removal of an entry, and the app's settings. */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let editor: Awaited<ReturnType<typeof operator>>;
let owner: Awaited<ReturnType<typeof operator>>;

beforeAll(async () => {
  studio = await newStudioApp("Fair play");
  [editor, owner] = await Promise.all([operator("editor"), operator("owner")]);
});

let page: Page;
freshBrowserForEachTest((p) => (page = p));

const app = (path = "") => `/console/apps/${studio.appId}${path}`;
const noticeText = async () => (await notice(page).textContent()) ?? "";
const cells = (row: ReturnType<Page["locator"]>) => row.locator("td").allTextContents();

async function signInAs(user: { email: string; password: string }) {
  await signIn(page, user.email, user.password);
  await page.waitForURL(url("/console"));
}

/** An event from the studio's backend (the API key), for `userId`. */
async function send(userId: string, eventName: string, amount: number) {
  const r = await http("POST", "/api/v1/events", {
    token: studio.apiKey,
    body: { user_id: userId, event_name: eventName, meta_data: { amount } },
  });
  expect(r.status).toBe(200);
}

/** The player's standing on the board, as the game's backend reads it. */
const standing = async (boardId: string, userId: string) =>
  (await http("GET", `/api/v1/leaderboards-members/user/${userId}/${boardId}`, { token: studio.apiKey })).body
    .member as { score: number; rank: number };

describe("fair play in the console", () => {
  it("bans a player from their page: their token is refused and the Bans page lists them until the ban is lifted", async () => {
    const token = await studio.tokenFor("cheater");
    const asPlayer = () => http("GET", "/api/v1/user-additional-info", { token });
    expect((await asPlayer()).status).toBe(200);

    await signInAs(editor);
    await page.goto(url(app("/players/cheater")));
    expect(await page.locator("#ban p").first().textContent()).toBe("Not banned.");
    await page.getByLabel("Reason").fill("aimbot");
    await page.getByLabel("Ends (UTC)").fill("2020-01-01T00:00");
    await page.getByRole("button", { name: "Ban player" }).click();
    await expect
      .poll(() => page.locator("#f-expires_at-errors").textContent())
      .toBe("expires_at must be in the future");
    expect(await page.getByLabel("Reason").inputValue()).toBe("aimbot");
    expect((await asPlayer()).status).toBe(200);

    await page.getByLabel("Ends (UTC)").fill("2099-12-01T00:00");
    await page.getByRole("button", { name: "Ban player" }).click();
    await expect.poll(noticeText).toBe("cheater is banned until 2099-12-01 00:00:00 UTC.");
    expect((await page.locator("p.banned").textContent())!.replace(/\s+/g, " ")).toMatch(
      /^Banned since .+, until .+: aimbot$/,
    );
    expect(await page.locator("p.banned time").nth(1).getAttribute("datetime")).toBe("2099-12-01T00:00:00.000Z");
    await screenshot(page, "player-banned");
    expect(await asPlayer()).toMatchObject({
      status: 403,
      body: { status: 403, message: "Player cheater is banned until 2099-12-01T00:00:00.000Z: aimbot" },
    });

    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Bans" }).click();
    await page.waitForURL(url(app("/bans")));
    const row = page.getByRole("row", { name: /cheater/ });
    expect((await cells(row)).slice(0, 2)).toEqual(["cheater", "aimbot"]);
    await screenshot(page, "bans");
    // The search narrows the list as one types, by a part of the player's id or of the reason.
    const search = page.getByLabel("Search by player id or reason");
    await search.fill("AIM");
    await expect.poll(() => page.url()).toBe(url(app("/bans?search=AIM")));
    expect(await page.getByRole("row", { name: /cheater/ }).count()).toBe(1);
    await search.fill("nobody");
    await expect.poll(() => page.locator("#list .empty").textContent()).toBe("No ban in force matches “nobody”.");
    await screenshot(page, "bans-no-match");
    await page.goto(url(app("/bans")));

    acceptNextDialog(page, /^Lift the ban of cheater\?/);
    await row.getByRole("button", { name: "Lift" }).click();
    await expect.poll(noticeText).toBe("The ban of cheater is lifted.");
    expect(page.url()).toBe(url(app("/bans")));
    expect(await page.locator("#list .empty").textContent()).toMatch(/^Nobody is banned\./);
    expect((await asPlayer()).status).toBe(200);
    const log = await admin(`/apps/${studio.appId}/audit-log?resource=player&resource_id=cheater`);
    expect(log.items.map((e: { action: string; actor: { name: string } }) => [e.action, e.actor.name])).toEqual([
      ["unban", editor.email],
      ["ban", editor.email],
    ]);
  });

  it("holds an over-limit event for review: accepting applies it, dismissing drops another, and an entry can be removed", async () => {
    await signInAs(editor);
    // Each submission from a freshly loaded form: a refused form is swapped in by htmx, and a click
    // within its settling can be lost (a person does not click that fast).
    const submitNew = async (fields: { min?: string; max: string }) => {
      await page.goto(url(app("/leaderboards/new")));
      await page.locator("#f-name-0-text").fill("Bounded");
      await page.getByLabel("Event name").fill("score");
      if (fields.min !== undefined) await page.getByLabel("Lowest value").fill(fields.min);
      await page.getByLabel("Highest value").fill(fields.max);
      await page.getByRole("button", { name: "Create leaderboard" }).click();
    };
    await submitNew({ max: "99.5" });
    await expect.poll(() => page.locator("#f-max_value-errors").textContent()).toBe("max_value must be a whole number");
    await submitNew({ min: "200", max: "100" });
    await expect
      .poll(() => page.locator("#f-max_value-errors").textContent())
      .toBe("max_value must not be below min_value");
    expect(await page.getByLabel("Lowest value").inputValue()).toBe("200");
    await submitNew({ max: "100" });
    await expect.poll(noticeText).toMatch(/^Leaderboard \d+ created\.$/);
    const boardId = page.url().split("/").pop()!;
    expect(await admin(`/apps/${studio.appId}/leaderboards/${boardId}`)).toMatchObject({
      authoritative: false,
      min_value: null,
      max_value: 100,
      max_events_per_minute: null,
    });
    expect(await page.getByLabel("Highest value").inputValue()).toBe("100");

    await send("p1", "score", 50);
    await send("p1", "score", 500);
    await send("p2", "score", 1000);
    await send("p3", "score", 10);
    await eventually(
      async () =>
        (await admin(`/apps/${studio.appId}/leaderboards/${boardId}/flagged`)).total === 2 ? true : undefined,
      15_000,
      "two held",
    );
    await eventually(
      async () => ((await standing(boardId, "p3")).score === 10 ? true : undefined),
      15_000,
      "p3 on the board",
    );

    await page.reload();
    const queue = page.locator("#review tbody tr");
    expect(await queue.count()).toBe(2);
    expect((await cells(queue.nth(0))).slice(0, 4)).toEqual(["p1", "500", "above max_value", "score"]);
    expect((await cells(queue.nth(1))).slice(0, 4)).toEqual(["p2", "1,000", "above max_value", "score"]);
    await screenshot(page, "review-queue");

    await queue.nth(0).getByRole("button", { name: "Accept" }).click();
    await expect.poll(noticeText).toBe("Accepted 500 for user p1: score 550, rank 1.");
    expect(await standing(boardId, "p1")).toMatchObject({ score: 550, rank: 1 });
    expect((await cells(page.locator("#standings tbody tr").first())).slice(0, 4)).toEqual(["1", "p1", "—", "550"]);

    await page.locator("#review tbody tr").first().getByRole("button", { name: "Dismiss" }).click();
    await expect.poll(noticeText).toBe("Dismissed: it never counts.");
    expect(await page.locator("#review .empty").count()).toBe(1);
    expect((await standing(boardId, "p2")).rank).toBe(-1);

    acceptNextDialog(page, /^Remove the entry of user p3 from this board/);
    await page.getByRole("row", { name: /p3/ }).getByRole("button", { name: "Remove" }).click();
    await expect.poll(noticeText).toBe("The entry of user p3 is removed from this board.");
    expect(await standing(boardId, "p3")).toMatchObject({ score: 0, rank: -1 });
    expect(await page.locator("#standings tbody tr").count()).toBe(1);

    const log = await admin(
      `/apps/${studio.appId}/audit-log?resource=player&actor=${encodeURIComponent(editor.email)}`,
    );
    expect(
      log.items.slice(0, 3).map((e: { action: string; resource_id: string }) => [e.action, e.resource_id]),
    ).toEqual([
      ["remove-score", "p3"],
      ["dismiss-held-score", "p2"],
      ["accept-held-score", "p1"],
    ]);
  });

  it("saves the app's fair-play settings and shows them again", async () => {
    await signInAs(owner);
    await page.goto(url(app("/settings")));
    expect(await page.getByLabel("Events per player a minute").inputValue()).toBe("");
    await page.getByLabel("Backend-only events").fill("purchase-completed\ngrant-coins, ");
    await page.getByLabel("Events per player a minute").fill("0");
    await page.getByRole("button", { name: "Save" }).click();
    await expect
      .poll(() => page.locator("#f-rate_limits-per_user_per_minute-errors").textContent())
      .toBe("rate_limits.per_user_per_minute must be at least 1");
    expect(await page.getByLabel("Backend-only events").inputValue()).toBe("purchase-completed\ngrant-coins, ");

    await page.getByLabel("Events per player a minute").fill("120");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(noticeText).toBe("Settings saved.");
    expect(await admin(`/apps/${studio.appId}`)).toMatchObject({
      backend_only_events: ["purchase-completed", "grant-coins"],
      rate_limits: { per_user_per_minute: 120, per_app_per_minute: 6_000_000 },
    });
    expect(await page.getByLabel("Backend-only events").inputValue()).toBe("purchase-completed\ngrant-coins");
    expect(await page.getByLabel("Events per player a minute").inputValue()).toBe("120");
    expect(await page.getByLabel("Events of the whole app a minute").inputValue()).toBe("");
    await screenshot(page, "settings-fair-play");

    // In force: a game client may not send a backend-only event.
    const token = await studio.tokenFor("client");
    expect(
      (await http("POST", "/api/v1/events", { token, body: { event_name: "grant-coins", meta_data: { amount: 1 } } }))
        .status,
    ).toBe(403);

    // Saving the name alone keeps them.
    await page.getByLabel("Name", { exact: true }).fill("Fair play, renamed");
    await page.getByRole("button", { name: "Save" }).click();
    await expect.poll(noticeText).toBe("Settings saved.");
    expect(await admin(`/apps/${studio.appId}`)).toMatchObject({
      name: "Fair play, renamed",
      rate_limits: { per_user_per_minute: 120 },
    });
  });
});

describe("fair play for a viewer", () => {
  it("shows bans and held submissions, without a way to decide them: forged decisions are refused", async () => {
    const board = await http("POST", `/api/v1/admin/apps/${studio.appId}/leaderboards`, {
      token: ADMIN_TOKEN,
      body: { name: "Capped", event_name: "lap", max_value: 10 },
    });
    const boardId = board.body.leaderboard_id;
    await send("racer", "lap", 5);
    await send("racer", "lap", 50);
    const flagged = () => admin(`/apps/${studio.appId}/leaderboards/${boardId}/flagged`);
    const flag = await eventually(async () => (await flagged()).items[0], 15_000, "a held lap");
    await eventually(
      async () => ((await standing(boardId, "racer")).score === 5 ? true : undefined),
      15_000,
      "racer on the board",
    );
    expect(
      (
        await http("POST", `/api/v1/admin/apps/${studio.appId}/users/racer/ban`, {
          token: ADMIN_TOKEN,
          body: { reason: "wall hack" },
        })
      ).status,
    ).toBe(200);

    const viewer = await operator("viewer");
    await signInAs(viewer);
    await page.goto(url(app(`/leaderboards/${boardId}`)));
    expect((await cells(page.locator("#review tbody tr").first())).slice(0, 3)).toEqual([
      "racer",
      "50",
      "above max_value",
    ]);
    expect(await page.getByRole("button", { name: "Accept" }).count()).toBe(0);
    expect(await page.getByLabel("Highest value").isDisabled()).toBe(true);
    await page.goto(url(app("/bans")));
    expect((await cells(page.getByRole("row", { name: /racer/ }))).slice(0, 2)).toEqual(["racer", "wall hack"]);
    expect(await page.getByRole("button", { name: "Lift" }).count()).toBe(0);
    await page.goto(url(app("/players/racer")));
    expect(await page.getByRole("button", { name: "Lift ban" }).count()).toBe(0);
    expect(await page.getByLabel("Reason").count()).toBe(0);

    const boardPage = app(`/leaderboards/${boardId}`);
    for (const path of [
      `${boardPage}/flagged/${flag.flag_id}/accept`,
      `${boardPage}/flagged/${flag.flag_id}/dismiss`,
      `${boardPage}/members/user/racer/remove`,
      app("/players/racer/unban"),
      app("/players/racer/ban"),
    ]) {
      expect(await postFromPage(page, path, { reason: "x" }), path).toBe(403);
    }
    expect((await flagged()).total).toBe(1);
    expect(
      (await http("GET", `/api/v1/admin/apps/${studio.appId}/users/racer/ban`, { token: ADMIN_TOKEN })).status,
    ).toBe(200);
  });
});
