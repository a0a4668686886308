import { env } from "cloudflare:test";
import { ADMIN, call, captureSends, createTestApp } from "../helpers";

/**
 * An app with one of everything the console edits, made through the admin API; answers every id.
 * Webhook calls (its test call, the console's) stay in this test: nothing is sent anywhere.
 */
export async function consoleFixture(name = "Console fixture") {
  captureSends(env.WEBHOOKS);
  const app = await createTestApp(name);
  const create = async (path: string, body: unknown) => {
    const r = await call("POST", `/api/v1/admin/apps/${app.appId}${path}`, { token: ADMIN, body });
    if (r.status !== 201 && r.status !== 202) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const category = await create("/challenge-categories", { category_slug: "main", category_name: "Main" });
  const challenge = await create("/challenges", {
    category_id: category.category_id,
    challenge_name: "Kill 3",
    challenge_goal: 3,
    event_name: "kill-enemy",
  });
  const pass = await create("/battle-passes", {
    battle_pass_name: "S1",
    start_date: "2026-01-01T00:00:00Z",
    end_date: "2027-01-01T00:00:00Z",
  });
  const level = await create(`/battle-passes/${pass.battle_pass_id}/levels`, {
    challenges: [{ challenge_name: "Collect 5", challenge_goal: 5, event_name: "collect-item" }],
  });
  const board = await create("/leaderboards", {
    name: "Scores",
    event_name: "achieve-score",
    value_field: "score",
    aggregation: "max",
  });
  const webhook = await create("/webhooks", { webhook_type: "challenge-changed", url: "http://127.0.0.1:9/hooks" });
  const delivery = await create(`/webhooks/${webhook.webhook_id}/test`, {});
  const user = await call("POST", "/api/v1/admin/console-users", {
    token: ADMIN,
    body: {
      email: `fixture-${crypto.randomUUID().slice(0, 8)}@studio.test`,
      role: "viewer",
      password: "a long enough password",
    },
  });
  return {
    ...app,
    categoryId: category.category_id as string,
    challengeId: challenge.challenge_id as string,
    passId: pass.battle_pass_id as string,
    levelId: level.level_id as string,
    boardId: board.leaderboard_id as string,
    webhookId: webhook.webhook_id as string,
    deliveryId: delivery.delivery_id as string,
    consoleUserId: user.body.console_user_id as string,
  };
}

export type ConsoleFixture = Awaited<ReturnType<typeof consoleFixture>>;

/** Every console path that changes something, for one fixture. Destructive ones come last. */
export function changePaths(f: ConsoleFixture): string[] {
  const app = `/console/apps/${f.appId}`;
  return [
    "/console/apps",
    `${app}/settings`,
    `${app}/keys`,
    `${app}/challenges/categories/new`,
    `${app}/challenges/categories/${f.categoryId}`,
    `${app}/challenges/new`,
    `${app}/challenges/${f.challengeId}`,
    `${app}/battle-passes/new`,
    `${app}/battle-passes/${f.passId}`,
    `${app}/battle-passes/${f.passId}/levels/new`,
    `${app}/battle-passes/${f.passId}/levels/${f.levelId}`,
    `${app}/battle-passes/${f.passId}/levels/${f.levelId}/move`,
    `${app}/leaderboards/new`,
    `${app}/leaderboards/${f.boardId}`,
    `${app}/webhooks`,
    `${app}/webhooks/${f.webhookId}`,
    `${app}/webhooks/${f.webhookId}/test`,
    `${app}/webhooks/deliveries/${f.deliveryId}/redeliver`,
    `${app}/catalog/preview`,
    `${app}/catalog/apply`,
    `${app}/players/player-1/reset-challenges`,
    `${app}/events`,
    "/console/users",
    `/console/users/${f.consoleUserId}`,
    `/console/users/${f.consoleUserId}/sign-out`,
    `${app}/keys/${f.keyId}/revoke`,
    `${app}/challenges/${f.challengeId}/delete`,
    `${app}/challenges/categories/${f.categoryId}/delete`,
    `${app}/battle-passes/${f.passId}/levels/${f.levelId}/delete`,
    `${app}/battle-passes/${f.passId}/delete`,
    `${app}/leaderboards/${f.boardId}/delete`,
    `${app}/webhooks/${f.webhookId}/delete`,
    `/console/users/${f.consoleUserId}/delete`,
    `${app}/delete`,
  ];
}

/** Every console page that only reads, for one fixture. */
export function readPaths(f: ConsoleFixture): string[] {
  const app = `/console/apps/${f.appId}`;
  return [
    "/console",
    app,
    `${app}/settings`,
    `${app}/keys`,
    `${app}/challenges`,
    `${app}/challenges/new`,
    `${app}/challenges/categories/new`,
    `${app}/challenges/categories/${f.categoryId}`,
    `${app}/challenges/${f.challengeId}`,
    `${app}/battle-passes`,
    `${app}/battle-passes/new`,
    `${app}/battle-passes/${f.passId}`,
    `${app}/battle-passes/${f.passId}/levels`,
    `${app}/battle-passes/${f.passId}/levels/new`,
    `${app}/battle-passes/${f.passId}/levels/${f.levelId}`,
    `${app}/leaderboards`,
    `${app}/leaderboards/new`,
    `${app}/leaderboards/${f.boardId}`,
    `${app}/webhooks`,
    `${app}/webhooks/${f.webhookId}`,
    `${app}/webhooks/deliveries`,
    `${app}/webhooks/deliveries/${f.deliveryId}`,
    `${app}/players`,
    `${app}/players/player-1`,
    `${app}/events`,
    `${app}/events/topics?user_id=player-1`,
    `${app}/catalog`,
    `${app}/catalog.yaml`,
    `${app}/catalog.json`,
    "/console/status",
    "/console/users",
    `/console/users/${f.consoleUserId}`,
  ];
}
