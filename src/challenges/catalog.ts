import { cachedCatalog } from "../apps/catalog-cache";
import { indexCatalog, type ChallengeCatalog, type ChallengeDef } from "./core/model";
import { toCategoryDef, toChallengeDef, type CategoryRow, type ChallengeRow } from "./rows";

/** An app's whole challenge configuration in one D1 batch; cached until an admin write bumps the version. */
async function loadChallengeCatalog(db: D1Database, appId: string): Promise<ChallengeCatalog> {
  const id = Number(appId);
  const [app, categories, challenges] = await db.batch<unknown>([
    db.prepare("SELECT default_language FROM apps WHERE app_id = ?").bind(id),
    db.prepare("SELECT * FROM challenge_categories WHERE app_id = ? ORDER BY category_position, category_id").bind(id),
    db.prepare("SELECT * FROM challenges WHERE app_id = ? ORDER BY challenge_id").bind(id),
  ]);
  const byCategory = new Map<number, ChallengeDef[]>();
  for (const row of challenges.results as ChallengeRow[]) {
    const list = byCategory.get(row.category_id) ?? [];
    list.push(toChallengeDef(row));
    byCategory.set(row.category_id, list);
  }
  const defaultLanguage = (app.results[0] as { default_language: string } | undefined)?.default_language ?? "en";
  return indexCatalog(
    defaultLanguage,
    (categories.results as CategoryRow[]).map((row) => toCategoryDef(row, byCategory.get(row.category_id) ?? [])),
  );
}

export const challengeCatalog = (db: D1Database, appId: string) =>
  cachedCatalog(db, "challenges", appId, loadChallengeCatalog);
