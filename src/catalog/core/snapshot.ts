import type { PointsSystemRow } from "../../points/catalog";
import type { AppSettingsColumns } from "../../apps/settings";
import type { ChallengeRow as LevelChallengeRow, LevelRow, PassRow } from "../../battlepasses/catalog";
import type { CategoryRow, ChallengeRow } from "../../challenges/repo";
import type { LeaderboardRow } from "../../leaderboards/catalog";
import type { EndpointRow } from "../../webhooks/endpoints-repo";
import type { Holders } from "../holders-store";

/**
 * An app's configuration as D1 holds it, read in one batch, in the order players see it
 * (categories by position, challenges by id, passes by priority, levels by position): what the
 * export writes and what a document is planned against.
 */
export interface CatalogSnapshot {
  appId: number;
  /** The app's catalog_version when it was read: an apply refuses to run over a newer one. */
  version: number;
  /** The app's fair-play settings, as its row holds them (a NULL rate limit: the default). */
  settings: AppSettingsColumns;
  categories: CategoryRow[];
  challenges: ChallengeRow[];
  passes: PassRow[];
  levels: LevelRow[];
  levelChallenges: LevelChallengeRow[];
  leaderboards: LeaderboardRow[];
  pointsSystems: PointsSystemRow[];
  webhooks: EndpointRow[];
  holders: Holders;
}

export type { LevelChallengeRow };
