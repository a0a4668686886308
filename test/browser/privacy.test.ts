import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import {
  ADMIN_TOKEN,
  admin,
  operator,
  freshBrowserForEachTest,
  http,
  notice,
  postFromPage,
  screenshot,
  signIn,
  statusOf,
  url,
} from "./support";
import { eventually, newStudioApp } from "../e2e/support";

/**
 * A player's rights in the console: their data as a download, erasure behind a typed confirmation, and the audit log of
 * it all.
 */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let boardId = "";
let oldToken = "";
let editor: Awaited<ReturnType<typeof operator>>;

const app = (path = "") => `/console/apps/${studio.appId}${path}`;

/** The player's score on the board, as the game's backend reads it. */
const scoreOf = async (userId: string) =>
  (await http("GET", `/api/v1/leaderboards-members/user/${userId}/${boardId}`, { token: studio.apiKey })).body.member
    .score as number;

/** A score of `amount` on the board, sent as the player's game sends it; answers once the board shows it. */
async function play(userId: string, amount: number) {
  const token = await studio.tokenFor(userId);
  expect(
    (await http("POST", "/api/v1/events", { token, body: { event_name: "score", meta_data: { amount } } })).status,
  ).toBe(200);
  await eventually(async () => ((await scoreOf(userId)) === amount ? true : undefined), 15_000, `${userId}'s score`);
  return token;
}

beforeAll(async () => {
  studio = await newStudioApp("Privacy");
  const board = await http("POST", `/api/v1/admin/apps/${studio.appId}/leaderboards`, {
    token: ADMIN_TOKEN,
    body: { name: "Top", event_name: "score" },
  });
  expect(board.status).toBe(201);
  boardId = board.body.leaderboard_id;
  oldToken = await play("erase-me", 5);
  expect(
    (await http("PUT", "/api/v1/user-additional-info", { token: oldToken, body: { username: "Eraser" } })).status,
  ).toBe(200);
  await play("keep-me", 3);
  editor = await operator("editor");
});

let page: Page;
freshBrowserForEachTest((p) => (page = p));

async function signInAs(user: { email: string; password: string }) {
  await signIn(page, user.email, user.password);
  await page.waitForURL(url("/console"));
}

/** Clicks the player page's download link and answers the file's name and its JSON. */
async function downloadExport() {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download the player's data" }).click(),
  ]);
  return { name: download.suggestedFilename(), document: JSON.parse(readFileSync((await download.path())!, "utf8")) };
}

