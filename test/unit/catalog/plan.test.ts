import { describe, expect, it } from "vitest";
import { HolderTally } from "../../../src/challenges/core/holders";
import { planCatalog, sameValue } from "../../../src/catalog/core/plan";
import type { CatalogSnapshot } from "../../../src/catalog/core/snapshot";
import { documentProblems } from "../../../src/catalog/core/validate";
import { CatalogDocument } from "../../../src/catalog/schemas";
import type { PassRow, LevelRow, ChallengeRow as LevelChallengeRow } from "../../../src/battlepasses/catalog";

const NOW = Date.parse("2026-06-01T00:00:00Z");

const pass: PassRow = {
  battle_pass_id: 4,
  app_id: 1,
  key: "season",
  battle_pass_name: '"Season"',
  battle_pass_description: '""',
  battle_pass_short_description: '""',
  battle_pass_disclaimer: '""',
  battle_pass_priority: 0,
  package_sku_ios: "",
  package_sku_android: "",
  image_xs: "",
  image_s: "",
  image_m: "",
  image_l: "",
  image_xl: "",
  start_date: "2026-01-01T00:00:00.000Z",
  end_date: "2026-12-01T00:00:00.000Z",
  read_more_link: "",
  is_unlocked_incrementally: 1,
  is_active: 1,
  can_purchase_with_money: 0,
  can_purchase_with_coins: 0,
  backend_only_unlock: 0,
  expired_at: null,
  created_at: "",
  updated_at: "",
};
const level: LevelRow = {
  level_id: 7,
  app_id: 1,
  battle_pass_id: 4,
  key: "gold",
  level_priority: 0,
  reward_amount: "",
  reward_type_name: "",
  level_reward_type: "nothing",
  reward_webhook_url: null,
  points_rewards: "[]",
  created_at: "",
  updated_at: "",
};
const levelChallenge: LevelChallengeRow = {
  challenge_id: 9,
  app_id: 1,
  level_id: 7,
  key: "kills",
  position: 0,
  challenge_name: '"Kills"',
  challenge_goal: 10,
  challenge_goal_condition: 0,
  challenge_xp: 0,
  challenge_icon: "",
  challenge_icon_hd: "",
  event_name: "kill-enemy",
  value_field: null,
  filters: "[]",
  counter_scope: "session",
};

/** The app's settings columns: one backend-only event, its own per-player limit, the default per-app limit. */
const settings = {
  backend_only_events: '["grant-coins"]',
  rate_limit_per_user_per_minute: 600,
  rate_limit_per_app_per_minute: null,
};

const snapshot = (unlockedBy: number): CatalogSnapshot => ({
  appId: 1,
  version: 1,
  settings,
  categories: [],
  challenges: [],
  passes: [pass],
  levels: [level],
  levelChallenges: [levelChallenge],
  leaderboards: [],
  pointsSystems: [],
  streaks: [],
  achievements: [],
  leagues: [],
  webhooks: [],
  holders: { challenges: new Map(), passes: new Map([[4, unlockedBy]]) },
});

const doc = (goal: number) =>
  CatalogDocument.parse({
    version: 1,
    battle_passes: [
      {
        key: "season",
        battle_pass_name: "Season",
        start_date: "2026-01-01T00:00:00Z",
        end_date: "2026-12-01T00:00:00Z",
        levels: [
          {
            key: "gold",
            level_priority: 0,
            challenges: [{ key: "kills", challenge_name: "Kills", challenge_goal: goal, event_name: "kill-enemy" }],
          },
        ],
      },
    ],
  });

describe("planCatalog", () => {
  it("finds nothing to do when the document is what the app holds", () => {
    expect(planCatalog(doc(10), snapshot(0), { prune: false, now: NOW })).toEqual({
      steps: [],
      unmanaged: [],
      blocked: [],
      problems: [],
    });
  });

  it("blocks a new goal of a level challenge while users hold the running pass, and not once it has ended", () => {
    const running = planCatalog(doc(12), snapshot(3), { prune: false, now: NOW });
    expect(running.steps.map((s) => [s.action, s.ref, s.fields])).toEqual([
      [
        "update",
        "battle_passes/season/levels/gold/challenges/kills",
        [{ field: "challenge_goal", before: 10, after: 12 }],
      ],
    ]);
    expect(running.blocked).toEqual([
      {
        object: "level_challenge",
        ref: "battle_passes/season/levels/gold/challenges/kills",
        problem:
          "3 users have unlocked battle pass season, which runs until 2026-12-01T00:00:00.000Z: changing challenge_goal would change what their counters mean",
      },
    ]);
    expect(planCatalog(doc(12), snapshot(0), { prune: false, now: NOW }).blocked).toEqual([]);
    expect(
      planCatalog(doc(12), snapshot(3), { prune: false, now: Date.parse("2026-12-01T00:00:00Z") }).blocked,
    ).toEqual([]);
  });

  it("leaves out of the plan what the document leaves out, unless it prunes", () => {
    const empty = CatalogDocument.parse({ version: 1 });
    expect(planCatalog(empty, snapshot(0), { prune: false, now: NOW })).toMatchObject({
      steps: [],
      unmanaged: [{ object: "battle_pass", ref: "battle_passes/season" }],
    });
    expect(planCatalog(empty, snapshot(0), { prune: true, now: NOW }).steps.map((s) => `${s.action} ${s.ref}`)).toEqual(
      [
        "delete battle_passes/season/levels/gold/challenges/kills",
        "delete battle_passes/season/levels/gold",
        "delete battle_passes/season",
      ],
    );
  });
});

