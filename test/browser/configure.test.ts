import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { acceptNextDialog, admin, notice, openBrowser, screenshot, signInAsOwner, url } from "./support";

/** A studio sets up its game in the console alone, then the admin API shows exactly that. */

let browser: Awaited<ReturnType<typeof openBrowser>>;
let page: Page;
beforeAll(async () => {
  browser = await openBrowser();
  page = browser.page;
  await signInAsOwner(page);
});
afterAll(() => browser.close());

const localInput = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const DAY = 86_400_000;

describe("configuring a game in the console", () => {
  let appId = "";

  it("creates an app", async () => {
    await page.getByLabel("Name", { exact: true }).fill("Nebula Racers");
    await page.getByRole("button", { name: "Create app" }).click();
    await page.waitForURL(/\/console\/apps\/\d+$/);
    appId = /\/apps\/(\d+)$/.exec(page.url())![1];
    await expect(notice(page).textContent()).resolves.toContain("App Nebula Racers created");
    expect(await admin(`/apps/${appId}`)).toMatchObject({ name: "Nebula Racers", default_language: "en" });
  });

  it("creates a category with two languages", async () => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Challenges" }).click();
    await page.waitForURL(url(`/console/apps/${appId}/challenges`));
    await expect(page.locator(".empty").first().textContent()).resolves.toContain("No categories yet");
    await page.getByRole("link", { name: "New category" }).click();
    await page.getByLabel("Slug").fill("weekly");
    await page.locator("#f-category_name-0-text").fill("Weekly");
    await page.getByRole("button", { name: "Add a language" }).click();
    await page.locator("#f-category_name-1-lang").fill("de");
    await page.locator("#f-category_name-1-text").fill("Wöchentlich");
    // Adding the row kept what was typed before it.
    expect(await page.getByLabel("Slug").inputValue()).toBe("weekly");
    await page.getByLabel("Position").fill("1");
    await page.getByRole("button", { name: "Create category" }).click();
    await page.waitForURL(url(`/console/apps/${appId}/challenges`));
    const categories = await admin(`/apps/${appId}/challenge-categories`);
    expect(categories.items).toMatchObject([
      {
        category_slug: "weekly",
        category_name: { en: "Weekly", de: "Wöchentlich" },
        category_position: 1,
        is_daily_category: false,
        daily_challenge_count: 3,
      },
    ]);
  });

  it("creates a challenge with a filter, the catalog's event and its value field", async () => {
    await page.getByRole("link", { name: "New challenge" }).click();
    await page.waitForURL(/\/challenges\/new/);
    await page.locator("#f-challenge_name-0-text").fill("Collect 3 coins");
    await page.getByLabel("Goal", { exact: true }).fill("3");
    await page.getByLabel("Duration (seconds)").fill("3600");
    await page.getByLabel("Event name").fill("collect-item");
    // The value field offers the fields of the event typed above.
    await expect
      .poll(() =>
        page
          .locator("#f-event_name-fields option")
          .evaluateAll((options) => options.map((o) => o.getAttribute("value"))),
      )
      .toEqual(["amount", "item_type"]);
    await page.getByLabel("Value field").fill("amount");
    await page.getByRole("button", { name: "Add a filter" }).click();
    await page.locator("#f-filters-0-field").fill("item_type");
    await page.locator("#f-filters-0-op").selectOption("eq");
    await page.locator("#f-filters-0-value").fill("coin");
    await page.getByLabel("Counter scope").selectOption("total");
    await page.getByLabel("Reward", { exact: true }).fill("100");
    await page.getByLabel("Reward type").fill("coin");
    await page.getByLabel("Key").fill("collect-coins");
    await page.getByRole("button", { name: "Create challenge" }).click();
    await page.waitForURL(/\/challenges\/\d+$/);
    const challengeId = /\/challenges\/(\d+)$/.exec(page.url())![1];
    const challenge = await admin(`/apps/${appId}/challenges/${challengeId}`);
    expect(challenge).toMatchObject({
      key: "collect-coins",
      challenge_name: { en: "Collect 3 coins" },
      challenge_goal: 3,
      challenge_goal_condition: 0,
      challenge_duration_time: 3600,
      event_name: "collect-item",
      value_field: "amount",
      filters: [{ field: "item_type", op: "eq", value: "coin" }],
      counter_scope: "total",
      challenge_reward: "100",
      challenge_reward_type: "coin",
      is_auto_activated: false,
      repeatable: false,
      period_range: "never",
    });
    await screenshot(page, "challenge");
  });

  it("shows the API's validation errors next to their fields and keeps what was typed", async () => {
    await page.goto(url(`/console/apps/${appId}/challenges/new`));
    await page.locator("#f-challenge_name-0-text").fill("Daily run");
    await page.getByLabel("Goal", { exact: true }).fill("-2");
    await page.getByLabel("Event name").fill("character-run");
    await page.getByLabel("Period").selectOption("d");
    await page.getByLabel("Time zone").fill("Mars/Olympus_Mons");
    await page.getByRole("button", { name: "Create challenge" }).click();
    await expect
      .poll(() => page.locator("#f-challenge_goal-errors").textContent())
      .toBe("challenge_goal must not be negative");
    expect(await page.locator("#f-period_range_time_zone-errors").textContent()).toBe(
      "period_range_time_zone must be an IANA time zone such as Europe/Berlin",
    );
    expect(await page.locator("#f-period_range-errors").textContent()).toContain(
      "periodic resets apply to automatic, repeatable challenges",
    );
    expect(await page.getByLabel("Goal", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#f-challenge_name-0-text").inputValue()).toBe("Daily run");
    expect(await page.getByLabel("Time zone").inputValue()).toBe("Mars/Olympus_Mons");
    await screenshot(page, "challenge-errors");
    expect((await admin(`/apps/${appId}/challenges`)).total).toBe(1);
  });

  it("creates a battle pass with two levels, a level reward webhook, and reorders the levels", async () => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Battle passes" }).click();
    await page.waitForURL(url(`/console/apps/${appId}/battle-passes`));
    await page.getByRole("link", { name: "New battle pass" }).click();
    await page.locator("#f-battle_pass_name-0-text").fill("Season 1");
    const now = Date.now();
    await page.getByLabel("Start (UTC)").fill(localInput(now - DAY));
    await page.getByLabel("End (UTC)").fill(localInput(now + 30 * DAY));
    await page.getByRole("button", { name: "Create battle pass" }).click();
    await page.waitForURL(/\/battle-passes\/\d+\/levels$/);
    const passId = /\/battle-passes\/(\d+)\/levels$/.exec(page.url())![1];

    for (const [reward, goal] of [
      ["100", "5"],
      ["250", "10"],
    ]) {
      await page.getByRole("link", { name: "New level" }).click();
      await page.waitForURL(/\/levels\/new$/);
      await page.getByLabel("Reward amount").fill(reward);
      await page.getByLabel("Reward type", { exact: true }).selectOption("coin");
      if (reward === "100") {
        await page.getByLabel("Level reward webhook").fill("http://127.0.0.1:9/level-reward");
        await page.locator("#f-key").fill("bronze");
        await page.locator("#f-challenges-0-key").fill("coins-5");
      }
      await page.locator("#f-challenges-0-challenge_name-0-text").fill(`Collect ${goal} coins`);
      await page.locator("#f-challenges-0-challenge_goal").fill(goal);
      await page.locator("#f-challenges-0-event_name").fill("collect-item");
      await page.getByRole("button", { name: "Create level" }).click();
      await page.waitForURL(/\/levels$/);
    }
    const levels = await admin(`/apps/${appId}/battle-passes/${passId}/levels`);
    expect(levels.items).toMatchObject([
      {
        key: "bronze",
        level_priority: 0,
        reward_amount: "100",
        level_reward_type: "coin",
        reward_type_name: "Coins",
        reward_webhook_url: "http://127.0.0.1:9/level-reward",
        challenges: [
          {
            key: "coins-5",
            challenge_name: { en: "Collect 5 coins" },
            challenge_goal: 5,
            event_name: "collect-item",
            challenge_goal_condition: 0,
            counter_scope: "session",
          },
        ],
      },
      {
        level_priority: 1,
        reward_amount: "250",
        reward_webhook_url: null,
        challenges: [{ challenge_name: { en: "Collect 10 coins" }, challenge_goal: 10 }],
      },
    ]);
    await screenshot(page, "levels");

    await page.getByRole("button", { name: "Move level 2 up" }).click();
    await expect.poll(async () => (await notice(page).textContent()) ?? "").toContain("is now level 1");
    const reordered = await admin(`/apps/${appId}/battle-passes/${passId}/levels`);
    expect(
      reordered.items.map((l: { reward_amount: string; level_priority: number }) => [
        l.reward_amount,
        l.level_priority,
      ]),
    ).toEqual([
      ["250", 0],
      ["100", 1],
    ]);
    const pass = await admin(`/apps/${appId}/battle-passes/${passId}`);
    expect(pass).toMatchObject({
      battle_pass_name: { en: "Season 1" },
      is_active: true,
      is_unlocked_incrementally: true,
      start_date: new Date(Date.parse(`${localInput(now - DAY)}:00Z`)).toISOString(),
    });
  });

  it("creates a leaderboard", async () => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Leaderboards" }).click();
    await page.waitForURL(url(`/console/apps/${appId}/leaderboards`));
    await page.getByRole("link", { name: "New leaderboard" }).click();
    await page.locator("#f-name-0-text").fill("Best lap");
    await page.getByLabel("Event name").fill("lap-position");
    await page.getByLabel("Value field").fill("required_time");
    await page.getByLabel("Aggregation").selectOption("min");
    await page.getByLabel("Lower scores rank first").check();
    await page.getByLabel("Key").fill("best-lap");
    await page.getByRole("button", { name: "Create leaderboard" }).click();
    await page.waitForURL(/\/leaderboards\/\d+$/);
    const boards = await admin(`/apps/${appId}/leaderboards`);
    expect(boards.items).toMatchObject([
      {
        key: "best-lap",
        name: { en: "Best lap" },
        event_name: "lap-position",
        value_field: "required_time",
        aggregation: "min",
        sort_order_ascending: true,
        period_range: "never",
        filters: [],
      },
    ]);
  });

  it("shows a key already used by another leaderboard next to the key field, keeping what was typed", async () => {
    await page.goto(url(`/console/apps/${appId}/leaderboards/new`));
    await page.locator("#f-name-0-text").fill("Best lap, again");
    await page.getByLabel("Event name").fill("lap-position");
    await page.getByLabel("Key").fill("best-lap");
    await page.getByRole("button", { name: "Create leaderboard" }).click();
    await expect
      .poll(() => page.locator("#f-key-errors").textContent())
      .toBe("Leaderboard key 'best-lap' is already used in this app");
    expect(await page.getByLabel("Key").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#f-name-0-text").inputValue()).toBe("Best lap, again");
    await screenshot(page, "leaderboard-key-clash");
    expect((await admin(`/apps/${appId}/leaderboards`)).total).toBe(1);
  });

  it("disables a form's button while it posts, and posts it once when pressed again before the answer", async () => {
    await page.goto(url(`/console/apps/${appId}/leaderboards/new`));
    await page.locator("#f-name-0-text").fill("Fastest lap");
    await page.getByLabel("Event name").fill("lap-position");
    await page.getByLabel("Value field").fill("required_time");
    // A slow connection: the first post is held until the test has pressed the button a second time.
    const action = url(`/console/apps/${appId}/leaderboards/new`);
    let posts = 0;
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(action, async (route) => {
      if (route.request().method() === "POST") {
        posts++;
        await held;
      }
      await route.continue();
    });
    const button = page.getByRole("button", { name: "Create leaderboard" });
    await button.click();
    await expect.poll(() => posts).toBe(1);
    expect(await button.isDisabled()).toBe(true);
    await screenshot(page, "leaderboard-posting");
    // Forced: a button disabled while its form is posting takes no click, which is the point.
    await button.click({ force: true });
    answer();
    await page.waitForURL(/\/leaderboards\/\d+$/);
    await page.unroute(action);
    expect(posts).toBe(1);
    const boards = await admin(`/apps/${appId}/leaderboards`);
    expect(boards.items.filter((board: { name: { en: string } }) => board.name.en === "Fastest lap")).toHaveLength(1);
  });

  it("adds a webhook endpoint", async () => {
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Webhooks" }).click();
    await page.waitForURL(url(`/console/apps/${appId}/webhooks`));
    await page.getByLabel("Type", { exact: true }).selectOption("battlepass-level-reward-claimed");
    await page.getByLabel("URL").fill("http://127.0.0.1:9/hooks");
    await page.getByLabel("Secret").fill("s3cret-value");
    await page.getByLabel("Key").fill("level-rewards");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await page.waitForURL(/\/webhooks\/\d+$/);
    const hooks = await admin(`/apps/${appId}/webhooks`);
    expect(hooks.items).toMatchObject([
      {
        key: "level-rewards",
        webhook_type: "battlepass-level-reward-claimed",
        url: "http://127.0.0.1:9/hooks",
        secret_key: "s3cret-value",
        enabled: true,
      },
    ]);
  });

  it("deletes a challenge after confirmation", async () => {
    const [challenge] = (await admin(`/apps/${appId}/challenges`)).items;
    await page.goto(url(`/console/apps/${appId}/challenges/${challenge.challenge_id}`));
    acceptNextDialog(page, /Delete challenge/);
    await page.getByRole("button", { name: "Delete" }).click();
    await page.waitForURL(url(`/console/apps/${appId}/challenges`));
    expect((await admin(`/apps/${appId}/challenges`)).total).toBe(0);
  });
});
