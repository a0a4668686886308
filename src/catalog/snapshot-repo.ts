import type { PointsSystemRow } from "../points/catalog";
import type { AppSettingsColumns } from "../apps/settings";
import { LEVEL_ORDER, PASS_ORDER, type LevelRow, type PassRow } from "../battlepasses/catalog";
import type { CategoryRow, ChallengeRow } from "../challenges/repo";
import type { LeaderboardRow } from "../leaderboards/catalog";
import { notFound } from "../shared/errors";
import type { EndpointRow } from "../webhooks/endpoints-repo";
import type { CatalogSnapshot, LevelChallengeRow } from "./core/snapshot";
import { holderReads, holdersOf } from "./holders-store";

/** The app's whole configuration and its holder counts, in one D1 batch (one consistent read). */
export async function readSnapshot(db: D1Database, appId: number): Promise<CatalogSnapshot> {
  const of = (sql: string) => db.prepare(sql).bind(appId);
  const results = await db.batch<unknown>([
    of(
      "SELECT catalog_version, backend_only_events, rate_limit_per_user_per_minute, rate_limit_per_app_per_minute FROM apps WHERE app_id = ?",
    ),
    of("SELECT * FROM challenge_categories WHERE app_id = ? ORDER BY category_position, category_id"),
    of("SELECT * FROM challenges WHERE app_id = ? ORDER BY challenge_id"),
    of(`SELECT * FROM battle_passes WHERE app_id = ? ORDER BY ${PASS_ORDER}`),
    of(`SELECT * FROM battle_pass_levels WHERE app_id = ? ORDER BY ${LEVEL_ORDER}`),
    of("SELECT * FROM battle_pass_challenges WHERE app_id = ? ORDER BY level_id, position, challenge_id"),
    of("SELECT * FROM leaderboards WHERE app_id = ? ORDER BY leaderboard_id"),
    of("SELECT * FROM webhooks WHERE app_id = ? ORDER BY webhook_id"),
    ...holderReads(db, appId),
    of("SELECT * FROM points_systems WHERE app_id = ? ORDER BY system_id"),
  ]);
  const [
    app,
    categories,
    challenges,
    passes,
    levels,
    levelChallenges,
    leaderboards,
    webhooks,
    heldChallenges,
    heldPasses,
    pointsSystems,
  ] = results.map((r) => r.results);
  // Deleted since the caller found it.
  if (app.length === 0) throw notFound(`App ${appId} not found`);
  const { catalog_version, ...settings } = app[0] as AppSettingsColumns & { catalog_version: number };
  return {
    appId,
    version: catalog_version,
    settings,
    categories: categories as CategoryRow[],
    challenges: challenges as ChallengeRow[],
    passes: passes as PassRow[],
    levels: levels as LevelRow[],
    levelChallenges: levelChallenges as LevelChallengeRow[],
    leaderboards: leaderboards as LeaderboardRow[],
    webhooks: webhooks as EndpointRow[],
    pointsSystems: pointsSystems as PointsSystemRow[],
    holders: holdersOf(heldChallenges, heldPasses),
  };
}
