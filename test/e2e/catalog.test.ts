import { BattlePassesApi, ChallengesApi, Configuration, EventsApi, LeaderboardsApi } from "@scillgame/scill-js";
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { startDevServer } from "../../scripts/lib/dev-server.mjs";
import { freePort } from "../../scripts/lib/free-port.mjs";
import { projectRoot } from "../../scripts/lib/wrangler.mjs";
import { TEST_SECRETS } from "../support/secrets";
import { E2E_VARS } from "./global-setup";
import { ADMIN_TOKEN, baseUrl, eventually } from "./support";

/**
 * Catalog as code as a studio uses it: the CLI against `wrangler dev`, and a catalog promoted from
 * one deployment to another (a second `wrangler dev` with its own fresh local state), where the
 * same player actions must give the same answers.
 */

const DEMO = path.join(projectRoot, "scripts", "demo", "catalog.yaml");
const work = mkdtempSync(path.join(tmpdir(), "catalog-e2e-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Runs `npm run catalog -- ...` as a person would; answers its exit code and output. */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(projectRoot, "scripts", "catalog.mjs"), ...args], {
      // Only what the CLI reads: nothing of this shell leaks into what it sends.
      env: { PATH: process.env.PATH ?? "", ADMIN_TOKEN, ...env } as unknown as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** One deployment's HTTP API, with the admin token unless told otherwise. */
function deployment(url: string) {
  async function http(method: string, route: string, options: { token?: string; body?: unknown } = {}) {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: {
        Authorization: `Bearer ${options.token ?? ADMIN_TOKEN}`,
        ...(options.body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const body = await response.json().catch(() => undefined);
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(body)}`);
    return body as any;
  }
  return {
    url,
    http,
    /** A new app with an API key, as a studio makes one. */
    async newApp(name: string) {
      const app = await http("POST", "/api/v1/admin/apps", { body: { name } });
      const key = await http("POST", `/api/v1/admin/apps/${app.app_id}/api-keys`, { body: { name: "e2e" } });
      return { appId: app.app_id as string, apiKey: key.key as string };
    },
  };
}
type Deployment = ReturnType<typeof deployment>;

describe("the catalog CLI", () => {
  it("applies the demo catalog, pulls it as YAML, and plans and applies an edit as a readable diff", async () => {
    const server = deployment(baseUrl());
    const { appId } = await server.newApp("CLI studio");
    const target = ["--app", appId, "--url", server.url];

    const first = await cli(["apply", ...target, DEMO]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("+ category         categories/daily");
    expect(first.stdout).toContain("Applied: 16 created, 0 updated, 0 deleted.");
    const again = await cli(["apply", ...target, DEMO]);
    expect(again.stdout).toContain("No changes: the app already matches the document.");

    const file = path.join(work, "pulled.yaml");
    const pulled = await cli(["pull", ...target, file]);
    expect(pulled).toMatchObject({
      code: 0,
      stdout: `Wrote ${file}: 2 categories, 4 challenges, 1 battle passes, 2 leaderboards, 0 webhooks.\n`,
    });
    const text = readFileSync(file, "utf8");
    expect(text.split("\n")[0]).toBe(`# yaml-language-server: $schema=${server.url}/api/v1/public/catalog-schema.json`);
    expect(parse(text)).toEqual(await server.http("GET", `/api/v1/admin/apps/${appId}/catalog`));

    writeFileSync(file, text.replace("challenge_goal: 200", "challenge_goal: 250"));
    const plan = await cli(["plan", ...target, file]);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(
      [
        "~ challenge  challenges/weekly-raider",
        "      challenge_goal: 200 -> 250",
        "",
        "Plan: 0 to create, 1 to update, 0 to delete.",
      ].join("\n"),
    );
    expect(
      (await server.http("GET", `/api/v1/admin/apps/${appId}/catalog`)).categories[1].challenges[0].challenge_goal,
    ).toBe(200);
    const applied = await cli(["apply", ...target, file]);
    expect(applied.stdout).toContain("Applied: 0 created, 1 updated, 0 deleted.");
    expect(
      (await server.http("GET", `/api/v1/admin/apps/${appId}/catalog`)).categories[1].challenges[0].challenge_goal,
    ).toBe(250);
  });

  it("takes webhook secrets from the environment, never writes them, and reports what it refuses", async () => {
    const server = deployment(baseUrl());
    const { appId } = await server.newApp("CLI secrets");
    const target = ["--app", appId, "--url", server.url];
    const file = path.join(work, "hooks.yaml");
    writeFileSync(
      file,
      [
        "version: 1",
        "webhooks:",
        "  - key: game-server",
        "    webhook_type: challenge-changed",
        "    url: https://game.example.com/hooks",
        "    secret_key: { env: GAME_HOOK_SECRET }",
        "",
      ].join("\n"),
    );
    expect((await cli(["apply", ...target, file], { GAME_HOOK_SECRET: "from-the-environment" })).code).toBe(0);
    const hooks = await server.http("GET", `/api/v1/admin/apps/${appId}/webhooks`);
    expect(hooks.items.map((w: any) => w.secret_key)).toEqual(["from-the-environment"]);

    const unset = await cli(["plan", ...target, file]);
    expect(unset.stderr).toBe(
      "note: webhook game-server: GAME_HOOK_SECRET is not set, so its current secret is kept (a new endpoint gets a generated one)\n",
    );
    expect(unset.stdout).toContain("No changes");

    const pulledFile = path.join(work, "hooks-pulled.json");
    expect((await cli(["pull", ...target, pulledFile])).code).toBe(0);
    const pulled = readFileSync(pulledFile, "utf8");
    expect(JSON.parse(pulled).webhooks).toEqual([
      {
        key: "game-server",
        webhook_type: "challenge-changed",
        url: "https://game.example.com/hooks",
        secret_key: { env: "WEBHOOK_SECRET_GAME_SERVER" },
      },
    ]);
    expect(pulled).not.toContain("from-the-environment");

    writeFileSync(file, "version: 1\nleaderboards:\n  - key: Bad Key\n    name: x\n");
    const invalid = await cli(["apply", ...target, file]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain("answered 400");
    expect(invalid.stderr).toContain("  leaderboards.0.key: must be lower-case letters");
    expect(invalid.stderr).toContain("  leaderboards.0.event_name: ");
    expect(await cli(["apply", ...target, file], { ADMIN_TOKEN: "" })).toMatchObject({
      code: 1,
      stderr: "Set ADMIN_TOKEN to the service's admin token.\n",
    });
    expect((await cli(["push", ...target, file])).code).toBe(1);
  });
});

// The second deployment starts with the file, while the CLI's tests run against the first.
const secondPersistTo = mkdtempSync(path.join(tmpdir(), "catalog-e2e-second-"));
let starting: ReturnType<typeof startDevServer> | undefined;
beforeAll(() => {
  starting = freePort().then((port) =>
    startDevServer({
      port,
      persistTo: secondPersistTo,
      vars: { ...TEST_SECRETS, ...E2E_VARS },
      quiet: true,
      localTraces: false,
    }),
  );
  // Awaited by the tests that use it; a failure to start is theirs to report.
  starting.catch(() => {});
});
afterAll(async () => {
  await (await starting?.catch(() => undefined))?.stop();
  rmSync(secondPersistTo, { recursive: true, force: true });
});

describe("a catalog promoted to another deployment", () => {
  let second: { url: string; stop: () => Promise<void> };

  beforeAll(async () => {
    second = await starting!;
  });

  it("applies to a fresh app on fresh local state, and both apps answer the same to the same player actions", async () => {
    const staging = deployment(baseUrl());
    const production = deployment(second.url);
    const source = await staging.newApp("Staging");
    // Configured both ways: the demo catalog, then fair-play settings, a board and an endpoint through the admin API
    // (keyed by id).
    expect((await cli(["apply", "--app", source.appId, "--url", staging.url, DEMO])).code).toBe(0);
    const settings = { backend_only_events: ["grant-coins"], rate_limits: { per_user_per_minute: 600 } };
    await staging.http("PUT", `/api/v1/admin/apps/${source.appId}`, { body: { name: "Staging", ...settings } });
    await staging.http("POST", `/api/v1/admin/apps/${source.appId}/leaderboards`, {
      body: { name: "Gems", event_name: "collect-item", filters: [{ field: "item_type", op: "eq", value: "gem" }] },
    });
    await staging.http("POST", `/api/v1/admin/apps/${source.appId}/webhooks`, {
      body: { webhook_type: "battlepass-expired", url: "https://game.example.com/expired" },
    });

    const file = path.join(work, "promoted.yaml");
    expect((await cli(["pull", "--app", source.appId, "--url", staging.url, file])).code).toBe(0);
    const target = await production.newApp("Production");
    const promoted = await cli(["apply", "--app", target.appId, "--url", production.url, file]);
    expect(promoted.code).toBe(0);
    // The production app's settings exist already: they are updated.
    expect(promoted.stdout).toContain("Applied: 18 created, 1 updated, 0 deleted.");
    const promotedCatalog = await production.http("GET", `/api/v1/admin/apps/${target.appId}/catalog`);
    expect(promotedCatalog).toEqual(await staging.http("GET", `/api/v1/admin/apps/${source.appId}/catalog`));
    expect(promotedCatalog.settings).toEqual(settings);

    const [fromStaging, fromProduction] = await Promise.all([play(staging, source), play(production, target)]);
    expect(fromProduction).toEqual(fromStaging);
    // What was compared, so that equal answers cannot be empty ones.
    expect(
      fromStaging.challenges.map((c: any) => [
        c.category_id,
        c.challenges.map((ch: any) => `${ch.challenge_id} ${ch.type} ${ch.user_challenge_current_score}`),
      ]),
    ).toEqual([
      ["daily", ["daily-matches finished 3", "daily-coins in-progress 40"]],
      ["weekly", ["weekly-raider in-progress 25", "weekly-sharpshooter finished 25"]],
    ]);
    expect(
      fromStaging.levels.map((l: any) => [
        l.level_id,
        l.challenges.map((c: any) => `${c.challenge_id} ${c.type} ${c.user_challenge_current_score}`),
      ]),
    ).toEqual([
      ["bronze", ["first-matches in-progress 3"]],
      ["silver", ["hunter unlock 0", "collector unlock 0"]],
      ["gold", ["score-hunter unlock 0"]],
    ]);
    expect(fromStaging.board.grouped_by_users.map((m: any) => [m.member_id, m.score, m.rank])).toEqual([
      ["bo", 5000, 1],
      ["ann", 4200, 2],
    ]);
  });
});

/** Ids differ between deployments: each answer is compared with ids replaced by the keys they stand for. */
async function keysOf(server: Deployment, appId: string) {
  const admin = (route: string) => server.http("GET", `/api/v1/admin/apps/${appId}${route}?pageSize=100`);
  const categories = new Map<string, string>(
    (await admin("/challenge-categories")).items.map((c: any) => [c.category_id, c.category_slug]),
  );
  const challenges = new Map<string, string>(
    (await admin("/challenges")).items.map((c: any) => [c.challenge_id, c.key]),
  );
  const passes = (await admin("/battle-passes")).items;
  const levels = new Map<string, string>();
  const levelChallenges = new Map<string, string>();
  for (const pass of passes) {
    for (const level of (await admin(`/battle-passes/${pass.battle_pass_id}/levels`)).items) {
      levels.set(level.level_id, level.key);
      for (const c of level.challenges) levelChallenges.set(c.challenge_id, c.key);
    }
  }
  const boards = new Map<string, string>(
    (await admin("/leaderboards")).items.map((b: any) => [b.leaderboard_id, b.key]),
  );
  return {
    categories,
    challenges,
    passes: new Map<string, string>(passes.map((p: any) => [p.battle_pass_id, p.key])),
    levels,
    levelChallenges,
    boards,
  };
}

/**
 * A copy of `value` with the named id fields mapped, times reduced to whether they are set, and per-user ids dropped.
 */
function normalized(value: unknown, ids: Record<string, Map<string, string>>): any {
  if (Array.isArray(value)) return value.map((v) => normalized(v, ids));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [field, v] of Object.entries(value)) {
    if (field === "user_challenge_id" || field === "app_id") continue;
    if (ids[field]) out[field] = ids[field].get(String(v)) ?? `unknown ${field} ${v}`;
    else if (/_at$/.test(field)) out[field] = v === null ? null : "(set)";
    else out[field] = normalized(v, ids);
  }
  return out;
}

/** The same player actions on one deployment, and what its API then answers, with ids as keys. */
async function play(server: Deployment, app: { appId: string; apiKey: string }) {
  const keys = await keysOf(server, app.appId);
  const idOf = (map: Map<string, string>, key: string) => [...map].find(([, k]) => k === key)![0];
  const config = (credential: string) =>
    new Configuration({
      accessToken: credential,
      apiKey: credential.length > 64 ? "access_token" : "api_key",
      basePath: server.url,
    });
  const token = async (userId: string) =>
    (await server.http("POST", "/api/v1/auth/access-token", { token: app.apiKey, body: { user_id: userId } }))
      .token as string;
  const ann = await token("ann");
  const challenges = new ChallengesApi(config(ann));
  const passes = new BattlePassesApi(config(ann));
  const events = new EventsApi(config(ann));
  const send = (event_name: string, meta_data: Record<string, string | number> = {}) =>
    events.sendEvent({ event_name, event_type: "single", session_id: "match-1", meta_data });

  await challenges.getAllPersonalChallenges(app.appId); // first visit: the automatic challenges start
  const passId = idOf(keys.passes, "founders-season");
  await passes.unlockBattlePass(app.appId, passId, { purchase_price: 0, purchase_currency: "EUR" });
  const sharpshooter = idOf(keys.challenges, "weekly-sharpshooter");
  await challenges.unlockPersonalChallenge(app.appId, sharpshooter);
  await challenges.activatePersonalChallenge(app.appId, sharpshooter);
  for (let i = 0; i < 3; i++) await send("match-finish");
  await send("kill-enemy", { amount: 25, weapon_used: "laser" });
  await send("collect-item", { amount: 40, item_type: "coin" });
  await send("achieve-score", { score: 4200 });
  await challenges.claimPersonalChallengeReward(app.appId, sharpshooter);
  await new EventsApi(config(await token("bo"))).sendEvent({
    event_name: "achieve-score",
    event_type: "single",
    session_id: "s",
    meta_data: { score: 5000 },
  });

  const boards = new LeaderboardsApi(config(ann));
  // Scores reach the boards through the background queue: wait for all three.
  const all = await eventually(
    async () => {
      const answer = await boards.getLeaderboards(1, 25, "de");
      const members = answer.map((b) => b.grouped_by_users?.length ?? 0);
      return members.join() === "2,1,0" ? answer : undefined;
    },
    15_000,
    "every score on its board",
  );
  const board = await boards.getLeaderboard(idOf(keys.boards, "high-scores"), 1, 25, "de");
  return {
    challenges: normalized(await challenges.getAllPersonalChallenges(app.appId, undefined, undefined, "de"), {
      category_id: keys.categories,
      challenge_id: keys.challenges,
    }),
    passes: normalized(await passes.getBattlePasses(app.appId, "de"), { battle_pass_id: keys.passes }),
    levels: normalized(await passes.getBattlePassLevels(app.appId, passId, "de"), {
      battle_pass_id: keys.passes,
      level_id: keys.levels,
      challenge_id: keys.levelChallenges,
    }),
    board: normalized(board, { leaderboard_id: keys.boards }),
    boards: normalized(all, { leaderboard_id: keys.boards }),
  };
}
