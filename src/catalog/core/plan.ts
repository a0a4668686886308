import { canonicalPointsSystem, pointsSystemDoc, type CatalogPointsSystem } from "../../points/catalog-section";
import type { PointsSystemRow } from "../../points/catalog";
import type { LevelRow, PassRow } from "../../battlepasses/catalog";
import { MAX_CHALLENGES_PER_LEVEL } from "../../battlepasses/admin/schemas";
import { MAX_CHALLENGES_PER_CATEGORY } from "../../challenges/admin/schemas";
import type { CategoryRow, ChallengeRow } from "../../challenges/repo";
import type { LeaderboardRow } from "../../leaderboards/catalog";
import type { FieldProblem } from "../../shared/errors";
import type { EndpointRow } from "../../webhooks/endpoints-repo";
import type { HeldState } from "../../user/messages";
import type {
  CatalogBattlePass,
  CatalogCategory,
  CatalogChallenge,
  CatalogDocument,
  CatalogLeaderboard,
  CatalogLevel,
  CatalogLevelChallenge,
  CatalogSettings,
  CatalogWebhook,
} from "../schemas";
import {
  boardDoc,
  canonicalBoard,
  canonicalCategory,
  canonicalChallenge,
  canonicalLevel,
  canonicalLevelChallenge,
  canonicalPass,
  canonicalSettings,
  canonicalWebhook,
  categoryDoc,
  challengeDoc,
  levelChallengeDoc,
  levelDoc,
  passDoc,
  settingsDoc,
  webhookDoc,
} from "./documents";
import type { CatalogSnapshot, LevelChallengeRow } from "./snapshot";

/**
 * The difference between a document and an app, by key, pure. Every object of the document is
 * created or updated (with the fields that change), or left alone when equal; objects of the app
 * missing from the document are deleted with `prune`, else listed as unmanaged. A change that would
 * break running player state (what the app's users hold, per the D1 holder counts) is listed as
 * blocked: applying it needs `force`.
 */

export type CatalogObject =
  | "app_settings"
  | "category"
  | "challenge"
  | "battle_pass"
  | "level"
  | "level_challenge"
  | "leaderboard"
  | "points_system"
  | "webhook";
export type Action = "create" | "update" | "delete";

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** What an apply does to one object; `ref` names it by keys, e.g. `battle_passes/season-1/levels/gold`. */
interface StepBase {
  action: Action;
  object: CatalogObject;
  ref: string;
  fields: FieldChange[];
}

export type Step = StepBase &
  (
    | { object: "app_settings"; doc?: CatalogSettings }
    | { object: "category"; doc?: CatalogCategory; row?: CategoryRow }
    | { object: "challenge"; doc?: CatalogChallenge; categorySlug?: string; row?: ChallengeRow }
    | { object: "battle_pass"; doc?: CatalogBattlePass; row?: PassRow }
    | { object: "level"; doc?: CatalogLevel; passKey?: string; row?: LevelRow }
    | {
        object: "level_challenge";
        doc?: CatalogLevelChallenge;
        passKey?: string;
        levelKey?: string;
        position?: number;
        row?: LevelChallengeRow;
      }
    | { object: "leaderboard"; doc?: CatalogLeaderboard; row?: LeaderboardRow }
    | { object: "points_system"; doc?: CatalogPointsSystem; row?: PointsSystemRow }
    | { object: "webhook"; doc?: CatalogWebhook; row?: EndpointRow; secret?: string | null }
  );

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
/** A step before the plan decides its action and fields. */
type StepOf = DistributiveOmit<Step, "action" | "fields">;

export interface Blocker {
  object: CatalogObject;
  ref: string;
  problem: string;
}

export interface CatalogPlan {
  /** Document order; deletions of an object after those of its children. */
  steps: Step[];
  /** Objects of the app the document leaves out, kept because the plan does not prune. */
  unmanaged: { object: CatalogObject; ref: string }[];
  blocked: Blocker[];
  /** What makes the document impossible to apply to this app (400). */
  problems: FieldProblem[];
}

export interface PlanOptions {
  prune: boolean;
  now: number;
}

