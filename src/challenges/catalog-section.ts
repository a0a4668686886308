import { z } from "@hono/zod-openapi";

import {
  byId,
  countingChanges,
  describeHolders,
  duplicateKeys,
  fieldsOf,
  indexBy,
  pick,
  usersWord,
  type CatalogPlanner,
  type CatalogSection,
  type CatalogSnapshot,
  type Step,
} from "../kit/catalog";

import { toIso } from "../shared/clock";

import { ConfigKey } from "../shared/schemas";

import {
  categoryBySlug,
  categoryColumns,
  challengeColumns,
  deleteCategoryStatement,
  deleteChallengeStatement,
  insertCategoryStatement,
  insertChallengeStatement,
  updateCategoryStatement,
  updateChallengeStatement,
} from "./admin/repo";

import { CategoryInput, ChallengeFields, MAX_CHALLENGES_PER_CATEGORY, challengeRule } from "./admin/schemas";

import { presentCategoryRow, presentChallengeRow, type CategoryRow, type ChallengeRow } from "./rows";

/** The challenges of the catalog document: categories, by slug, with their challenges, by key. */

export const CatalogChallenge = ChallengeFields.omit({ category_id: true })
  .extend({
    key: ConfigKey.openapi({ description: "Unique in the app; how documents and deployments refer to the challenge" }),
  })
  .strict()
  .superRefine(challengeRule)
  .openapi("CatalogChallenge");

export const CatalogCategory = CategoryInput.extend({
  challenges: z.array(CatalogChallenge).max(MAX_CHALLENGES_PER_CATEGORY).default([]),
})
  .strict()
  .openapi("CatalogCategory", {
    description:
      "A challenge category, identified by its category_slug, with its challenges. Players see a category's challenges in the order they were created: new ones in the document's order, after those that exist.",
  });

export type CatalogCategory = z.infer<typeof CatalogCategory>;
export type CatalogChallenge = z.infer<typeof CatalogChallenge>;

interface ChallengesSnapshot extends CatalogSnapshot {
  categories: CategoryRow[];
  challenges: ChallengeRow[];
}

const CATEGORY_FIELDS = fieldsOf(CategoryInput.shape);
const CHALLENGE_FIELDS = fieldsOf(ChallengeFields.shape, "category_id");

export const categoryDoc = (row: CategoryRow, challenges: CatalogChallenge[]) =>
  ({ ...pick(presentCategoryRow(row), CATEGORY_FIELDS), challenges }) as CatalogCategory;

export const challengeDoc = (row: ChallengeRow) =>
  ({ key: row.key, ...pick(presentChallengeRow(row), CHALLENGE_FIELDS) }) as CatalogChallenge;

const TIMES = { created_at: "", updated_at: "" };

const canonicalCategory = (doc: CatalogCategory): CatalogCategory =>
  categoryDoc({ category_id: 0, app_id: 0, ...TIMES, ...categoryColumns(doc) } as CategoryRow, doc.challenges);

const canonicalChallenge = (doc: CatalogChallenge): CatalogChallenge =>
  challengeDoc({
    challenge_id: 0,
    app_id: 0,
    category_id: 0,
    key: doc.key,
    ...TIMES,
    ...challengeColumns(doc),
  } as ChallengeRow);

function exportCategories(snapshot: CatalogSnapshot): CatalogCategory[] {
  const s = snapshot as ChallengesSnapshot;
  const challengesBy = byId(s.challenges, (c) => c.category_id);
  return s.categories.map((row) => categoryDoc(row, (challengesBy.get(row.category_id) ?? []).map(challengeDoc)));
}

