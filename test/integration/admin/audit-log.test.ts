import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { pruneAuditLog } from "../../../src/apps/admin/audit-repo";
import { ADMIN, call } from "../helpers";
import { applied, demoCatalog } from "../catalog/support";

/**
 * The audit log: every configuration write and operator action, with who (the admin token and its
 * X-Actor name, an API key), what (resource, action, before and after), when and from where; never
 * a secret.
 */

const WEBHOOK_SECRET = "whsec-audit-first-0123456789";
const NEW_WEBHOOK_SECRET = "whsec-audit-second-0123456789";
const PASSWORD = "audit password 0123";

/** An admin API call made by "deploy-bot". */
const as = (actor: string) => (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body, headers: { "X-Actor": actor } });
const bot = as("deploy-bot");

async function logOf(appId: string | null, query = "") {
  const r = await call("GET", `/api/v1/admin${appId === null ? "" : `/apps/${appId}`}/audit-log?pageSize=100${query}`, {
    token: ADMIN,
  });
  expect(r.status).toBe(200);
  return r.body as { items: any[]; total: number; currentPage: number; pageSize: number };
}

const summary = (entries: any[]) => entries.map((e) => `${e.resource} ${e.action}`);

let appId: string;
let apiKey: string;
let keyId: string;

beforeAll(async () => {
  const app = await bot("POST", "/apps", { name: "Audited", default_language: "en" });
  appId = app.body.app_id;
  const key = await bot("POST", `/apps/${appId}/api-keys`, { name: "game server" });
  [apiKey, keyId] = [key.body.key, key.body.key_id];
});

