import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { applyCatalog as applyWithService, parseCatalogDocument } from "../../../src/catalog/service";
import { ADMIN, call, createTestApp, serviceNow, TEST_ACTOR } from "../helpers";
import { player } from "../challenges/support";
import {
  applied,
  applyCatalog,
  catalogVersion,
  configuration,
  demoCatalog,
  exportCatalog,
  planCatalog,
} from "./support";

/** A D1 binding whose `nth` batch (1-based) runs `around` instead: to break a write in the middle of an apply. */
function interceptBatch(
  nth: number,
  around: (db: D1Database, statements: D1PreparedStatement[]) => Promise<D1Result[]>,
): D1Database {
  let batches = 0;
  return new Proxy(env.DB, {
    get(target, prop) {
      if (prop === "batch")
        return (statements: D1PreparedStatement[]) =>
          ++batches === nth ? around(target, statements) : target.batch(statements);
      const value = Reflect.get(target, prop);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

describe("invalid documents", () => {
  it("answer 400 with the path of every problem the schema finds, and change nothing", async () => {
    const { appId } = await createTestApp("Invalid");
    const doc = demoCatalog();
    doc.categories[0].challenges[0].challenge_gaol = 3; // a misspelt field is not silently ignored
    delete doc.categories[1].challenges[1].key;
    doc.battle_passes[0].levels[0].challenges[0].challenge_goal = "five";
    doc.leaderboards[0].aggregation = "average";
    const r = await applyCatalog(appId, doc);
    expect(r.status).toBe(400);
    expect(r.body.errors).toEqual([
      { field: "categories.0.challenges.0.challenge_gaol", problem: "is not a known field" },
      { field: "categories.1.challenges.1.key", problem: "is required" },
      { field: "battle_passes.0.levels.0.challenges.0.challenge_goal", problem: "must be a number, not a string" },
      { field: "leaderboards.0.aggregation", problem: "must be one of: sum, max, min, last" },
    ]);
    expect((await exportCatalog(appId)).categories).toEqual([]);
  });

  it("answer 400 with the path of every problem across objects: keys used twice, webhook URLs and secrets", async () => {
    const { appId } = await createTestApp("Invalid across");
    const doc = demoCatalog();
    doc.categories[1].challenges[0].key = "daily-matches";
    doc.battle_passes[0].levels[1].key = "bronze";
    doc.battle_passes[0].levels[0].reward_webhook_url = "ftp://game.example.com/reward";
    doc.webhooks = [
      { key: "hook", webhook_type: "challenge-changed", url: "https://game.example.com/a", secret_key: "short" },
      { key: "hook", webhook_type: "challenge-changed", url: "game.example.com/b" },
    ];
    for (const r of [await planCatalog(appId, doc), await applyCatalog(appId, doc)]) {
      expect(r.status).toBe(400);
      expect(r.body.errors).toEqual([
        {
          field: "categories.1.challenges.0.key",
          problem: "'daily-matches' is used more than once in the document's challenges",
        },
        {
          field: "battle_passes.0.levels.1.key",
          problem: "'bronze' is used more than once in battle pass founders-season",
        },
        {
          field: "battle_passes.0.levels.0.reward_webhook_url",
          problem: "must use https (plain http only to a loopback address)",
        },
        { field: "webhooks.1.key", problem: "'hook' is used more than once in the document's webhooks" },
        { field: "webhooks.0.secret_key", problem: "must be 8 to 256 characters" },
        { field: "webhooks.1.url", problem: "must be an absolute URL" },
      ]);
    }
    expect(await catalogVersion(appId)).toBe(1);
  });

  it("answer the same 400 through the service function the console calls", () => {
    expect(() => parseCatalogDocument({ version: 2 })).toThrowError(/Invalid catalog document: version/);
  });
});

describe("atomicity", () => {
  it("a write that fails in the middle of an apply leaves the app as it was: one batch, all or nothing", async () => {
    const { appId } = await createTestApp("Atomic");
    await applied(appId, demoCatalog());
    const before = await configuration(appId);
    const doc = demoCatalog();
    doc.categories[0].challenges[0].challenge_goal = 4;
    doc.leaderboards.push({ key: "new-board", name: "New", event_name: "kill-enemy" });
    // The snapshot read is the first batch, the write the second: its last statement fails.
    const db = interceptBatch(2, (target, statements) =>
      target.batch([...statements, target.prepare("INSERT INTO dev_clock (id, offset_ms) VALUES (2, 0)")]),
    );
    await expect(
      applyWithService({ ...env, DB: db }, appId, parseCatalogDocument(doc), {}, await serviceNow(), TEST_ACTOR),
    ).rejects.toThrow(/CHECK constraint failed/);
    expect(await configuration(appId)).toEqual(before);
  });

  it("a configuration write between plan and write makes the apply answer 409 and write nothing", async () => {
    const { appId } = await createTestApp("Concurrent");
    await applied(appId, demoCatalog());
    const doc = demoCatalog();
    doc.leaderboards.push({ key: "new-board", name: "New", event_name: "kill-enemy" });
    const db = interceptBatch(2, async (target, statements) => {
      await call("POST", `/api/v1/admin/apps/${appId}/leaderboards`, {
        token: ADMIN,
        body: { key: "meanwhile", name: "Meanwhile", event_name: "kill-enemy" },
      });
      return target.batch(statements);
    });
    await expect(
      applyWithService({ ...env, DB: db }, appId, parseCatalogDocument(doc), {}, await serviceNow(), TEST_ACTOR),
    ).rejects.toMatchObject({
      kind: "conflict",
      message:
        "The app's configuration changed while the document was being applied; nothing was applied. Plan and apply again.",
    });
    expect((await exportCatalog(appId)).leaderboards.map((b: any) => b.key)).toEqual([
      "high-scores",
      "weekly-kills",
      "meanwhile",
    ]);
  });
});

describe("webhook secrets", () => {
  it("are applied from the document, never exported, kept by a reference, and replaced (hidden in the plan) by a new value", async () => {
    const { appId } = await createTestApp("Secrets");
    const hook = { key: "game-server", webhook_type: "challenge-changed", url: "https://game.example.com/hooks" };
    await applied(appId, {
      version: 1,
      webhooks: [
        { ...hook, secret_key: "first-secret-123" },
        { key: "generated", webhook_type: "battlepass-expired", url: "https://game.example.com/x" },
      ],
    });
    const secrets = async () =>
      (await call("GET", `/api/v1/admin/apps/${appId}/webhooks`, { token: ADMIN })).body.items.map(
        (w: any) => w.secret_key,
      );
    const [first, generated] = await secrets();
    expect(first).toBe("first-secret-123");
    expect(generated).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);

    const exported = await exportCatalog(appId);
    expect(exported.webhooks).toEqual([
      { ...hook, secret_key: { env: "WEBHOOK_SECRET_GAME_SERVER" } },
      {
        key: "generated",
        webhook_type: "battlepass-expired",
        url: "https://game.example.com/x",
        secret_key: { env: "WEBHOOK_SECRET_GENERATED" },
      },
    ]);
    expect(JSON.stringify(exported)).not.toContain(first);
    expect(JSON.stringify(exported)).not.toContain(generated);

    // The export itself (references) and a document without secrets keep both.
    expect((await applied(appId, exported)).summary.update).toBe(0);
    expect((await applied(appId, { version: 1, webhooks: [hook] })).summary.update).toBe(0);
    expect(await secrets()).toEqual([first, generated]);

    const changed = { version: 1, webhooks: [{ ...hook, secret_key: "second-secret-456" }] };
    const plan = await planCatalog(appId, changed);
    expect(plan.body.changes).toEqual([
      {
        action: "update",
        object: "webhook",
        ref: "webhooks/game-server",
        fields: [{ field: "secret_key", before: "(secret)", after: "(new secret)" }],
      },
    ]);
    expect(JSON.stringify(plan.body)).not.toContain("second-secret-456");
    await applied(appId, changed);
    expect(await secrets()).toEqual(["second-secret-456", generated]);
  });
});

describe("a document written by hand", () => {
  it("in YAML, with defaults left out, applies and players see its challenges at once", async () => {
    const { appId, tokenFor } = await createTestApp("Hand-written");
    const yaml = `
# Our game's catalog
version: 1
categories:
  - category_slug: starter
    category_name: Starter quests      # a plain string: the app's default language
    challenges:
      - key: first-blood
        challenge_name: First blood
        challenge_goal: 1
        event_name: kill-enemy
        is_auto_activated: true
      - key: collector
        challenge_name: { en: Collector, de: Sammler }
        challenge_goal: 10
        event_name: collect-item
        filters: [{ field: item_type, op: in, value: [coin, gem] }]
leaderboards:
  - key: scores
    name: Scores
    event_name: achieve-score
    value_field: score
    aggregation: max
`;
    const answer = await applied(appId, parse(yaml));
    expect(answer.summary).toEqual({ create: 4, update: 0, delete: 0, unmanaged: 0, blocked: 0 });
    const list = await player(appId, await tokenFor("newcomer")).all();
    expect(list.status).toBe(200);
    expect(
      list.body.map((c: any) => [c.category_slug, c.challenges.map((ch: any) => [ch.challenge_name, ch.type])]),
    ).toEqual([
      [
        "starter",
        [
          ["First blood", "in-progress"],
          ["Collector", "unlock"],
        ],
      ],
    ]);
  });

  it("the demo game's catalog (scripts/demo/catalog.yaml): a new user's first list shows its challenges", async () => {
    const { appId, tokenFor } = await createTestApp("Demo");
    await applied(appId, demoCatalog());
    const list = await player(appId, await tokenFor("first-visit")).all();
    expect(
      list.body.map((c: any) => [c.category_slug, c.challenges.map((ch: any) => `${ch.challenge_name} (${ch.type})`)]),
    ).toEqual([
      ["daily", ["Play 3 matches (in-progress)", "Collect 100 coins (in-progress)"]],
      ["weekly", ["Defeat 200 enemies (in-progress)", "25 laser kills in an hour (unlock)"]],
    ]);
  });
});
