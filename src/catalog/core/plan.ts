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
  canonicalWebhook,
  categoryDoc,
  challengeDoc,
  levelChallengeDoc,
  levelDoc,
  passDoc,
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

export type CatalogObject = "category" | "challenge" | "battle_pass" | "level" | "level_challenge" | "leaderboard" | "webhook";
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
    | { object: "category"; doc?: CatalogCategory; row?: CategoryRow }
    | { object: "challenge"; doc?: CatalogChallenge; categorySlug?: string; row?: ChallengeRow }
    | { object: "battle_pass"; doc?: CatalogBattlePass; row?: PassRow }
    | { object: "level"; doc?: CatalogLevel; passKey?: string; row?: LevelRow }
    | { object: "level_challenge"; doc?: CatalogLevelChallenge; passKey?: string; levelKey?: string; position?: number; row?: LevelChallengeRow }
    | { object: "leaderboard"; doc?: CatalogLeaderboard; row?: LeaderboardRow }
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
  return fields.filter((f) => !sameValue(b[f], a[f])).map((field) => ({ field, before: b[field] ?? null, after: a[field] ?? null }));
}

/** The fields that say what a challenge's counter counts: changing them under running counters changes what those mean. */
const COUNTER_FIELDS = ["event_name", "value_field", "filters", "challenge_goal", "challenge_goal_condition", "counter_scope"];

const HELD_WORDS: Record<HeldState, string> = { unlocked: "unlocked", "in-progress": "in progress", unclaimed: "completed and unclaimed" };

function describeHolders(held: Partial<Record<HeldState, number>>): string {
  return (Object.entries(held) as [HeldState, number][])
    .filter(([, n]) => n > 0)
    .map(([state, n]) => `${n} ${n === 1 ? "user holds" : "users hold"} it ${HELD_WORDS[state]}`)
    .join(", ");
}

const indexBy = <T>(rows: T[], key: (row: T) => string) => new Map(rows.map((row) => [key(row), row]));

