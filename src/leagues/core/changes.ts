import type { Change } from "../../changes/types";
import type { SeasonResult } from "./decide";

/** The payloads of the leagues' webhooks and MQTT messages. */

export interface CohortRef {
  appId: string;
  leagueId: string;
  cohortId: string;
}

export const cohortTopic = (ref: CohortRef) =>
  ({ kind: "league-cohort", appId: ref.appId, leagueId: ref.leagueId, cohortId: ref.cohortId }) as const;

/** `league-standings-changed`: a cohort's standings after scores of its members moved, on the cohort's topic. */
export function standingsChange(
  ref: CohortRef,
  season: { seasonId: string; tier: string },
  cohort: Record<string, unknown>,
): Change {
  return {
    appId: ref.appId,
    webhookType: "league-standings-changed",
    topic: cohortTopic(ref),
    userId: null,
    payload: {
      webhook_type: "league-standings-changed",
      app_id: ref.appId,
      league_id: ref.leagueId,
      season_id: season.seasonId,
      tier: season.tier,
      ...cohort,
    },
  };
}

/** `league-season-ended`: one per cohort when its season's end decides it, with every member's result. */
export function seasonEndedChange(ref: CohortRef, seasonId: string, tier: string, results: SeasonResult[]): Change {
  return {
    appId: ref.appId,
    webhookType: "league-season-ended",
    topic: null,
    userId: null,
    payload: {
      webhook_type: "league-season-ended",
      app_id: ref.appId,
      league_id: ref.leagueId,
      season_id: seasonId,
      tier,
      cohort_id: ref.cohortId,
      results: results.map(presentResult),
    },
  };
}

/** `league-result`: one player's result, on their notifications topic. */
export function resultChange(appId: string, leagueId: string, result: SeasonResult): Change {
  return {
    appId,
    webhookType: "league-result",
    topic: { kind: "user-notifications", appId, userId: result.member_id },
    userId: result.member_id,
    payload: {
      webhook_type: "league-result",
      app_id: appId,
      league_id: leagueId,
      user_id: result.member_id,
      ...presentResult(result),
    },
  };
}

/** A result as answers and payloads show it. */
export const presentResult = (r: SeasonResult) => ({
  member_id: r.member_id,
  season_id: r.season_id,
  tier: r.tier,
  cohort_id: r.cohort_id,
  rank: r.rank,
  score: r.score,
  outcome: r.outcome,
  next_tier: r.next_tier,
  rewards: r.rewards,
});
