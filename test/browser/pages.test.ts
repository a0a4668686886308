import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { receiver } from "../support/webhook-receiver";
import { eventually, newStudioApp } from "../e2e/support";
import { ADMIN_TOKEN, http, openBrowser, screenshot, signInAsOwner, url } from "./support";

/**
 * Every console page with realistic content, at 1280 and 390 px: it answers 200, nothing scrolls
 * sideways at phone width, and its screenshots are saved (test/browser/screenshots).
 */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
const rx = receiver(() => 200);
const ids: Record<string, string> = {};

async function create(path: string, body: unknown) {
  const r = await http("POST", `/api/v1/admin${path}`, { token: ADMIN_TOKEN, body });
  expect(r.status, `${path}: ${JSON.stringify(r.body)}`).toBe(201);
  return r.body;
}

const PLAYERS = ["ann", "bob", "cleo", "dmitri", "eve", "farah", "gus", "hana", "ivo", "jun", "kai", "lea"];

beforeAll(async () => {
  studio = await newStudioApp("Nebula Racers");
  const app = `/apps/${studio.appId}`;
  const port = await rx.listen();
  await create(`${app}/webhooks`, { webhook_type: "challenge-changed", url: `http://127.0.0.1:${port}/hooks` });
  const weekly = await create(`${app}/challenge-categories`, {
    category_slug: "weekly",
    category_name: { en: "Weekly", de: "Wöchentlich" },
    category_position: 1,
  });
  const daily = await create(`${app}/challenge-categories`, {
    category_slug: "daily",
    category_name: "Daily",
    category_position: 0,
    is_daily_category: true,
    daily_challenge_count: 2,
  });
  ids.category = weekly.category_id;
  const collect = await create(`${app}/challenges`, {
    category_id: weekly.category_id,
    challenge_name: { en: "Collect 20 coins", de: "Sammle 20 Münzen" },
    challenge_goal: 20,
    event_name: "collect-item",
    is_auto_activated: true,
    filters: [{ field: "item_type", op: "eq", value: "coin" }],
    challenge_reward: "100",
    challenge_reward_type: "coin",
  });
  ids.challenge = collect.challenge_id;
  await create(`${app}/challenges`, {
    category_id: weekly.category_id,
    challenge_name: "Win 3 races",
    challenge_goal: 3,
    event_name: "race-position",
    filters: [{ field: "lap_position", op: "eq", value: 1 }],
    challenge_duration_time: 86400,
  });
  await create(`${app}/challenges`, {
    category_id: daily.category_id,
    challenge_name: "Run 5 km",
    challenge_goal: 5000,
    event_name: "character-run",
    value_field: "distance",
    is_auto_activated: true,
    repeatable: true,
    period_range: "d",
    period_range_time_zone: "Europe/Berlin",
  });
  const now = Date.now();
  const pass = await create(`${app}/battle-passes`, {
    battle_pass_name: "Season 1",
    start_date: new Date(now - 86_400_000).toISOString(),
    end_date: new Date(now + 60 * 86_400_000).toISOString(),
  });
  ids.pass = pass.battle_pass_id;
  for (const [goal, reward] of [
    [5, "100"],
    [15, "250"],
    [40, "1000"],
  ] as const) {
    const level = await create(`${app}/battle-passes/${pass.battle_pass_id}/levels`, {
      reward_amount: reward,
      level_reward_type: "coin",
      challenges: [{ challenge_name: `Collect ${goal} coins`, challenge_goal: goal, event_name: "collect-item" }],
    });
    ids.level = level.level_id;
  }
  const board = await create(`${app}/leaderboards`, {
    name: "Coin hoarders",
    event_name: "collect-item",
    aggregation: "sum",
  });
  ids.board = board.leaderboard_id;
  await create(`${app}/leaderboards`, {
    name: "Fastest lap",
    event_name: "finish-laps",
    value_field: "required_time",
    aggregation: "min",
    sort_order_ascending: true,
    period_range: "w",
  });

  for (const [i, player] of PLAYERS.entries()) {
    const token = await studio.tokenFor(player);
    await http("PUT", "/api/v1/user-additional-info", {
      token,
      body: { username: player[0].toUpperCase() + player.slice(1), avatarImage: `${player}.png` },
    });
    const events = Array.from({ length: 1 + (i % 4) }, (_, n) => ({
      user_id: player,
      event_name: "collect-item",
      team_id: i % 2 ? "red" : "blue",
      meta_data: { amount: 3 + ((i * 7 + n) % 9), item_type: "coin" },
    }));
    const sent = await http("POST", "/api/v1/events/batch", { token: studio.apiKey, body: { events } });
    expect(sent.status).toBe(200);
  }
  await eventually(
    async () => {
      const r = await http("GET", `/api/v1/leaderboards/${ids.board}`, { token: studio.apiKey });
      return r.body.grouped_by_users?.length === PLAYERS.length ? true : undefined;
    },
    20_000,
    "the leaderboard",
  );
  const deliveries = await eventually(
    async () => {
      const r = await http("GET", `/api/v1/admin${app}/webhook-deliveries`, { token: ADMIN_TOKEN });
      return r.body.total > 0 ? r.body.items : undefined;
    },
    20_000,
    "a webhook delivery",
  );
  ids.delivery = deliveries[0].delivery_id;
  ids.webhook = deliveries[0].webhook_id;
  const ban = await http("POST", `/api/v1/admin${app}/users/zed/ban`, {
    token: ADMIN_TOKEN,
    body: { reason: "chargeback fraud", expires_at: new Date(now + 7 * 86_400_000).toISOString() },
  });
  expect(ban.status).toBe(200);
  const user = await create("/console-users", {
    email: "nina@studio.test",
    display_name: "Nina Live-Ops",
    role: "editor",
    password: "a long enough password",
  });
  ids.user = user.console_user_id;

  browser = await openBrowser();
  page = browser.page;
  await signInAsOwner(page);
});
afterAll(async () => {
  await browser.close();
  await rx.close();
});

