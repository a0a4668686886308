import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ADMIN, call, createTestApp, DAY, HOUR, iso, serviceNow } from "../helpers";
import { createCategory, createChallenge, player } from "../challenges/support";
import { createBoard } from "../leaderboards/support";
import { addWebhook, threeLevelPass } from "../battlepasses/support";
import { archivedLinesOf } from "./support";

/** The player's export: everything held about them, in one document, without a credential. */

const PLAYER = "exported-player";
let app: Awaited<ReturnType<typeof createTestApp>>;
let boardId: string;
let token: string;

const exportOf = (userId: string, headers: Record<string, string> = {}) =>
  call("GET", `/api/v1/admin/apps/${app.appId}/users/${userId}/export`, { token: ADMIN, headers });

beforeAll(async () => {
  app = await createTestApp("Export");
  const category = await createCategory(app.appId);
  await createChallenge(app.appId, category.category_id, { is_auto_activated: true, challenge_goal: 100 });
  boardId = (
    await createBoard(app.appId, { name: "Kills", event_name: "kill-enemy", value_field: "amount", aggregation: "sum" })
  ).leaderboard_id;
  const now = await serviceNow();
  const { pass } = await threeLevelPass(app.appId, { start_date: iso(now - HOUR), end_date: iso(now + 30 * DAY) });
  await addWebhook(app.appId, "challenge-changed");

  token = await app.tokenFor(PLAYER);
  await call("PUT", "/api/v1/user-additional-info", { token, body: { username: "Xena", avatarImage: "xena.png" } });
  await player(app.appId, token).all();
  await call("POST", `/v1/battle-pass/${app.appId}/unlock/${pass.battle_pass_id}`, {
    token,
    body: { purchase_price: 0, purchase_currency: "EUR" },
  });
  for (const amount of [3, 4]) {
    await call("POST", "/api/v1/events?auth=access_token", {
      token,
      body: { event_name: "kill-enemy", session_id: "match-1", meta_data: { amount } },
    });
  }
  await vi.waitFor(
    async () => {
      const scores = await env.DB.prepare("SELECT score FROM leaderboard_scores WHERE member_id = ?")
        .bind(PLAYER)
        .all<{ score: number }>();
      expect(scores.results).toEqual([{ score: 7 }]);
      const deliveries = await env.DB.prepare("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE user_id = ?")
        .bind(PLAYER)
        .first<{ n: number }>();
      expect(deliveries!.n).toBe(3);
      expect(await archivedLinesOf(app.appId)).toHaveLength(2);
    },
    { timeout: 20_000, interval: 200 },
  );
}, 60_000);

