import { z } from "@hono/zod-openapi";
import type { PlayerRowsPart, PlayerStatePart } from "../kit/area";
import { toIso } from "../shared/clock";
import type { SeasonResult } from "./core/decide";
import { presentResult } from "./core/changes";
import { ResultSchema } from "./schemas";
import { userLeagues } from "./user-leagues";

/** What the leagues keep about a player: their object's memberships and claims, and their rows of D1's cohorts and results. */

const PlayerSeasons = z
  .array(
    z.object({
      league_id: z.string(),
      season_id: z.string(),
      cohort_id: z.string(),
      tier_index: z.number().int(),
      score: z.number().int(),
      result: ResultSchema.nullable().openapi({
        description: "Null while the season runs, or when the player took none (banned)",
      }),
    }),
  )
  .openapi({
    description:
      "Every season of every league the service keeps of the player (the last four ended and the running one)",
  });

interface SeasonRow {
  league_id: number;
  season_start: number;
  cohort_id: number;
  tier: number;
  score: number;
  results: string | null;
}

async function playerSeasons(env: Env, app: { app_id: number }, userId: string) {
  const rows = await env.DB.prepare(
    `SELECT m.league_id, m.season_start, m.cohort_id, m.tier, m.score, c.results FROM league_members m
     JOIN league_cohorts c ON c.cohort_id = m.cohort_id WHERE m.app_id = ? AND m.user_id = ?
     ORDER BY m.league_id, m.season_start`,
  )
    .bind(app.app_id, userId)
    .all<SeasonRow>();
  return rows.results.map((r) => {
    const result = (JSON.parse(r.results ?? "[]") as SeasonResult[]).find((x) => x.member_id === userId) ?? null;
    return {
      league_id: String(r.league_id),
      season_id: toIso(r.season_start),
      cohort_id: String(r.cohort_id),
      tier_index: r.tier,
      score: r.score,
      result: result ? presentResult(result) : null,
    };
  });
}

/** The cohorts the player is in, by key: every erasure statement finds them through the player's rows (?1 app, ?2 user). */
const PLAYER_COHORTS = "SELECT cohort_id FROM league_members WHERE app_id = ?1 AND user_id = ?2";

export const leaguePlayerRows: PlayerRowsPart = {
  // The player leaves their cohorts: ranks close up in the standings, and decided results no longer name them.
  eraseRows: (db, p) => [
    db
      .prepare(
        `UPDATE league_cohorts SET results = (SELECT json_group_array(json(value)) FROM json_each(league_cohorts.results)
           WHERE json_extract(value, '$.member_id') != ?2)
         WHERE results IS NOT NULL AND cohort_id IN (${PLAYER_COHORTS})`,
      )
      .bind(p.appId, p.userId),
    db
      .prepare(
        `UPDATE league_cohorts SET members = members - 1 WHERE decided_at IS NULL AND cohort_id IN (${PLAYER_COHORTS})`,
      )
      .bind(p.appId, p.userId),
    db.prepare("DELETE FROM league_members WHERE app_id = ?1 AND user_id = ?2").bind(p.appId, p.userId),
  ],
  export: [
    {
      key: "league_seasons",
      kind: "held",
      schema: PlayerSeasons,
      read: playerSeasons,
      held: (seasons) => ({ league_seasons: seasons.length }),
    },
  ],
};

const PlayerLeaguesState = z
  .object({
    memberships: z.array(
      z.object({
        league_id: z.string(),
        season_id: z.string().nullable(),
        score: z.number().int(),
        dropped_values: z.number().int().openapi({ description: "Events whose value was outside min_value/max_value" }),
      }),
    ),
    claims: z.array(z.object({ league_id: z.string(), season_id: z.string(), claimed_at: z.string() })),
  })
  .openapi("PlayerLeaguesState");

export const leaguesPlayerState: PlayerStatePart = {
  key: "leagues",
  schema: PlayerLeaguesState,
  read: (env, appId, userId) => userLeagues(env, appId, userId).stored(),
  held: (value) => ({ league_claims: (value as { claims: unknown[] }).claims.length }),
};