export function planCatalog(doc: CatalogDocument, s: CatalogSnapshot, options: PlanOptions): CatalogPlan {
  const { now, prune } = options;
  const steps: Step[] = [];
  const unmanaged: CatalogPlan["unmanaged"] = [];
  const blocked: Blocker[] = [];
  const problems: FieldProblem[] = [];

  /** Records an object the document has: created, updated (fields that differ), or nothing when equal. */
  function upsert(step: StepOf, current: object | null, desired: object, nested?: string[], extra: FieldChange[] = []): Step | null {
    if (current === null) {
      const created = { ...step, action: "create", fields: [] } as Step;
      steps.push(created);
      return created;
    }
    const fields = [...changedFields(current, desired, nested), ...extra];
    if (fields.length === 0) return null;
    const updated = { ...step, action: "update", fields } as Step;
    steps.push(updated);
    return updated;
  }

  /** Records an object the document leaves out: deleted with prune, else unmanaged (its children with it, unlisted). */
  function leftOut(step: StepOf): boolean {
    if (!prune) {
      unmanaged.push({ object: step.object, ref: step.ref });
      return false;
    }
    steps.push({ ...step, action: "delete", fields: [] } as Step);
    return true;
  }

  // ---- categories and challenges (challenge keys are unique in the app, whatever their category)
  const categories = indexBy(s.categories, (c) => c.category_slug);
  const categoryOf = new Map(s.categories.map((c) => [c.category_id, c.category_slug]));
  const challenges = indexBy(s.challenges, (c) => c.key);
  const wantedChallenges = new Set(doc.categories.flatMap((c) => c.challenges.map((ch) => ch.key)));
  const deletedChallenges = new Set<string>();

  doc.categories.forEach((category) => {
    const row = categories.get(category.category_slug);
    upsert({ object: "category", ref: `categories/${category.category_slug}`, doc: category, row }, row ? categoryDoc(row, []) : null, canonicalCategory(category), [
      "challenges",
    ]);
    for (const challenge of category.challenges) {
      const current = challenges.get(challenge.key);
      const currentSlug = current ? categoryOf.get(current.category_id) : undefined;
      const move = current && currentSlug !== category.category_slug ? [{ field: "category", before: currentSlug, after: category.category_slug }] : [];
      const step = upsert(
        { object: "challenge", ref: `challenges/${challenge.key}`, doc: challenge, categorySlug: category.category_slug, row: current },
        current ? challengeDoc(current) : null,
        canonicalChallenge(challenge),
        [],
        move,
      );
      const inProgress = current ? (s.holders.challenges.get(current.challenge_id)?.["in-progress"] ?? 0) : 0;
      const counterChanges = step?.fields.filter((f) => COUNTER_FIELDS.includes(f.field)).map((f) => f.field) ?? [];
      if (step && inProgress > 0 && counterChanges.length > 0) {
        blocked.push({
          object: "challenge",
          ref: step.ref,
          problem: `${inProgress} ${inProgress === 1 ? "user has" : "users have"} it in progress: changing ${counterChanges.join(", ")} would change what their counters mean`,
        });
      }
    }
  });
  for (const row of s.challenges) {
    if (wantedChallenges.has(row.key)) continue;
    const ref = `challenges/${row.key}`;
    if (!leftOut({ object: "challenge", ref, row })) continue;
    deletedChallenges.add(row.key);
    const held = s.holders.challenges.get(row.challenge_id);
    const description = held ? describeHolders(held) : "";
    if (description) blocked.push({ object: "challenge", ref, problem: `deleting it would drop running player state: ${description}` });
  }
  // Pruned, a category's challenges are all deleted or moved to categories of the document.
  const wantedSlugs = new Set(doc.categories.map((c) => c.category_slug));
  for (const row of s.categories) if (!wantedSlugs.has(row.category_slug)) leftOut({ object: "category", ref: `categories/${row.category_slug}`, row });

  // A category may hold at most 1000 challenges, counting those the document leaves in it.
  doc.categories.forEach((category, i) => {
    const row = categories.get(category.category_slug);
    const kept = row ? s.challenges.filter((c) => c.category_id === row.category_id && !wantedChallenges.has(c.key) && !deletedChallenges.has(c.key)).length : 0;
    if (kept + category.challenges.length > MAX_CHALLENGES_PER_CATEGORY) {
      problems.push({
        field: `categories.${i}.challenges`,
        problem: `with the ${kept} challenges of the app that the document leaves in it, the category would hold more than ${MAX_CHALLENGES_PER_CATEGORY}`,
      });
    }
  });

  // ---- battle passes, levels and level challenges: what their users hold while the pass runs
  const passes = indexBy(s.passes, (p) => p.key);
  const levelsOf = (passId: number) => s.levels.filter((l) => l.battle_pass_id === passId);
  const challengesOf = (levelId: number) => s.levelChallenges.filter((c) => c.level_id === levelId);
  /** Users who unlocked the pass, while it has not ended: their counters and claims depend on it. */
  const runningHolders = (pass: PassRow | undefined) => {
    if (!pass || Date.parse(pass.end_date) <= now) return 0;
    return s.holders.passes.get(pass.battle_pass_id) ?? 0;
  };
  const blockIfHeld = (pass: PassRow | undefined, object: CatalogObject, ref: string, what: string) => {
    const users = runningHolders(pass);
    if (users > 0) blocked.push({ object, ref, problem: `${users} ${users === 1 ? "user has" : "users have"} unlocked battle pass ${pass!.key}, which runs until ${pass!.end_date}: ${what}` });
  };
  const wantedPasses = new Set(doc.battle_passes.map((p) => p.key));

  for (const row of s.passes) {
    if (wantedPasses.has(row.key)) continue;
    const ref = `battle_passes/${row.key}`;
    for (const level of prune ? levelsOf(row.battle_pass_id) : []) {
      for (const c of challengesOf(level.level_id)) leftOut({ object: "level_challenge", ref: `${ref}/levels/${level.key}/challenges/${c.key}`, row: c });
      leftOut({ object: "level", ref: `${ref}/levels/${level.key}`, row: level });
    }
    if (leftOut({ object: "battle_pass", ref, row })) blockIfHeld(row, "battle_pass", ref, "deleting it would drop their progress");
  }

  doc.battle_passes.forEach((pass, passIndex) => {
    const row = passes.get(pass.key);
    const ref = `battle_passes/${pass.key}`;
    upsert({ object: "battle_pass", ref, doc: pass, row }, row ? passDoc(row, []) : null, canonicalPass(pass), ["levels"]);
    const levels = row ? indexBy(levelsOf(row.battle_pass_id), (l) => l.key) : new Map<string, LevelRow>();
    const wantedLevels = new Set(pass.levels.map((l) => l.key));
    for (const level of levels.values()) {
      if (wantedLevels.has(level.key)) continue;
      const levelRef = `${ref}/levels/${level.key}`;
      for (const c of prune ? challengesOf(level.level_id) : []) leftOut({ object: "level_challenge", ref: `${levelRef}/challenges/${c.key}`, row: c });
      if (leftOut({ object: "level", ref: levelRef, row: level })) blockIfHeld(row, "level", levelRef, "deleting the level would drop their progress in it");
    }
    pass.levels.forEach((level, levelIndex) => {
      const levelRow = levels.get(level.key);
      const levelRef = `${ref}/levels/${level.key}`;
      upsert({ object: "level", ref: levelRef, doc: level, passKey: pass.key, row: levelRow }, levelRow ? levelDoc(levelRow, []) : null, canonicalLevel(level, levelRow), [
        "challenges",
      ]);
      const current = levelRow ? indexBy(challengesOf(levelRow.level_id), (c) => c.key) : new Map<string, LevelChallengeRow>();
      const wanted = new Set(level.challenges.map((c) => c.key));
      let kept = 0;
      for (const c of current.values()) {
        if (wanted.has(c.key)) continue;
        const challengeRef = `${levelRef}/challenges/${c.key}`;
        if (leftOut({ object: "level_challenge", ref: challengeRef, row: c })) blockIfHeld(row, "level_challenge", challengeRef, "deleting the challenge would drop their progress in it");
        else kept++;
      }
      if (kept + level.challenges.length > MAX_CHALLENGES_PER_LEVEL) {
        problems.push({
          field: `battle_passes.${passIndex}.levels.${levelIndex}.challenges`,
          problem: `with the ${kept} challenges of the app that the document leaves in it, the level would hold more than ${MAX_CHALLENGES_PER_LEVEL}`,
        });
      }
      level.challenges.forEach((challenge, position) => {
        const challengeRow = current.get(challenge.key);
        const challengeRef = `${levelRef}/challenges/${challenge.key}`;
        const moved = challengeRow && challengeRow.position !== position ? [{ field: "position", before: challengeRow.position, after: position }] : [];
        const step = upsert(
          { object: "level_challenge", ref: challengeRef, doc: challenge, passKey: pass.key, levelKey: level.key, position, row: challengeRow },
          challengeRow ? levelChallengeDoc(challengeRow) : null,
          canonicalLevelChallenge(challenge, position),
          [],
          moved,
        );
        const counterChanges = step?.fields.filter((f) => COUNTER_FIELDS.includes(f.field)).map((f) => f.field) ?? [];
        if (step && counterChanges.length > 0) blockIfHeld(row, "level_challenge", challengeRef, `changing ${counterChanges.join(", ")} would change what their counters mean`);
      });
    });
  });

  // ---- leaderboards and webhooks
  const boards = indexBy(s.leaderboards, (b) => b.key);
  const wantedBoards = new Set(doc.leaderboards.map((b) => b.key));
  for (const board of doc.leaderboards) {
    const row = boards.get(board.key);
    upsert({ object: "leaderboard", ref: `leaderboards/${board.key}`, doc: board, row }, row ? boardDoc(row, now) : null, canonicalBoard(board, now));
  }
  for (const row of s.leaderboards) if (!wantedBoards.has(row.key)) leftOut({ object: "leaderboard", ref: `leaderboards/${row.key}`, row });

  const hooks = indexBy(s.webhooks, (w) => w.key);
  const wantedHooks = new Set(doc.webhooks.map((w) => w.key));
  for (const hook of doc.webhooks) {
    const row = hooks.get(hook.key);
    // A secret in clear replaces the current one; a reference or nothing keeps it (a new endpoint gets a generated one).
    const secret = typeof hook.secret_key === "string" ? hook.secret_key : null;
    const newSecret = row && secret !== null && secret !== row.secret_key ? [{ field: "secret_key", before: "(secret)", after: "(new secret)" }] : [];
    upsert({ object: "webhook", ref: `webhooks/${hook.key}`, doc: hook, row, secret }, row ? webhookDoc(row) : null, canonicalWebhook(hook), [], newSecret);
  }
  for (const row of s.webhooks) if (!wantedHooks.has(row.key)) leftOut({ object: "webhook", ref: `webhooks/${row.key}`, row });

  return { steps, unmanaged, blocked, problems };
}

/** The plan as the API answers it: what changes, without rows or documents. */
export function presentPlan(plan: CatalogPlan) {
  const count = (action: Action) => plan.steps.filter((s) => s.action === action).length;
  return {
    summary: { create: count("create"), update: count("update"), delete: count("delete"), unmanaged: plan.unmanaged.length, blocked: plan.blocked.length },
    changes: plan.steps.map(({ action, object, ref, fields }) => ({ action, object, ref, fields })),
    unmanaged: plan.unmanaged,
    blocked: plan.blocked,
  };
}