describe("the audit log", () => {
  it("records creating an app in the log of what is not one app's: who, from where, what", async () => {
    const created = await bot("POST", "/apps", { name: "Short-lived", default_language: "de" });
    const { items } = await logOf(null, `&resource=app&resource_id=${created.body.app_id}`);
    expect(items).toEqual([
      {
        entry_id: expect.stringMatching(/^\d+$/),
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        app_id: null,
        actor: { kind: "admin-token", id: null, name: "deploy-bot" },
        origin: { channel: "admin-api", ip: null, request_id: created.headers.get("X-Request-Id") },
        resource: "app",
        resource_id: created.body.app_id,
        action: "create",
        outcome: "done",
        before: null,
        after: { name: "Short-lived", default_language: "de", backend_only_events: [], rate_limits: {} },
      },
    ]);
  });

  it("keeps what a deletion deleted, and an app's entries after the app is gone", async () => {
    const created = await bot("POST", "/apps", { name: "Doomed", default_language: "en" });
    const doomed = created.body.app_id;
    await bot("PUT", `/apps/${doomed}`, { name: "Doomed, renamed", default_language: "en" });
    await bot("POST", `/apps/${doomed}/challenge-categories`, { category_slug: "weekly", category_name: "Weekly" });
    expect((await bot("DELETE", `/apps/${doomed}`)).status).toBe(204);
    const global = (await logOf(null, `&resource=app&resource_id=${doomed}`)).items;
    expect(global.map((e) => [e.action, e.before?.name ?? null, e.after?.name ?? null])).toEqual([
      ["delete", "Doomed, renamed", null],
      ["update", "Doomed", "Doomed, renamed"],
      ["create", null, "Doomed"],
    ]);
    expect(global[0].before).toEqual({
      app_id: doomed,
      name: "Doomed, renamed",
      default_language: "en",
      backend_only_events: [],
      // The limits in force: the defaults (src/apps/settings.ts), since the app set none.
      rate_limits: { per_user_per_minute: 3_000, per_app_per_minute: 6_000_000 },
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(summary((await logOf(doomed)).items)).toEqual(["challenge-category create"]);
  });

  it("records every kind of configuration change of an app, with the object before and after", async () => {
    const category = (
      await bot("POST", `/apps/${appId}/challenge-categories`, { category_slug: "daily", category_name: "Daily" })
    ).body;
    const challengeBody = {
      category_id: category.category_id,
      challenge_name: "Kill 3",
      challenge_goal: 3,
      event_name: "kill-enemy",
    };
    const challenge = (await bot("POST", `/apps/${appId}/challenges`, challengeBody)).body;
    await bot("PUT", `/apps/${appId}/challenges/${challenge.challenge_id}`, { ...challengeBody, challenge_goal: 5 });
    await bot("DELETE", `/apps/${appId}/challenges/${challenge.challenge_id}`);
    await bot("PUT", `/apps/${appId}/challenge-categories/${category.category_id}`, {
      category_slug: "daily",
      category_name: "Every day",
    });
    await bot("DELETE", `/apps/${appId}/challenge-categories/${category.category_id}`);
    const board = (await bot("POST", `/apps/${appId}/leaderboards`, { name: "Kills", event_name: "kill-enemy" })).body;
    await bot("PUT", `/apps/${appId}/leaderboards/${board.leaderboard_id}`, {
      name: "All kills",
      event_name: "kill-enemy",
    });
    // SCILL's board reset, by the game's backend with the API key.
    expect(
      (await call("DELETE", `/api/v2/leaderboards-reset/${appId}/${board.leaderboard_id}`, { token: apiKey })).status,
    ).toBe(200);
    await bot("DELETE", `/apps/${appId}/leaderboards/${board.leaderboard_id}`);
    const pass = (
      await bot("POST", `/apps/${appId}/battle-passes`, {
        battle_pass_name: "S1",
        start_date: "2026-01-01T00:00:00Z",
        end_date: "2027-01-01T00:00:00Z",
      })
    ).body;
    const levelBody = (reward: string) => ({
      reward_amount: reward,
      level_reward_type: "coin",
      challenges: [{ challenge_name: "Kill 1", challenge_goal: 1, event_name: "kill-enemy" }],
    });
    const level = (await bot("POST", `/apps/${appId}/battle-passes/${pass.battle_pass_id}/levels`, levelBody("1")))
      .body;
    const second = (await bot("POST", `/apps/${appId}/battle-passes/${pass.battle_pass_id}/levels`, levelBody("2")))
      .body;
    await bot("PUT", `/apps/${appId}/battle-passes/${pass.battle_pass_id}/level-order`, {
      level_ids: [second.level_id, level.level_id],
    });
    await bot("DELETE", `/apps/${appId}/battle-passes/${pass.battle_pass_id}/levels/${level.level_id}`);
    await bot("DELETE", `/apps/${appId}/battle-passes/${pass.battle_pass_id}`);
    await bot("PUT", `/apps/${appId}/api-keys/${keyId}`, { name: "game server 2" });

    const { items } = await logOf(appId);
    expect(summary(items).reverse()).toEqual([
      "api-key create",
      "challenge-category create",
      "challenge create",
      "challenge update",
      "challenge delete",
      "challenge-category update",
      "challenge-category delete",
      "leaderboard create",
      "leaderboard update",
      "leaderboard reset",
      "leaderboard delete",
      "battle-pass create",
      "battle-pass-level create",
      "battle-pass-level create",
      "battle-pass reorder-levels",
      "battle-pass-level delete",
      "battle-pass delete",
      "api-key update",
    ]);
    const byAction = (resource: string, action: string) =>
      items.find((e) => e.resource === resource && e.action === action);
    expect(byAction("challenge", "create")).toMatchObject({
      resource_id: challenge.challenge_id,
      before: null,
      after: challengeBody,
    });
    expect(byAction("challenge", "update")).toMatchObject({
      resource_id: challenge.challenge_id,
      before: { challenge_id: challenge.challenge_id, challenge_goal: 3, challenge_name: "Kill 3" },
      after: { challenge_goal: 5 },
    });
    expect(byAction("challenge", "delete")).toMatchObject({
      before: { challenge_id: challenge.challenge_id, challenge_goal: 5 },
      after: null,
    });
    expect(byAction("leaderboard", "reset")).toMatchObject({
      actor: { kind: "api-key", id: keyId, name: null },
      origin: { channel: "api" },
    });
    expect(byAction("battle-pass-level", "create")).toMatchObject({
      resource_id: second.level_id,
      after: { battle_pass_id: pass.battle_pass_id, reward_amount: "2" },
    });
    expect(byAction("battle-pass", "reorder-levels")).toMatchObject({
      before: { level_ids: [level.level_id, second.level_id] },
      after: { level_ids: [second.level_id, level.level_id] },
    });
    expect(byAction("api-key", "update")).toMatchObject({
      resource_id: keyId,
      before: { name: "game server", key_prefix: apiKey.slice(0, 8) },
      after: { name: "game server 2" },
    });
  });

  it("records the operators' fair-play actions on players: bans, lifts, held scores accepted or dismissed, a removed score", async () => {
    const fair = (await bot("POST", "/apps", { name: "Audited fair play", default_language: "en" })).body.app_id;
    const key = (await bot("POST", `/apps/${fair}/api-keys`, { name: "backend" })).body.key;
    const board = (
      await bot("POST", `/apps/${fair}/leaderboards`, {
        name: "Capped",
        event_name: "kill-enemy",
        value_field: "amount",
        aggregation: "sum",
        max_value: 10,
      })
    ).body;
    const send = (userId: string, amount: number) =>
      call("POST", "/api/v1/events", {
        token: key,
        body: { event_name: "kill-enemy", user_id: userId, session_id: "s", meta_data: { amount } },
      });
    for (const [userId, amount] of [
      ["ann", 50],
      ["bob", 60],
      ["cid", 5],
    ] as const)
      expect((await send(userId, amount)).status).toBe(200);
    const queue = `/apps/${fair}/leaderboards/${board.leaderboard_id}/flagged`;
    await vi.waitFor(async () => expect((await bot("GET", queue)).body.total).toBe(2), {
      timeout: 20_000,
      interval: 200,
    });
    const flags = (await bot("GET", queue)).body.items as any[];
    const flagOf = (userId: string) => flags.find((f) => f.member_id === userId).flag_id;
    expect((await bot("POST", `${queue}/${flagOf("ann")}/accept`)).status).toBe(200);
    expect((await bot("POST", `${queue}/${flagOf("bob")}/dismiss`)).status).toBe(204);
    await vi.waitFor(
      async () => {
        const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM leaderboard_scores WHERE member_id = 'cid'").first<{
          n: number;
        }>();
        expect(row!.n).toBe(1);
      },
      { timeout: 20_000, interval: 200 },
    );
    // ann's accepted 50 is ahead of cid's 5.
    expect((await bot("DELETE", `/apps/${fair}/leaderboards/${board.leaderboard_id}/members/user/cid`)).status).toBe(
      204,
    );
    expect((await bot("POST", `/apps/${fair}/users/dan/ban`, { reason: "spam" })).status).toBe(200);
    expect(
      (await bot("POST", `/apps/${fair}/users/dan/ban`, { reason: "spam again", expires_at: "2099-01-01T00:00:00Z" }))
        .status,
    ).toBe(200);
    expect((await bot("DELETE", `/apps/${fair}/users/dan/ban`)).status).toBe(204);
    // Lifting a ban that is not there changes nothing, so records nothing.
    expect((await bot("DELETE", `/apps/${fair}/users/dan/ban`)).status).toBe(404);

    const players = (await logOf(fair, "&resource=player")).items.reverse();
    expect(players.map((e) => [e.resource_id, e.action])).toEqual([
      ["ann", "accept-held-score"],
      ["bob", "dismiss-held-score"],
      ["cid", "remove-score"],
      ["dan", "ban"],
      ["dan", "ban"],
      ["dan", "unban"],
    ]);
    expect(players[0]).toMatchObject({
      actor: { kind: "admin-token", name: "deploy-bot" },
      before: { member_id: "ann", value: 50, reason: "above_max_value" },
      after: null,
    });
    expect(players[2]).toMatchObject({
      before: { leaderboard_id: board.leaderboard_id, score: 5, rank: 2 },
      after: null,
    });
    expect(players[3]).toMatchObject({ before: null, after: { user_id: "dan", reason: "spam", expires_at: null } });
    expect(players[4]).toMatchObject({
      before: { reason: "spam" },
      after: { reason: "spam again", expires_at: "2099-01-01T00:00:00.000Z" },
    });
    expect(players[5]).toMatchObject({ before: { reason: "spam again" }, after: null });
  });

  it("records nothing for a write that changed nothing", async () => {
    const category = (
      await bot("POST", `/apps/${appId}/challenge-categories`, { category_slug: "held", category_name: "Held" })
    ).body;
    await bot("POST", `/apps/${appId}/challenges`, {
      category_id: category.category_id,
      challenge_name: "C",
      challenge_goal: 1,
      event_name: "kill-enemy",
    });
    const before = (await logOf(appId)).total;
    // A category that holds challenges is not deleted (409): no entry says it was.
    expect((await bot("DELETE", `/apps/${appId}/challenge-categories/${category.category_id}`)).status).toBe(409);
    expect((await logOf(appId)).total).toBe(before);
  });

  it("never holds a secret: webhook secrets, API keys and passwords are redacted, a changed secret says so", async () => {
    const hook = (
      await bot("POST", `/apps/${appId}/webhooks`, {
        webhook_type: "challenge-changed",
        url: "https://game.example/hook",
        secret_key: WEBHOOK_SECRET,
      })
    ).body;
    await bot("PUT", `/apps/${appId}/webhooks/${hook.webhook_id}`, {
      webhook_type: "challenge-changed",
      url: "https://game.example/hook",
      secret_key: NEW_WEBHOOK_SECRET,
    });
    await bot("PUT", `/apps/${appId}/webhooks/${hook.webhook_id}`, {
      webhook_type: "user-erased",
      url: "https://game.example/hook",
      secret_key: NEW_WEBHOOK_SECRET,
    });
    await bot("DELETE", `/apps/${appId}/webhooks/${hook.webhook_id}`);
    const user = (
      await bot("POST", "/console-users", { email: "audited@studio.example", role: "viewer", password: PASSWORD })
    ).body;
    await bot("PUT", `/console-users/${user.console_user_id}`, {
      email: "audited@studio.example",
      role: "editor",
      password: `${PASSWORD} new`,
    });
    await bot("DELETE", `/console-users/${user.console_user_id}`);
    await bot("DELETE", `/apps/${appId}/api-keys/${keyId}`);

    const hooks = (await logOf(appId, `&resource=webhook&resource_id=${hook.webhook_id}`)).items.reverse();
    expect(hooks.map((e) => [e.action, e.before?.secret_key ?? null, e.after?.secret_key ?? null])).toEqual([
      ["create", null, "[redacted]"],
      ["update", "[redacted]", "[redacted, changed]"],
      ["update", "[redacted]", "[redacted]"],
      ["delete", "[redacted]", null],
    ]);
    expect(hooks[2]).toMatchObject({
      before: { webhook_type: "challenge-changed" },
      after: { webhook_type: "user-erased" },
    });
    const users = (await logOf(null, "&resource=console-user")).items.reverse();
    expect(users.map((e) => [e.action, e.after?.password ?? null, e.after?.role ?? e.before?.role])).toEqual([
      ["create", "[redacted]", "viewer"],
      ["update", "[redacted]", "editor"],
      ["delete", null, "editor"],
    ]);
    const keys = (await logOf(appId, "&resource=api-key")).items;
    expect(keys[0]).toMatchObject({ action: "revoke", after: { revoked_at: expect.any(String) } });

    const everything = await env.DB.prepare("SELECT * FROM audit_log").all();
    const text = JSON.stringify(everything.results);
    for (const secret of [WEBHOOK_SECRET, NEW_WEBHOOK_SECRET, PASSWORD, apiKey, ADMIN])
      expect(text).not.toContain(secret);
    expect(text).not.toContain("pbkdf2");
  });

  it("records a catalog apply: one entry per object, named by its keys", async () => {
    const app = (await bot("POST", "/apps", { name: "Catalog", default_language: "en" })).body;
    await applied(app.app_id, demoCatalog());
    const { items, total } = await logOf(app.app_id);
    expect(total).toBe(16);
    expect(items.every((e: any) => e.action === "create" && e.actor.kind === "admin-token" && e.before === null)).toBe(
      true,
    );
    expect(items.map((e: any) => e.resource_id)).toContain("categories/daily");
    const doc = demoCatalog();
    doc.categories[0].category_name = "Renamed";
    await applied(app.app_id, doc);
    expect((await logOf(app.app_id)).items[0]).toMatchObject({
      resource: "challenge-category",
      resource_id: `categories/${doc.categories[0].category_slug}`,
      action: "update",
      before: { category_name: expect.anything() },
      after: { category_name: "Renamed" },
    });
  });

  it("filters by resource, actor and time, and pages", async () => {
    await as("ann@studio")("POST", `/apps/${appId}/challenge-categories`, {
      category_slug: "anns",
      category_name: "Ann's",
    });
    const ann = await logOf(appId, "&actor=ann@");
    expect(summary(ann.items)).toEqual(["challenge-category create"]);
    expect((await logOf(appId, "&actor=api-key")).items.every((e: any) => e.actor.kind === "api-key")).toBe(true);
    expect((await logOf(appId, "&resource=leaderboard")).total).toBe(4);
    const all = await logOf(appId);
    expect(all.total).toBeGreaterThan(20);
    const page = await call("GET", `/api/v1/admin/apps/${appId}/audit-log?pageSize=5&currentPage=2`, { token: ADMIN });
    expect(page.body).toMatchObject({ currentPage: 2, pageSize: 5, total: all.total });
    expect(page.body.items).toEqual(all.items.slice(5, 10));
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await logOf(appId, `&from=${tomorrow}`)).total).toBe(0);
    expect((await logOf(appId, `&to=${tomorrow}`)).total).toBe(all.total);
    expect((await logOf(appId, `&from=${encodeURIComponent(all.items[0].at)}`)).total).toBeGreaterThanOrEqual(1);
    const bad = await call("GET", `/api/v1/admin/apps/${appId}/audit-log?from=yesterday`, { token: ADMIN });
    expect(bad).toMatchObject({
      status: 400,
      body: {
        errors: [{ field: "from", problem: "must be an ISO date (2026-11-24) or date-time (2026-11-24T09:00:00Z)" }],
      },
    });
  });

  it("refuses a malformed X-Actor, and names an unnamed admin token as such", async () => {
    const long = await call("POST", "/api/v1/admin/apps", {
      token: ADMIN,
      body: { name: "x" },
      headers: { "X-Actor": "a".repeat(101) },
    });
    expect(long).toMatchObject({
      status: 400,
      body: { errors: [{ field: "X-Actor", problem: "must be at most 100 characters" }] },
    });
    const plain = await call("POST", "/api/v1/admin/apps", {
      token: ADMIN,
      body: { name: "Plain", default_language: "en" },
    });
    const [entry] = (await logOf(null, `&resource=app&resource_id=${plain.body.app_id}`)).items;
    expect(entry.actor).toEqual({ kind: "admin-token", id: null, name: null });
  });

  it("keeps entries as long as AUDIT_LOG_RETENTION_DAYS says", async () => {
    await env.DB.prepare(
      "INSERT INTO audit_log (at, app_id, actor_kind, channel, resource, action, outcome) VALUES ('2020-01-01T00:00:00.000Z', ?, 'system', 'background', 'app', 'ancient', 'done')",
    )
      .bind(Number(appId))
      .run();
    const before = (await logOf(appId)).total;
    await pruneAuditLog({ DB: env.DB, AUDIT_LOG_RETENTION_DAYS: "30" }, Date.now());
    const after = await logOf(appId);
    expect(after.total).toBe(before - 1);
    expect(after.items.some((e: any) => e.action === "ancient")).toBe(false);
  });
});