/** Categories with their challenges; challenge keys are unique in the app, whatever their category. */
function planCategories(p: CatalogPlanner, wanted: CatalogCategory[], s: ChallengesSnapshot): void {
  const categories = indexBy(s.categories, (c) => c.category_slug);
  const slugOf = new Map(s.categories.map((c) => [c.category_id, c.category_slug]));
  const challenges = indexBy(s.challenges, (c) => c.key);
  const wantedKeys = new Set(wanted.flatMap((c) => c.challenges.map((ch) => ch.key)));

  for (const category of wanted) {
    const row = categories.get(category.category_slug);
    const ref = `categories/${category.category_slug}`;
    p.upsert(
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
      const step = p.upsert(
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
        p.block(
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
    if (!p.leftOut({ object: "challenge", ref, row })) continue;
    kept.delete(row.key);
    const holders = describeHolders(s.holders.challenges.get(row.challenge_id) ?? {});
    if (holders) p.block("challenge", ref, `deleting it would drop running player state: ${holders}`);
  }
  // Pruned, a category's challenges are all deleted or moved to categories of the document.
  const wantedSlugs = new Set(wanted.map((c) => c.category_slug));
  for (const row of s.categories)
    if (!wantedSlugs.has(row.category_slug))
      p.leftOut({ object: "category", ref: `categories/${row.category_slug}`, row });

  // A category holds at most 1000 challenges, counting those of the app the document leaves in it.
  wanted.forEach((category, i) => {
    const row = categories.get(category.category_slug);
    const staying = row ? s.challenges.filter((c) => c.category_id === row.category_id && kept.has(c.key)).length : 0;
    if (staying + category.challenges.length > MAX_CHALLENGES_PER_CATEGORY) {
      p.problem(
        `categories.${i}.challenges`,
        `with the ${staying} challenges of the app that the document leaves in it, the category would hold more than ${MAX_CHALLENGES_PER_CATEGORY}`,
      );
    }
  });
}

/**
 * A category may hold more than 1000 challenges for a moment inside the batch; the plan checked the sizes it leaves.
 */
const SIZES_CHECKED_BY_PLAN = Number.MAX_SAFE_INTEGER;

function statement(db: D1Database, appId: number, step: Step, now: number): D1PreparedStatement {
  const nowIso = toIso(now);
  const deleting = step.action === "delete";
  if (step.object === "category") {
    if (deleting) return deleteCategoryStatement(db, step.row.category_id);
    return step.row
      ? updateCategoryStatement(db, step.row.category_id, step.doc, nowIso)
      : insertCategoryStatement(db, appId, step.doc, nowIso);
  }
  if (deleting) return deleteChallengeStatement(db, step.row.challenge_id);
  const category = categoryBySlug(appId, step.categorySlug as string);
  return step.row
    ? updateChallengeStatement(db, step.row.challenge_id, category, step.doc, nowIso, SIZES_CHECKED_BY_PLAN)
    : insertChallengeStatement(db, appId, category, step.doc, nowIso, SIZES_CHECKED_BY_PLAN);
}

export const challengeCatalogSection: CatalogSection = {
  key: "categories",
  schema: z.array(CatalogCategory).max(1000).default([]),
  objects: {
    category: { resource: "challenge-category", label: "category", deletedDoc: (step) => categoryDoc(step.row, []) },
    challenge: { resource: "challenge", label: "challenge", deletedDoc: (step) => challengeDoc(step.row) },
  },
  // Once the challenges that stay have moved out of them.
  deletedLast: ["category"],
  reads: (db, appId) => ({
    categories: db
      .prepare("SELECT * FROM challenge_categories WHERE app_id = ? ORDER BY category_position, category_id")
      .bind(appId),
    challenges: db.prepare("SELECT * FROM challenges WHERE app_id = ? ORDER BY challenge_id").bind(appId),
  }),
  export: exportCategories,
  plan: (planner, wanted, snapshot) =>
    planCategories(planner, wanted as CatalogCategory[], snapshot as ChallengesSnapshot),
  statement,
  problems: (docs) => {
    const categories = docs as CatalogCategory[];
    return [
      ...duplicateKeys(
        categories.map((c, i) => ({ key: c.category_slug, field: `categories.${i}.category_slug` })),
        "the document's categories",
      ),
      ...duplicateKeys(
        categories.flatMap((c, i) =>
          c.challenges.map((ch, j) => ({ key: ch.key, field: `categories.${i}.challenges.${j}.key` })),
        ),
        "the document's challenges",
      ),
    ];
  },
};
