import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mqtt, { type MqttClient } from "mqtt";
import type { Page } from "playwright-core";
import {
  ADMIN_TOKEN,
  admin,
  baseUrl,
  operator,
  freshBrowserForEachTest,
  http,
  notice,
  screenshot,
  signIn,
  url,
} from "./support";
import { eventually, newStudioApp } from "../e2e/support";
import { receiver } from "../support/webhook-receiver";

/**
 * Players in the console: the list of every player, and a challenge stuck at 9/10 completed from a player's page with a
 * reason.
 */

let studio: Awaited<ReturnType<typeof newStudioApp>>;
let editor: Awaited<ReturnType<typeof operator>>;
let challengeId: string;
let boardId: string;
const hooks = receiver(() => 200);
const clients: MqttClient[] = [];

const send = async (userId: string, eventName: string, amount: number) =>
  expect(
    (
      await http("POST", "/api/v1/events", {
        token: studio.apiKey,
        body: { user_id: userId, event_name: eventName, meta_data: { amount } },
      })
    ).status,
  ).toBe(200);

beforeAll(async () => {
  studio = await newStudioApp("Players console");
  editor = await operator("editor");
  const port = await hooks.listen();
  const endpoint = await http("POST", `/api/v1/admin/apps/${studio.appId}/webhooks`, {
    token: ADMIN_TOKEN,
    body: {
      webhook_type: "challenge-changed",
      url: `http://127.0.0.1:${port}/hooks`,
      secret_key: "players-secret-1234",
    },
  });
  expect(endpoint.status).toBe(201);
  const category = await http("POST", `/api/v1/admin/apps/${studio.appId}/challenge-categories`, {
    token: ADMIN_TOKEN,
    body: { category_slug: "daily-fights", category_name: { en: "Fights" } },
  });
  const challenge = await http("POST", `/api/v1/admin/apps/${studio.appId}/challenges`, {
    token: ADMIN_TOKEN,
    body: {
      category_id: category.body.category_id,
      challenge_name: { en: "Defeat 10 enemies" },
      challenge_goal: 10,
      event_name: "kill-enemy",
    },
  });
  expect(challenge.status).toBe(201);
  challengeId = challenge.body.challenge_id;
  const board = await http("POST", `/api/v1/admin/apps/${studio.appId}/leaderboards`, {
    token: ADMIN_TOKEN,
    body: { name: "Kills", event_name: "kill-enemy" },
  });
  expect(board.status).toBe(201);
  boardId = board.body.leaderboard_id;
  for (const [i, name] of ["ava", "ben", "cleo", "dan", "eli"].entries())
    await send(`player-${name}`, "kill-enemy", i + 1);
  await eventually(
    async () => ((await admin(`/apps/${studio.appId}/users`)).total === 5 ? true : undefined),
    20_000,
    "five players listed",
  );
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  await hooks.close();
});

let page: Page;
freshBrowserForEachTest((p) => (page = p));