/** Equal as JSON, whatever the order of object keys. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const keysB = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** The fields that differ between two document objects; child lists (`nested`) are planned as objects of their own. */
function changedFields(before: object, after: object, nested: string[] = []): FieldChange[] {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((f) => !nested.includes(f));
  return fields
    .filter((f) => !sameValue(b[f], a[f]))
    .map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null }));
}

/**
 * The fields that say what a challenge's counter counts: changing them under running counters changes what those mean.
 */
const COUNTER_FIELDS = [
  "event_name",
  "value_field",
  "filters",
  "challenge_goal",
  "challenge_goal_condition",
  "counter_scope",
];

const HELD_WORDS: Record<HeldState, string> = {
  unlocked: "unlocked",
  "in-progress": "in progress",
  unclaimed: "completed and unclaimed",
};

function describeHolders(held: Partial<Record<HeldState, number>>): string {
  return (Object.entries(held) as [HeldState, number][])
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${usersWord(n, "user holds", "users hold")} it ${HELD_WORDS[state]}`)
    .join(", ");
}

const indexBy = <T>(rows: T[], key: (row: T) => string) => new Map(rows.map((row) => [key(row), row]));

const usersWord = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function planCatalog(doc: CatalogDocument, snapshot: CatalogSnapshot, options: PlanOptions): CatalogPlan {
  const planner = new Planner(snapshot, options);
  planner.settings(doc.settings);
  planner.categories(doc.categories);
  planner.battlePasses(doc.battle_passes);
  planner.leaderboards(doc.leaderboards);
  planner.pointsSystems(doc.points_systems);
  planner.webhooks(doc.webhooks);
  planner.plan.problems.push(...rewardProblems(doc, snapshot, options));
  return planner.plan;
}

/**
 * A points reward naming a system that the app will not have once the document is applied: one the
 * document names, or (without prune) one the app keeps.
 */
function rewardProblems(doc: CatalogDocument, snapshot: CatalogSnapshot, options: PlanOptions): FieldProblem[] {
  const known = new Set(doc.points_systems.map((s) => s.key));
  if (!options.prune) for (const row of snapshot.pointsSystems) known.add(row.key);
  const problems: FieldProblem[] = [];
  const check = (rewards: { system: string }[] | undefined, at: string) => {
    for (const [i, reward] of (rewards ?? []).entries()) {
      if (known.has(reward.system)) continue;
      problems.push({
        field: `${at}.points_rewards.${i}.system`,
        problem: `no points system '${reward.system}' in this app`,
      });
    }
  };
  for (const [i, category] of doc.categories.entries())
    for (const [j, challenge] of category.challenges.entries())
      check(challenge.points_rewards, `categories.${i}.challenges.${j}`);
  for (const [i, pass] of doc.battle_passes.entries())
    for (const [j, level] of pass.levels.entries()) check(level.points_rewards, `battle_passes.${i}.levels.${j}`);
  return problems;
}

/** Builds a plan area by area, in document order. */
class Planner {
  readonly plan: CatalogPlan = { steps: [], unmanaged: [], blocked: [], problems: [] };

  constructor(
    private readonly s: CatalogSnapshot,
    private readonly options: PlanOptions,
  ) {}

  /** Records an object the document has: created, updated (fields that differ), or nothing when equal. */
  private upsert(
    step: StepOf,
    current: object | null,
    desired: object,
    nested: string[] = [],
    extra: FieldChange[] = [],
  ): Step | null {
    const fields = current === null ? [] : [...changedFields(current, desired, nested), ...extra];
    if (current !== null && fields.length === 0) return null;
    const planned = { ...step, action: current === null ? "create" : "update", fields } as Step;
    this.plan.steps.push(planned);
    return planned;
  }

  /** Records an object the document leaves out: deleted with prune, else unmanaged (its children with it, unlisted). */
  private leftOut(step: StepOf): boolean {
    if (!this.options.prune) {
      this.plan.unmanaged.push({ object: step.object, ref: step.ref });
      return false;
    }
    this.plan.steps.push({ ...step, action: "delete", fields: [] } as Step);
    return true;
  }

  private block(object: CatalogObject, ref: string, problem: string): void {
    this.plan.blocked.push({ object, ref, problem });
  }

  /**
   * The app's settings, which always exist: updated when the document's differ. A document without
   * them leaves the app's alone, even with prune (they are not an object the document could leave out).
   */
  settings(wanted: CatalogSettings | undefined): void {
    if (wanted)
      this.upsert(
        { object: "app_settings", ref: "settings", doc: wanted },
        settingsDoc(this.s.settings),
        canonicalSettings(wanted),
      );
  }

  /** Categories with their challenges; challenge keys are unique in the app, whatever their category. */
  categories(wanted: CatalogCategory[]): void {
    const { s } = this;
    const categories = indexBy(s.categories, (c) => c.category_slug);
    const slugOf = new Map(s.categories.map((c) => [c.category_id, c.category_slug]));
    const challenges = indexBy(s.challenges, (c) => c.key);
    const wantedKeys = new Set(wanted.flatMap((c) => c.challenges.map((ch) => ch.key)));

    for (const category of wanted) {
      const row = categories.get(category.category_slug);
      const ref = `categories/${category.category_slug}`;
      this.upsert(
        { object: "category", ref, doc: category, row },
        row ? categoryDoc(row, []) : null,
        canonicalCategory(category),
        ["challenges"],
      );
      for (const challenge of category.challenges) {
        const current = challenges.get(challenge.key);
        const slug = current ? slugOf.get(current.category_id) : undefined;
        const move =
          current && slug !== category.category_slug
            ? [{ field: "category", before: slug, after: category.category_slug }]
            : [];
        const step = this.upsert(
          {
            object: "challenge",
            ref: `challenges/${challenge.key}`,
            doc: challenge,
            categorySlug: category.category_slug,
            row: current,
          },
          current ? challengeDoc(current) : null,
          canonicalChallenge(challenge),
          [],
          move,
        );
        const inProgress = current ? (s.holders.challenges.get(current.challenge_id)?.["in-progress"] ?? 0) : 0;
        const counting = countingChanges(step);
        if (inProgress > 0 && counting.length > 0) {
          this.block(
            "challenge",
            step!.ref,
            `${usersWord(inProgress, "user has", "users have")} it in progress: changing ${counting.join(", ")} would change what their counters mean`,
          );
        }
      }
    }

    const kept = new Set(s.challenges.filter((c) => !wantedKeys.has(c.key)).map((c) => c.key));
    for (const row of s.challenges) {
      if (wantedKeys.has(row.key)) continue;
      const ref = `challenges/${row.key}`;
      if (!this.leftOut({ object: "challenge", ref, row })) continue;
      kept.delete(row.key);
      const holders = describeHolders(s.holders.challenges.get(row.challenge_id) ?? {});
      if (holders) this.block("challenge", ref, `deleting it would drop running player state: ${holders}`);
    }
    // Pruned, a category's challenges are all deleted or moved to categories of the document.
    const wantedSlugs = new Set(wanted.map((c) => c.category_slug));
    for (const row of s.categories)
      if (!wantedSlugs.has(row.category_slug))
        this.leftOut({ object: "category", ref: `categories/${row.category_slug}`, row });

    // A category holds at most 1000 challenges, counting those of the app the document leaves in it.
    wanted.forEach((category, i) => {
      const row = categories.get(category.category_slug);
      const staying = row ? s.challenges.filter((c) => c.category_id === row.category_id && kept.has(c.key)).length : 0;
      if (staying + category.challenges.length > MAX_CHALLENGES_PER_CATEGORY) {
        this.plan.problems.push({
          field: `categories.${i}.challenges`,
          problem: `with the ${staying} challenges of the app that the document leaves in it, the category would hold more than ${MAX_CHALLENGES_PER_CATEGORY}`,
        });
      }
    });
  }

  /** Users who unlocked a pass that has not ended: their counters and claims depend on it. */
  private blockIfHeld(pass: PassRow | undefined, object: CatalogObject, ref: string, what: string): void {
    if (!pass || Date.parse(pass.end_date) <= this.options.now) return;
    const users = this.s.holders.passes.get(pass.battle_pass_id) ?? 0;
    if (users > 0)
      this.block(
        object,
        ref,
        `${usersWord(users, "user has", "users have")} unlocked battle pass ${pass.key}, which runs until ${pass.end_date}: ${what}`,
      );
  }

  private levelsOf = (passId: number) => this.s.levels.filter((l) => l.battle_pass_id === passId);
  private challengesOf = (levelId: number) => this.s.levelChallenges.filter((c) => c.level_id === levelId);

  /** A level the document leaves out, and with prune its challenges before it. */
  private levelLeftOut(pass: PassRow, level: LevelRow): void {
    const ref = `battle_passes/${pass.key}/levels/${level.key}`;
    for (const c of this.options.prune ? this.challengesOf(level.level_id) : [])
      this.leftOut({ object: "level_challenge", ref: `${ref}/challenges/${c.key}`, row: c });
    if (this.leftOut({ object: "level", ref, row: level }))
      this.blockIfHeld(pass, "level", ref, "deleting the level would drop their progress in it");
  }

  /**
   * Battle passes with their levels and level challenges: levels are keyed in their pass, challenges in their level.
   */
  battlePasses(wanted: CatalogBattlePass[]): void {
    const passes = indexBy(this.s.passes, (p) => p.key);
    const wantedKeys = new Set(wanted.map((p) => p.key));
    for (const row of this.s.passes) {
      if (wantedKeys.has(row.key)) continue;
      const ref = `battle_passes/${row.key}`;
      for (const level of this.options.prune ? this.levelsOf(row.battle_pass_id) : []) {
        for (const c of this.challengesOf(level.level_id))
          this.leftOut({ object: "level_challenge", ref: `${ref}/levels/${level.key}/challenges/${c.key}`, row: c });
        this.leftOut({ object: "level", ref: `${ref}/levels/${level.key}`, row: level });
      }
      if (this.leftOut({ object: "battle_pass", ref, row }))
        this.blockIfHeld(row, "battle_pass", ref, "deleting it would drop their progress");
    }

    wanted.forEach((pass, passIndex) => {
      const row = passes.get(pass.key);
      this.upsert(
        { object: "battle_pass", ref: `battle_passes/${pass.key}`, doc: pass, row },
        row ? passDoc(row, []) : null,
        canonicalPass(pass),
        ["levels"],
      );
      const levels = row ? indexBy(this.levelsOf(row.battle_pass_id), (l) => l.key) : new Map<string, LevelRow>();
      const wantedLevels = new Set(pass.levels.map((l) => l.key));
      for (const level of levels.values()) if (!wantedLevels.has(level.key)) this.levelLeftOut(row!, level);
      pass.levels.forEach((level, levelIndex) =>
        this.level(pass, row, level, levels.get(level.key), `battle_passes.${passIndex}.levels.${levelIndex}`),
      );
    });
  }

  private level(
    pass: CatalogBattlePass,
    passRow: PassRow | undefined,
    level: CatalogLevel,
    row: LevelRow | undefined,
    path: string,
  ): void {
    const ref = `battle_passes/${pass.key}/levels/${level.key}`;
    this.upsert(
      { object: "level", ref, doc: level, passKey: pass.key, row },
      row ? levelDoc(row, []) : null,
      canonicalLevel(level, row),
      ["challenges"],
    );
    const current = row ? indexBy(this.challengesOf(row.level_id), (c) => c.key) : new Map<string, LevelChallengeRow>();
    const wanted = new Set(level.challenges.map((c) => c.key));
    let staying = 0;
    for (const c of current.values()) {
      if (wanted.has(c.key)) continue;
      const challengeRef = `${ref}/challenges/${c.key}`;
      if (this.leftOut({ object: "level_challenge", ref: challengeRef, row: c }))
        this.blockIfHeld(
          passRow,
          "level_challenge",
          challengeRef,
          "deleting the challenge would drop their progress in it",
        );
      else staying++;
    }
    if (staying + level.challenges.length > MAX_CHALLENGES_PER_LEVEL) {
      this.plan.problems.push({
        field: `${path}.challenges`,
        problem: `with the ${staying} challenges of the app that the document leaves in it, the level would hold more than ${MAX_CHALLENGES_PER_LEVEL}`,
      });
    }
    level.challenges.forEach((challenge, position) => {
      const challengeRow = current.get(challenge.key);
      const challengeRef = `${ref}/challenges/${challenge.key}`;
      const moved =
        challengeRow && challengeRow.position !== position
          ? [{ field: "position", before: challengeRow.position, after: position }]
          : [];
      const step = this.upsert(
        {
          object: "level_challenge",
          ref: challengeRef,
          doc: challenge,
          passKey: pass.key,
          levelKey: level.key,
          position,
          row: challengeRow,
        },
        challengeRow ? levelChallengeDoc(challengeRow) : null,
        canonicalLevelChallenge(challenge, position),
        [],
        moved,
      );
      const counting = countingChanges(step);
      if (counting.length > 0)
        this.blockIfHeld(
          passRow,
          "level_challenge",
          challengeRef,
          `changing ${counting.join(", ")} would change what their counters mean`,
        );
    });
  }

  leaderboards(wanted: CatalogLeaderboard[]): void {
    const boards = indexBy(this.s.leaderboards, (b) => b.key);
    const wantedKeys = new Set(wanted.map((b) => b.key));
    for (const board of wanted) {
      const row = boards.get(board.key);
      const now = this.options.now;
      this.upsert(
        { object: "leaderboard", ref: `leaderboards/${board.key}`, doc: board, row },
        row ? boardDoc(row, now) : null,
        canonicalBoard(board, now),
      );
    }
    for (const row of this.s.leaderboards)
      if (!wantedKeys.has(row.key)) this.leftOut({ object: "leaderboard", ref: `leaderboards/${row.key}`, row });
  }

  pointsSystems(wanted: CatalogPointsSystem[]): void {
    const systems = indexBy(this.s.pointsSystems, (s) => s.key);
    const wantedKeys = new Set(wanted.map((s) => s.key));
    for (const system of wanted) {
      const row = systems.get(system.key);
      this.upsert(
        { object: "points_system", ref: `points_systems/${system.key}`, doc: system, row },
        row ? pointsSystemDoc(row) : null,
        canonicalPointsSystem(system),
      );
    }
    for (const row of this.s.pointsSystems)
      if (!wantedKeys.has(row.key)) this.leftOut({ object: "points_system", ref: `points_systems/${row.key}`, row });
  }

  /** A secret in clear replaces the current one; a reference or none keeps it (a new endpoint gets a generated one). */
  webhooks(wanted: CatalogWebhook[]): void {
    const hooks = indexBy(this.s.webhooks, (w) => w.key);
    const wantedKeys = new Set(wanted.map((w) => w.key));
    for (const hook of wanted) {
      const row = hooks.get(hook.key);
      const secret = typeof hook.secret_key === "string" ? hook.secret_key : null;
      const newSecret =
        row && secret !== null && secret !== row.secret_key
          ? [{ field: "secret_key", before: "(secret)", after: "(new secret)" }]
          : [];
      this.upsert(
        { object: "webhook", ref: `webhooks/${hook.key}`, doc: hook, row, secret },
        row ? webhookDoc(row) : null,
        canonicalWebhook(hook),
        [],
        newSecret,
      );
    }
    for (const row of this.s.webhooks)
      if (!wantedKeys.has(row.key)) this.leftOut({ object: "webhook", ref: `webhooks/${row.key}`, row });
  }
}

/** The counter-defining fields an update changes. */
const countingChanges = (step: Step | null) =>
  step?.fields.filter((f) => COUNTER_FIELDS.includes(f.field)).map((f) => f.field) ?? [];

/** The plan as the API answers it: what changes, without rows or documents. */
export function presentPlan(plan: CatalogPlan) {
  const count = (action: Action) => plan.steps.filter((s) => s.action === action).length;
  return {
    summary: {
      create: count("create"),
      update: count("update"),
      delete: count("delete"),
      unmanaged: plan.unmanaged.length,
      blocked: plan.blocked.length,
    },
    changes: plan.steps.map(({ action, object, ref, fields }) => ({ action, object, ref, fields })),
    unmanaged: plan.unmanaged,
    blocked: plan.blocked,
  };
}
