import { describe, expect, it } from "vitest";
import { ADMIN, call, createTestApp } from "../helpers";
import { ConsoleClient } from "./support";

describe("console challenges", () => {
  it("creates a category and a challenge through the forms, read back through the admin API", async () => {
    const { appId } = await createTestApp("Forms");
    const browser = new ConsoleClient();
    await browser.signInAs("editor");
    const base = `/console/apps/${appId}/challenges`;

    const category = await browser.post(`${base}/categories/new`, {
      category_slug: "weekly",
      "category_name.0.lang": "en",
      "category_name.0.text": "Weekly",
      "category_name.1.lang": "de",
      "category_name.1.text": "Wöchentlich",
      category_position: "2",
      daily_challenge_count: "3",
    });
    expect(category.status).toBe(303);
    const categories = await call("GET", `/api/v1/admin/apps/${appId}/challenge-categories`, { token: ADMIN });
    expect(categories.body.items).toMatchObject([
      {
        category_slug: "weekly",
        category_name: { en: "Weekly", de: "Wöchentlich" },
        category_position: 2,
        is_daily_category: false,
      },
    ]);
    const categoryId = categories.body.items[0].category_id;

    await browser.get(`${base}/new`);
    const created = await browser.post(`${base}/new`, {
      category_id: categoryId,
      "challenge_name.0.lang": "en",
      "challenge_name.0.text": "Kill 10 enemies",
      challenge_goal: "10",
      challenge_goal_condition: "0",
      challenge_duration_time: "3600",
      live_date: "2026-01-01T10:30",
      event_name: "kill-enemy",
      value_field: "",
      "filters.0.field": "weapon_used",
      "filters.0.op": "eq",
      "filters.0.value": "laser",
      "filters.1.field": "",
      "filters.1.op": "eq",
      "filters.1.value": "",
      counter_scope: "total",
      period_range: "never",
      period_range_reset_at_time: "00:00",
      period_range_time_zone: "UTC",
      challenge_reward: "100",
      challenge_reward_type: "coin",
      challenge_xp: "5",
    });
    expect(created.status).toBe(303);
    const challengeId = /\/challenges\/(\d+)$/.exec(created.location!)![1];
    const challenge = await call("GET", `/api/v1/admin/apps/${appId}/challenges/${challengeId}`, { token: ADMIN });
    expect(challenge.body).toMatchObject({
      category_id: categoryId,
      challenge_name: { en: "Kill 10 enemies" },
      challenge_description: null,
      challenge_goal: 10,
      challenge_duration_time: 3600,
      live_date: "2026-01-01T10:30:00.000Z",
      event_name: "kill-enemy",
      value_field: null,
      filters: [{ field: "weapon_used", op: "eq", value: "laser" }],
      counter_scope: "total",
      challenge_reward: "100",
      challenge_xp: 5,
      is_auto_activated: false,
    });

    const page = await browser.get(`${base}/${challengeId}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('value="Kill 10 enemies"');
    expect(page.html).toContain('value="2026-01-01T10:30"');
  });

  it("shows the API's validation errors next to their fields and keeps what was typed", async () => {
    const { appId } = await createTestApp("Errors");
    const category = await call("POST", `/api/v1/admin/apps/${appId}/challenge-categories`, {
      token: ADMIN,
      body: { category_slug: "main", category_name: "Main" },
    });
    const browser = new ConsoleClient();
    await browser.signInAsOwner();
    const result = await browser.post(`/console/apps/${appId}/challenges/new`, {
      category_id: category.body.category_id,
      "challenge_name.0.lang": "en",
      "challenge_name.0.text": "Run far",
      challenge_goal: "-5",
      challenge_duration_time: "0",
      event_name: "character-run",
      period_range: "d",
      period_range_time_zone: "Mars/Olympus",
    });
    expect(result.status).toBe(400);
    const errorsOf = (id: string) =>
      new RegExp(`id="${id}-errors"[^>]*>(.*?)</ul>`, "s")
        .exec(result.html)?.[1]
        .replace(/<[^>]+>/g, " ")
        .trim();
    expect(errorsOf("f-challenge_goal")).toBe("challenge_goal must not be negative");
    expect(errorsOf("f-challenge_duration_time")).toBe(
      "challenge_duration_time must be -1 (no time-out) or a positive number of seconds",
    );
    expect(errorsOf("f-period_range_time_zone")).toBe(
      "period_range_time_zone must be an IANA time zone such as Europe/Berlin",
    );
    expect(errorsOf("f-period_range")).toContain("periodic resets apply to automatic, repeatable challenges");
    expect(result.html).toContain('value="Run far"');
    expect(result.html).toContain('value="Mars/Olympus"');
    expect(result.html).toMatch(/id="f-challenge_goal"[^>]*aria-invalid="true"/);
    const list = await call("GET", `/api/v1/admin/apps/${appId}/challenges`, { token: ADMIN });
    expect(list.body.total).toBe(0);
  });

  it("adds and removes filter rows without saving", async () => {
    const { appId } = await createTestApp("Rows");
    const browser = new ConsoleClient();
    await browser.signInAsOwner();
    const added = await browser.post(`/console/apps/${appId}/challenges/new`, {
      "filters.0.field": "realm",
      "filters.0.op": "ne",
      "filters.0.value": "moon",
      _add: "filters",
    });
    expect(added.status).toBe(200);
    expect(added.html).toContain('name="filters.1.field"');
    expect(added.html).toContain('value="moon"');
    const removed = await browser.post(`/console/apps/${appId}/challenges/new`, {
      "filters.0.field": "realm",
      "filters.1.field": "map_name",
      _remove: "filters.0",
    });
    expect(removed.html).not.toContain('name="filters.1.field"');
    expect(removed.html).toContain('value="map_name"');
    const list = await call("GET", `/api/v1/admin/apps/${appId}/challenges`, { token: ADMIN });
    expect(list.body.total).toBe(0);
  });
});

describe("keys in the console's forms", () => {
  it("takes a key, keeps the stored one when the field is emptied, and shows a clash (409) next to the field with what was typed", async () => {
    const { appId } = await createTestApp("Form keys");
    const browser = new ConsoleClient();
    await browser.signInAs("editor");
    const boards = `/console/apps/${appId}/leaderboards`;
    const board = (key: string, name: string) => ({
      key,
      "name.0.lang": "en",
      "name.0.text": name,
      event_name: "achieve-score",
      aggregation: "max",
    });
    await browser.get(`${boards}/new`);
    expect((await browser.post(`${boards}/new`, board("high-scores", "High scores"))).status).toBe(303);
    const [created] = (await call("GET", `/api/v1/admin/apps/${appId}/leaderboards`, { token: ADMIN })).body.items;
    expect(created.key).toBe("high-scores");

    const edit = await browser.get(`${boards}/${created.leaderboard_id}`);
    expect(edit.html).toMatch(/<input id="f-key" name="key" type="text" value="high-scores"/);
    expect((await browser.post(`${boards}/${created.leaderboard_id}`, board("", "Best scores"))).status).toBe(303);
    expect(
      (await call("GET", `/api/v1/admin/apps/${appId}/leaderboards/${created.leaderboard_id}`, { token: ADMIN })).body,
    ).toMatchObject({ key: "high-scores", name: { en: "Best scores" } });

    const clash = await browser.post(`${boards}/new`, board("high-scores", "Another board"));
    expect(clash.status).toBe(409);
    expect(clash.html).toMatch(
      /<ul class="field-errors" id="f-key-errors"><li>Leaderboard key &#39;high-scores&#39; is already used in this app<\/li><\/ul>/,
    );
    expect(clash.html).toContain('value="Another board"');
    expect(clash.html).not.toContain('class="form-errors"');
  });
});