describe("players in the console", () => {
  it("lists every player newest activity first, and finds them by an id prefix", async () => {
    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/players`));
    const ids = () => page.locator("#list tbody tr td:first-child").allTextContents();
    expect(await ids()).toEqual(["player-eli", "player-dan", "player-cleo", "player-ben", "player-ava"]);
    await screenshot(page, "players-list");
    await page.goto(url(`/console/apps/${studio.appId}/players?search=player-c`));
    expect(await ids()).toEqual(["player-cleo"]);
  });

  it("completes a challenge stuck at 9/10 with a reason: unclaimed for the player, one webhook, one MQTT message, audited", async () => {
    const token = await studio.tokenFor("stuck");
    const personal = (action: string) =>
      http("GET", `/api/v1/challenges/personal/${action}/${studio.appId}/${challengeId}`, { token });
    expect((await personal("unlock")).status).toBe(200);
    expect((await personal("activate")).status).toBe(200);
    await send("stuck", "kill-enemy", 9);
    expect((await personal("get")).body).toMatchObject({ type: "in-progress", user_challenge_current_score: 9 });

    const topic = (await http("GET", `/api/v1/auth/user-challenges-topic-link`, { token })).body.topic as string;
    const client = await mqtt.connectAsync(`${baseUrl().replace(/^http/, "ws")}/mqtt`, {
      protocolVersion: 4,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
    });
    clients.push(client);
    const messages: any[] = [];
    client.on("message", (_t, payload) => messages.push(JSON.parse(payload.toString("utf8"))));
    await client.subscribeAsync(topic, { qos: 0 });
    // The player's own changes (unlocked, in progress, 9/10) are delivered before the correction.
    await eventually(async () => (hooks.calls.length === 3 ? true : undefined), 20_000, "the player's three webhooks");
    const before = hooks.calls.length;

    await signIn(page, editor.email, editor.password);
    await page.waitForURL(url("/console"));
    await page.goto(url(`/console/apps/${studio.appId}/players/stuck`));
    const row = page.locator("tr", { hasText: "Defeat 10 enemies" });
    await row.locator("summary", { hasText: "Correct" }).click();
    await row.getByLabel("Change").selectOption("unclaimed");
    await row.getByLabel("Why (kept in the audit log)").fill("a bug left it at 9/10");
    await row.getByRole("button", { name: "Correct" }).click();
    await expect
      .poll(async () => (await notice(page).textContent()) ?? "")
      .toBe(`Challenge ${challengeId} of stuck corrected.`);
    expect(await page.locator("tr", { hasText: "Defeat 10 enemies" }).locator("td").nth(2).textContent()).toBe(
      "unclaimed",
    );
    await screenshot(page, "player-corrected");

    expect((await personal("get")).body).toMatchObject({ type: "unclaimed", user_challenge_current_score: 10 });
    const hook = await eventually(
      async () => (hooks.calls.length > before ? hooks.calls.slice(before) : undefined),
      20_000,
      "the webhook",
    );
    const mqttMessage = await eventually(
      async () => (messages.length > 0 ? messages : undefined),
      10_000,
      "the MQTT message",
    );
    expect(hooks.calls.slice(before)).toHaveLength(1);
    expect(JSON.parse(hook[0].body)).toMatchObject({
      webhook_type: "challenge-changed",
      new_challenge: { type: "unclaimed", user_challenge_current_score: 10 },
    });
    expect(messages).toHaveLength(1);
    expect(mqttMessage[0]).toMatchObject({ new_challenge: { type: "unclaimed", user_challenge_current_score: 10 } });
    const audit = await admin(`/apps/${studio.appId}/audit-log?resource=player&resource_id=stuck`);
    expect(audit.items[0]).toMatchObject({
      action: "correct-challenge",
      before: { challenge_id: challengeId, state: "in-progress", counter: 9 },
      after: { challenge_id: challengeId, state: "unclaimed", counter: 10, reason: "a bug left it at 9/10" },
    });

    // A score set by correction is on the board.
    await page.locator("tr", { hasText: "Kills" }).locator("summary", { hasText: "Set score" }).click();
    const scoreRow = page.locator("tr", { hasText: "Kills" });
    await scoreRow.getByLabel("Score").fill("500");
    await scoreRow.getByLabel("Why (kept in the audit log)").fill("score lost in an outage");
    await scoreRow.getByRole("button", { name: "Set score" }).click();
    await expect
      .poll(async () => (await notice(page).last().textContent()) ?? "")
      .toBe(`The score of stuck on leaderboard ${boardId} is set.`);
    const member = (await http("GET", `/api/v1/leaderboards-members/user/stuck/${boardId}`, { token: studio.apiKey }))
      .body.member;
    expect(member).toMatchObject({ score: 500, rank: 1 });
    expect(await page.locator("tr", { hasText: "Kills" }).locator("td").nth(2).textContent()).toBe("500");
  }, 90_000);
});