const pages = (): [string, string][] => {
  const app = `/console/apps/${studio.appId}`;
  return [
    ["apps", "/console"],
    ["dashboard", app],
    ["challenges", `${app}/challenges`],
    ["category", `${app}/challenges/categories/${ids.category}`],
    ["challenge-edit", `${app}/challenges/${ids.challenge}`],
    ["challenge-new", `${app}/challenges/new`],
    ["category-new", `${app}/challenges/categories/new`],
    ["battle-passes", `${app}/battle-passes`],
    ["battle-pass", `${app}/battle-passes/${ids.pass}`],
    ["battle-pass-levels", `${app}/battle-passes/${ids.pass}/levels`],
    ["level", `${app}/battle-passes/${ids.pass}/levels/${ids.level}`],
    ["battle-pass-new", `${app}/battle-passes/new`],
    ["level-new", `${app}/battle-passes/${ids.pass}/levels/new`],
    ["leaderboards", `${app}/leaderboards`],
    ["leaderboard", `${app}/leaderboards/${ids.board}`],
    ["leaderboard-new", `${app}/leaderboards/new`],
    ["leaderboard-teams", `${app}/leaderboards/${ids.board}?type=team`],
    ["leaderboard-around", `${app}/leaderboards/${ids.board}?member=gus`],
    ["webhooks", `${app}/webhooks`],
    ["webhook", `${app}/webhooks/${ids.webhook}`],
    ["webhook-deliveries", `${app}/webhooks/deliveries`],
    ["webhook-delivery", `${app}/webhooks/deliveries/${ids.delivery}`],
    ["catalog", `${app}/catalog`],
    ["players", `${app}/players?search=a`],
    ["player", `${app}/players/gus`],
    ["events", `${app}/events?user_id=gus&event_name=collect-item`],
    ["app-bans", `${app}/bans`],
    ["app-audit", `${app}/audit`],
    ["keys", `${app}/keys`],
    ["settings", `${app}/settings`],
    ["users", "/console/users"],
    ["user", `/console/users/${ids.user}`],
    ["console-audit", "/console/audit"],
    ["status", "/console/status"],
  ];
};

describe("every console page", () => {
  it("answers 200, fits 390 px without sideways scrolling, and is saved as a screenshot", async () => {
    for (const [name, path] of pages()) {
      const response = await page.goto(url(path));
      expect(response?.status(), path).toBe(200);
      expect(await page.locator("h1").count(), path).toBe(1);
      await screenshot(page, name);
    }
  });

  it("answers an unknown page with a 404 page inside the console", async () => {
    const response = await page.goto(url(`/console/apps/${studio.appId}/challenges/999999`));
    expect(response?.status()).toBe(404);
    expect(await page.locator(".error-page .notice-error").textContent()).toBe("Challenge 999999 not found");
    await screenshot(page, "not-found");
  });

  it("shows the menu at phone width behind its button", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url(`/console/apps/${studio.appId}`));
    expect(await page.locator("#sidebar").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Menu" }).click();
    expect(await page.locator("#sidebar").isVisible()).toBe(true);
    await page.screenshot({ path: `${(await import("./support")).SCREENSHOTS}/menu-390.png` });
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Leaderboards" }).click();
    await page.waitForURL(url(`/console/apps/${studio.appId}/leaderboards`));
    expect(await page.locator("#sidebar").isVisible()).toBe(false);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});