describe("privacy in the console", () => {
  it("downloads a player's data as one JSON document", async () => {
    await signInAs(editor);
    await page.goto(url(app("/players/erase-me")));
    const { name, document } = await downloadExport();
    expect(name).toBe(`player-${studio.appId}-erase-me.json`);
    expect(Object.keys(document).sort()).toEqual(
      [
        "achievements",
        "app_id",
        "archive",
        "audit_log",
        "ban",
        "battle_passes",
        "challenges",
        "exported_at",
        "held_scores",
        "leaderboards",
        "league_seasons",
        "leagues",
        "points",
        "streaks",
        "recent_events",
        "user_id",
        "user_info",
        "webhook_deliveries",
      ].sort(),
    );
    expect(document).toMatchObject({
      app_id: studio.appId,
      user_id: "erase-me",
      user_info: { username: "Eraser", avatarImage: null },
      challenges: [],
      battle_passes: [],
      leaderboards: [{ leaderboard_id: boardId, name: "Top", score: 5, rank: 1 }],
      ban: null,
      held_scores: [],
      webhook_deliveries: { total: 0, items: [], more: null },
      archive: { user_ref: expect.stringMatching(/.+/) },
    });
    expect(document.recent_events.map((e: { event_name: string }) => e.event_name)).toEqual(["score"]);
    // The export itself is recorded, by the console user, counting what it held.
    const log = await admin(`/apps/${studio.appId}/audit-log?resource=player&resource_id=erase-me`);
    expect(log.items[0]).toMatchObject({
      action: "export",
      actor: { kind: "console-user", name: editor.email },
      origin: { channel: "console" },
    });
    expect(log.items[0].after.held).toMatchObject({
      leaderboard_seasons: 1,
      recent_events: 1,
      user_info: true,
      ban: false,
    });
  });

  it("erases a player only after their id is typed, shows the receipt until it completes, and then a new player", async () => {
    await signInAs(editor);
    await page.goto(url(app("/players/erase-me")));
    await page.getByLabel("Type the player's id, erase-me, to confirm").fill("erase-you");
    await page.getByRole("button", { name: "Erase player" }).click();
    await expect
      .poll(() => page.locator("#confirm-user-id-errors").textContent())
      .toBe("“erase-you” is not this player's id.");
    // Nothing changed: the score and the token still work.
    expect(await scoreOf("erase-me")).toBe(5);
    expect((await http("GET", "/api/v1/user-additional-info", { token: oldToken })).status).toBe(200);
    expect(await statusOf(page, app("/players/erase-me"))).toBe(200);

    await page.getByLabel("Type the player's id, erase-me, to confirm").fill("erase-me");
    await page.getByRole("button", { name: "Erase player" }).click();
    await expect
      .poll(async () => (await notice(page).textContent()) ?? "")
      .toMatch(/^Erasure \d+ of erase-me started: it completes within seconds\.$/);
    // The page refreshes itself until the receipt says done.
    const receipt = page.getByRole("table", { name: "Erasures of this user id" }).locator("tbody tr").first();
    await expect.poll(() => receipt.locator("td").nth(1).textContent(), { timeout: 30_000 }).toBe("completed ");
    await page.reload();
    expect(await page.locator("p.lead").textContent()).toBe("No username stored.");
    expect((await page.getByRole("row", { name: /Top/ }).locator("td").allTextContents()).slice(0, 3)).toEqual([
      "Top",
      "—",
      "0",
    ]);
    expect(await page.locator("section:has(h2:text('Recent events')) .empty").count()).toBe(1);
    await screenshot(page, "player-erased");

    expect((await http("GET", "/api/v1/user-additional-info", { token: oldToken })).status).toBe(401);
    const log = await admin(
      `/apps/${studio.appId}/audit-log?resource=player&actor=${encodeURIComponent(editor.email)}`,
    );
    expect(
      log.items.map((e: { action: string; resource_id: string }) => [e.action, e.resource_id.startsWith("erased:")]),
    ).toEqual([
      ["erase", true],
      ["export", true],
    ]);
  });

  it("lists the console's changes by their user on the audit page, with filters", async () => {
    await signInAs(editor);
    await page.goto(url(app("/leaderboards/new")));
    await page.locator("#f-name-0-text").fill("Weekly");
    await page.getByLabel("Event name").fill("score");
    await page.getByRole("button", { name: "Create leaderboard" }).click();
    await expect.poll(async () => (await notice(page).textContent()) ?? "").toMatch(/^Leaderboard \d+ created\.$/);

    await page.goto(url(app("/audit")));
    const rows = page.locator("#list tbody tr");
    const whoAndWhat = async () =>
      (await rows.all()).map(async (row) => [
        await row.locator("td").nth(1).textContent(),
        (await row.locator("td").nth(2).textContent())!.replace(/\s+/g, " ").trim(),
      ]);
    const shown = async () => Promise.all(await whoAndWhat());
    expect((await shown()).slice(0, 3)).toEqual([
      [`${editor.email} (console user)`, expect.stringMatching(/^leaderboard \d+ create$/)],
      [`${editor.email} (console user)`, expect.stringMatching(/^player erased:\S+ erase$/)],
      [`${editor.email} (console user)`, expect.stringMatching(/^player erased:\S+ export$/)],
    ]);
    await screenshot(page, "audit");

    // The admin token's changes (the board made in beforeAll) and the console user's, told apart.
    await page.getByLabel("Resource").selectOption("leaderboard");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/resource=leaderboard/);
    expect((await shown()).map(([who]) => who)).toEqual([`${editor.email} (console user)`, "Admin token"]);
    await page.getByLabel("Actor").fill("admin-token");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/actor=admin-token/);
    expect((await shown()).map(([, what]) => what)).toEqual([`leaderboard ${boardId} create`]);

    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await page.goto(url(app(`/audit?to=${yesterday}`)));
    expect(await page.locator("#list .empty").textContent()).toBe("No entry matches.");
    expect(await statusOf(page, app("/audit?from=last-week"))).toBe(400);
    expect(await page.locator(".form-errors li").textContent()).toBe(
      "From must be an ISO date (2026-11-24) or date-time (2026-11-24T09:00:00Z)",
    );

    // The console's own log: the app, created with the admin token.
    await page.goto(url(`/console/audit?resource=app&resource_id=${studio.appId}`));
    expect((await shown()).map(([, what]) => what)).toEqual([`app ${studio.appId} create`]);
  });

  it("lets a viewer read the audit log and export, but not erase: a forged erasure is refused and logged", async () => {
    const viewer = await operator("viewer");
    await signInAs(viewer);
    await page.goto(url(app("/players/keep-me")));
    expect(await page.getByRole("button", { name: "Erase player" }).count()).toBe(0);
    expect((await downloadExport()).document.leaderboards[0]).toMatchObject({ score: 3, rank: 1 });

    expect(await postFromPage(page, app("/players/keep-me/erase"), { confirm_user_id: "keep-me" })).toBe(403);
    expect(await scoreOf("keep-me")).toBe(3);

    await page.goto(url(app(`/audit?actor=${encodeURIComponent(viewer.email)}`)));
    const rows = page.locator("#list tbody tr");
    expect(await rows.count()).toBe(2);
    const what = async (i: number) =>
      (await rows.nth(i).locator("td").nth(2).textContent())!.replace(/\s+/g, " ").trim();
    expect([await what(0), await what(1)]).toEqual(["player keep-me erase refused", "player keep-me export"]);

    // The attempt is an entry about the player: erasing them renames it like the others, so no entry keeps their id.
    expect(
      (await http("DELETE", `/api/v1/admin/apps/${studio.appId}/users/keep-me`, { token: ADMIN_TOKEN })).status,
    ).toBe(202);
    const viewerEntries = () => admin(`/apps/${studio.appId}/audit-log?actor=${encodeURIComponent(viewer.email)}`);
    await eventually(
      async () =>
        (await viewerEntries()).items.every((e: { resource_id: string }) => e.resource_id.startsWith("erased:"))
          ? true
          : undefined,
      15_000,
    );
    expect(
      (await viewerEntries()).items.map((e: { action: string; outcome: string }) => [e.action, e.outcome]),
    ).toEqual([
      ["erase", "refused"],
      ["export", "done"],
    ]);
  });
});