describe("the player's export", () => {
  it("holds what the admin user view shows, their user info, board entries and recent events", async () => {
    const r = await exportOf(PLAYER);
    expect(r.status).toBe(200);
    const view = (await call("GET", `/api/v1/admin/apps/${app.appId}/users/${PLAYER}`, { token: ADMIN })).body;
    expect(r.body.challenges).toEqual(view.challenges);
    expect(r.body.battle_passes).toEqual(view.battle_passes);
    expect(r.body.challenges).toHaveLength(1);
    expect(r.body.battle_passes).toHaveLength(1);
    expect(r.body).toMatchObject({
      app_id: app.appId,
      user_id: PLAYER,
      exported_at: expect.any(String),
      user_info: { username: "Xena", avatarImage: "xena.png", updated_at: expect.any(String) },
      leaderboards: [
        {
          leaderboard_id: boardId,
          name: "Kills",
          score: 7,
          rank: 1,
          seasons: [{ season_started_at: expect.any(String), score: 7, last_event_at: expect.any(String) }],
        },
      ],
    });
    expect(r.body.recent_events.map((e: any) => [e.event_name, e.meta_data, e.session_id])).toEqual([
      ["kill-enemy", { amount: 4 }, "match-1"],
      ["kill-enemy", { amount: 3 }, "match-1"],
    ]);
    expect(r.body.recent_events[0].received_at).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it("holds the webhook deliveries that name the player, without the credential their payloads carry", async () => {
    const { body } = await exportOf(PLAYER);
    expect(body.webhook_deliveries.total).toBe(3);
    expect(body.webhook_deliveries.more).toBeNull();
    for (const delivery of body.webhook_deliveries.items) {
      expect(delivery).toMatchObject({
        webhook_type: "challenge-changed",
        status: expect.stringMatching(/^(pending|failed)$/),
      });
      expect(delivery.payload.new_challenge.user_id).toBe(PLAYER);
      expect(delivery.payload).not.toHaveProperty("user_token");
    }
    // The stored payloads do carry it (SCILL's webhook body): the export leaves it out.
    const stored = await env.DB.prepare("SELECT payload FROM webhook_deliveries WHERE user_id = ? LIMIT 1")
      .bind(PLAYER)
      .first<{ payload: string }>();
    expect(JSON.parse(stored!.payload).user_token.length).toBeGreaterThan(64);
    const text = JSON.stringify(body);
    expect(text).not.toContain("user_token");
    expect(text).not.toContain(token);
    expect(text).not.toContain(app.apiKey);
    expect(text).not.toContain("test-secret-1234");
  });

  it("says how the archive names the player", async () => {
    const { body } = await exportOf(PLAYER);
    const lines = await archivedLinesOf(app.appId);
    expect(body.archive).toEqual({ user_ref: lines[0].user_ref, description: expect.stringContaining("user_ref") });
    expect(lines.map((l) => l.user_ref)).toEqual([body.archive.user_ref, body.archive.user_ref]);
  });

  it("is recorded in the audit log, with who exported and what was held, and lists the operators' actions on the player", async () => {
    await exportOf(PLAYER, { "X-Actor": "support desk" });
    const { body } = await exportOf(PLAYER);
    expect(body.audit_log.total).toBeGreaterThanOrEqual(4);
    expect(body.audit_log.items[0]).toMatchObject({
      resource: "player",
      resource_id: PLAYER,
      action: "export",
      actor: { kind: "admin-token", id: null, name: "support desk" },
      origin: { channel: "admin-api" },
      after: {
        held: {
          challenges: 1,
          battle_passes: 1,
          leaderboard_seasons: 1,
          ban: false,
          held_scores: 0,
          recent_events: 2,
          webhook_deliveries: 3,
          user_info: true,
        },
      },
    });
  });

  it("of a player the service never saw is empty, and an unknown app is a 404", async () => {
    const { status, body } = await exportOf("nobody-here");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      user_info: null,
      challenges: [],
      battle_passes: [],
      leaderboards: [{ leaderboard_id: boardId, score: 0, rank: -1, seasons: [] }],
      ban: null,
      held_scores: [],
      recent_events: [],
      webhook_deliveries: { total: 0, items: [], more: null },
      archive: { user_ref: null },
    });
    expect((await call("GET", "/api/v1/admin/apps/999999/users/x/export", { token: ADMIN })).status).toBe(404);
  });

  it("holds the player's ban and the scores a board held back for review", async () => {
    const other = await createTestApp("Export fair play");
    const capped = await createBoard(other.appId, {
      name: "Capped",
      event_name: "kill-enemy",
      value_field: "amount",
      aggregation: "sum",
      max_value: 5,
    });
    const cheater = await other.tokenFor("capped-player");
    const sent = await call("POST", "/api/v1/events?auth=access_token", {
      token: cheater,
      body: { event_name: "kill-enemy", session_id: "s", meta_data: { amount: 50 } },
    });
    expect(sent.status).toBe(200);
    await vi.waitFor(
      async () => {
        const flags = await env.DB.prepare("SELECT COUNT(*) AS n FROM leaderboard_flags WHERE member_id = ?")
          .bind("capped-player")
          .first<{ n: number }>();
        expect(flags!.n).toBe(1);
      },
      { timeout: 20_000, interval: 200 },
    );
    const banned = await call("POST", `/api/v1/admin/apps/${other.appId}/users/capped-player/ban`, {
      token: ADMIN,
      body: { reason: "cheating" },
    });
    expect(banned.status).toBe(200);
    const { body } = await call("GET", `/api/v1/admin/apps/${other.appId}/users/capped-player/export`, {
      token: ADMIN,
    });
    expect(body.ban).toEqual({
      app_id: other.appId,
      user_id: "capped-player",
      reason: "cheating",
      expires_at: null,
      banned_at: expect.any(String),
    });
    expect(body.held_scores).toEqual([
      {
        leaderboard_id: capped.leaderboard_id,
        flag_id: expect.any(String),
        member_type: "user",
        member_id: "capped-player",
        value: 50,
        reason: "above_max_value",
        event_name: "kill-enemy",
        flagged_at: expect.any(String),
      },
    ]);
    expect(body.audit_log.items.map((e: any) => e.action)).toEqual(["ban"]);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await call("GET", "/openapi.json")).body;
    const operation = doc.paths["/api/v1/admin/apps/{appId}/users/{userId}/export"].get;
    expect(operation.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/PlayerExport",
    });
    expect(Object.keys(doc.components.schemas.PlayerExport.properties)).toEqual([
      "app_id",
      "user_id",
      "exported_at",
      "user_info",
      "challenges",
      "battle_passes",
      "points",
      "streaks",
      "achievements",
      "leagues",
      "leaderboards",
      "league_seasons",
      "ban",
      "held_scores",
      "recent_events",
      "webhook_deliveries",
      "audit_log",
      "archive",
    ]);
  });
});
