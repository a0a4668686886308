import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { ADMIN, call, captureSends, createTestApp } from "../helpers";
import { createCategory, createChallenge, player } from "./support";

/**
 * `category_position` is the index of the category in the categories array the user gets (spec,
 * ChallengeCategory: "Position index in the categories array"; challenge-changed: "index of the
 * category holding the challenge"). The stored admin value only sorts. Challenge payloads also
 * name their user and the session of the last counted event (SCILL's webhook receiver reads both).
 */

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let app: TestApp;
let forty: { category_id: string };
let fifty: { category_id: string };
let unpositioned: { category_id: string };
let daily: { category_id: string };
let inFifty: { challenge_id: string };
let users = 0;

beforeAll(async () => {
  app = await createTestApp("Positions");
  forty = await createCategory(app.appId, { category_slug: "forty", category_position: 40 });
  fifty = await createCategory(app.appId, { category_slug: "fifty", category_position: 50 });
  unpositioned = await createCategory(app.appId, { category_slug: "plain" });
  daily = await createCategory(app.appId, {
    category_slug: "daily",
    category_position: 45,
    is_daily_category: true,
    daily_challenge_count: 1,
  });
  inFifty = await createChallenge(app.appId, fifty.category_id, { challenge_goal: 5 });
  await createChallenge(app.appId, daily.category_id);
  const hook = await call("POST", `/api/v1/admin/apps/${app.appId}/webhooks`, {
    token: ADMIN,
    body: { webhook_type: "challenge-changed", url: "https://game.example.com/hooks", secret_key: "test-secret-1234" },
  });
  expect(hook.status).toBe(201);
});

async function newPlayer() {
  const userId = `p${++users}`;
  return { userId, ...player(app.appId, await app.tokenFor(userId)) };
}

const positions = (body: any[]) => body.map((c) => [c.category_slug, c.category_position]);
const ORDER = [
  ["plain", 0],
  ["forty", 1],
  ["daily", 2],
  ["fifty", 3],
];

describe("category_position", () => {
  it("is the index in the list, by stored position then id, in every list, language and for daily categories", async () => {
    const p = await newPlayer();
    expect(positions((await p.all()).body)).toEqual(ORDER);
    expect(positions((await p.all("?language=de")).body)).toEqual(ORDER);
    expect(positions((await p.unresolved()).body)).toEqual(ORDER);
    expect(positions((await p.inProgress()).body)).toEqual(ORDER);
  });

  it("stays the index in the whole list when a request names some categories, as payloads carry it", async () => {
    const p = await newPlayer();
    expect(positions((await p.get(`?include_categories=fifty,${forty.category_id}`)).body)).toEqual([
      ["forty", 1],
      ["fifty", 3],
    ]);
    expect(positions((await p.get(`?exclude_categories=plain,${unpositioned.category_id}`)).body)).toEqual([
      ["forty", 1],
      ["daily", 2],
      ["fifty", 3],
    ]);
  });

  it("in a challenge-changed payload is the index of the challenge's category, and the challenge names its user and session", async () => {
    const sent = captureSends(env.WEBHOOKS, (body: { body: string }) => JSON.parse(body.body));
    const p = await newPlayer();
    expect((await p.unlock(inFifty.challenge_id)).status).toBe(200);
    expect((await p.activate(inFifty.challenge_id)).status).toBe(200);
    const event = await call("POST", "/api/v1/events", {
      token: app.apiKey,
      body: { user_id: p.userId, event_name: "kill-enemy", session_id: "match-7", meta_data: { amount: 2 } },
    });
    expect(event.status).toBe(200);

    expect(sent.map((payload) => payload.category_position)).toEqual([3, 3, 3]);
    const sessions = sent.map((payload) => [payload.old_challenge.session_id, payload.new_challenge.session_id]);
    expect(sessions).toEqual([
      [null, null],
      [null, null],
      [null, "match-7"],
    ]);
    for (const payload of sent) {
      expect([payload.old_challenge.user_id, payload.new_challenge.user_id]).toEqual([p.userId, p.userId]);
    }
    const listed = (await p.all()).body.find((c: any) => c.category_id === fifty.category_id);
    expect(listed.category_position).toBe(3);
    // The list answer keeps the spec's Challenge fields only.
    expect(listed.challenges[0]).not.toHaveProperty("user_id");
    expect(listed.challenges[0]).not.toHaveProperty("session_id");
  });
});
