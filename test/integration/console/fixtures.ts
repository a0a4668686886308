import { env } from "cloudflare:test";
import { consoleRoutes } from "../../../src/console/routes";
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
  const system = await create("/points-systems", { key: "coins", name: { en: "Coins" }, spendable: true });
  const achievement = await create("/achievements", { key: "first", name: { en: "First" }, kind: "manual" });
  const streak = await create("/streaks", {
    key: "daily",
    name: { en: "Daily" },
    period: "daily",
    event_name: "kill-enemy",
    time_zone: "Europe/Berlin",
  });
  const league = await create("/leagues", {
    key: "weekly",
    name: "Weekly",
    event_name: "earn-xp",
    tiers: [
      { key: "bronze", name: "Bronze" },
      { key: "silver", name: "Silver" },
    ],
    cohort_size: 3,
    promote: 1,
    demote: 1,
    schedule: { period: "weekly" },
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
    systemId: system.system_id as string,
    achievementId: achievement.achievement_id as string,
    leagueId: league.league_id as string,
    streakId: streak.streak_id as string,
    webhookId: webhook.webhook_id as string,
    deliveryId: delivery.delivery_id as string,
    operatorId: user.body.console_user_id as string,
  };
}

export type ConsoleFixture = Awaited<ReturnType<typeof consoleFixture>>;

/** Where the fixture's ids go in a console route's path parameters. */
function fixtureParams(f: ConsoleFixture): Record<string, string> {
  return {
    appId: f.appId,
    keyId: f.keyId,
    categoryId: f.categoryId,
    challengeId: f.challengeId,
    passId: f.passId,
    levelId: f.levelId,
    boardId: f.boardId,
    leaderboardId: f.boardId,
    systemId: f.systemId,
    achievementId: f.achievementId,
    leagueId: f.leagueId,
    streakId: f.streakId,
    flagId: "1",
    memberType: "user",
    memberId: PLAYER,
    webhookId: f.webhookId,
    deliveryId: f.deliveryId,
    operatorId: f.operatorId,
    userId: PLAYER,
  };
}

const PLAYER = "player-1";
/** Paths that only sign the caller in or out: open to every role. */
const SIGN_IN_AND_OUT = new Set(["/console/sign-in", "/console/sign-in/admin-token", "/console/sign-out"]);

/**
 * Every console path that changes something (each POST route of the console's router), for one
 * fixture. Destructive ones come last, deleting the app very last.
 */
export function changePaths(f: ConsoleFixture): string[] {
  const routes = [...new Set(consoleRoutes.routes.filter((r) => r.method === "POST").map((r) => r.path))].filter(
    (route) => !SIGN_IN_AND_OUT.has(route),
  );
  const paths = routes.map((route) => {
    const params = fixtureParams(f);
    return route.replace(/:(\w+)(\{[^}]*\})?/g, (_, name: string) => {
      if (!(name in params)) throw new Error(`The console fixture has no value for :${name} in ${route}`);
      return encodeURIComponent(params[name]);
    });
  });
  const rank = (path: string) => (path === `/console/apps/${f.appId}/delete` ? 2 : path.endsWith("/delete") ? 1 : 0);
  return paths.sort((a, b) => rank(a) - rank(b));
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
    `${app}/points`,
    `${app}/points/new`,
    `${app}/points/${f.systemId}`,
    `${app}/leagues`,
    `${app}/leagues/new`,
    `${app}/leagues/${f.leagueId}`,
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
    `/console/users/${f.operatorId}`,
  ];
}