describe("planCatalog of the app's settings", () => {
  const app: CatalogSnapshot = { ...snapshot(0), passes: [], levels: [], levelChallenges: [] };
  const plan = (document: Record<string, unknown>, prune = false) =>
    planCatalog(CatalogDocument.parse({ version: 1, ...document }), app, { prune, now: NOW });

  it("finds nothing to do when the document's settings are the app's (events once each, limits left out being the defaults)", () => {
    const same = { backend_only_events: ["grant-coins", "grant-coins"], rate_limits: { per_user_per_minute: 600 } };
    expect(plan({ settings: same })).toEqual({ steps: [], unmanaged: [], blocked: [], problems: [] });
  });

  it("updates them in one step with each field that changes, a limit left out going back to the default", () => {
    const changed = plan({
      settings: {
        backend_only_events: ["grant-coins", "purchase-completed"],
        rate_limits: { per_app_per_minute: 100_000 },
      },
    });
    expect(changed.steps.map(({ action, object, ref, fields }) => ({ action, object, ref, fields }))).toEqual([
      {
        action: "update",
        object: "app_settings",
        ref: "settings",
        fields: [
          { field: "backend_only_events", before: ["grant-coins"], after: ["grant-coins", "purchase-completed"] },
          { field: "rate_limits", before: { per_user_per_minute: 600 }, after: { per_app_per_minute: 100_000 } },
        ],
      },
    ]);
    expect(plan({ settings: {} }).steps[0].fields).toEqual([
      { field: "backend_only_events", before: ["grant-coins"], after: [] },
      { field: "rate_limits", before: { per_user_per_minute: 600 }, after: {} },
    ]);
  });

  it("leaves the app's settings alone when the document has none, even with prune", () => {
    expect(plan({})).toEqual({ steps: [], unmanaged: [], blocked: [], problems: [] });
    expect(plan({}, true)).toEqual({ steps: [], unmanaged: [], blocked: [], problems: [] });
  });

  it("takes the settings by the admin API's rules, strictly, and no app name or language", () => {
    const problems = (settings: unknown) =>
      CatalogDocument.safeParse({ version: 1, settings }).error?.issues.map((i) => [i.path.join("."), i.code]);
    expect(
      problems({
        backend_only_events: ["grant-coins", 7],
        rate_limits: { per_user_per_minute: 0, per_app_per_minute: 1.5 },
      }),
    ).toEqual([
      ["settings.backend_only_events.1", "invalid_type"],
      ["settings.rate_limits.per_user_per_minute", "too_small"],
      ["settings.rate_limits.per_app_per_minute", "invalid_type"],
    ]);
    expect(problems({ name: "Space Racer", rate_limits: { per_player_per_minute: 10 } })).toEqual([
      ["settings.rate_limits", "unrecognized_keys"],
      ["settings", "unrecognized_keys"],
    ]);
  });
});

describe("sameValue", () => {
  it("compares JSON values, whatever the order of object keys", () => {
    expect(sameValue({ en: "A", de: "B" }, { de: "B", en: "A" })).toBe(true);
    expect(sameValue([1, { a: null }], [1, { a: null }])).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameValue("1", 1)).toBe(false);
    expect(sameValue(null, {})).toBe(false);
  });
});

describe("documentProblems", () => {
  it("finds keys used twice in their scope, and webhook URLs the environment does not allow", () => {
    const d = CatalogDocument.parse({
      version: 1,
      leaderboards: [
        { key: "a", name: "A", event_name: "x" },
        { key: "a", name: "B", event_name: "x" },
      ],
      webhooks: [
        { key: "h", webhook_type: "challenge-changed", url: "http://127.0.0.1:8080/hook", secret_key: { env: "HOOK" } },
      ],
    });
    expect(documentProblems(d, true)).toEqual([
      { field: "leaderboards.1.key", problem: "'a' is used more than once in the document's leaderboards" },
    ]);
    expect(documentProblems(d, false)).toEqual([
      { field: "leaderboards.1.key", problem: "'a' is used more than once in the document's leaderboards" },
      { field: "webhooks.0.url", problem: "must use https" },
    ]);
  });
});

describe("HolderTally", () => {
  it("sums +1/-1 per challenge and held state, leaving out what is not held and what sums to zero", () => {
    const tally = new HolderTally();
    tally.move("1", null, "unlocked");
    tally.move("1", "unlocked", "in-progress");
    tally.move("2", "in-progress", "finished");
    tally.move("3", "finished", null);
    tally.move("4", "in-progress", "in-progress");
    tally.move("5", "unclaimed", "gone");
    expect(tally.deltas()).toEqual([
      { object: "challenge", id: "1", state: "in-progress", delta: 1 },
      { object: "challenge", id: "2", state: "in-progress", delta: -1 },
      { object: "challenge", id: "5", state: "unclaimed", delta: -1 },
    ]);
  });
});
