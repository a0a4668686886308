import { readUserInfos, type UserInfo } from "../auth/user-info";
import { rankCohort, type RankedMember, type SeasonResult } from "./core/decide";
import type { LeagueDef, SeasonRules } from "./core/model";
import { seasonAfter } from "./core/season";

/**
 * D1 reads of the leagues' seasons, cohorts and standings (migrations/0019_leagues.sql). A banned
 * player (a row of player_bans) is hidden from standings and takes no result while banned.
 */

export const NOT_BANNED =
  "NOT EXISTS (SELECT 1 FROM player_bans b WHERE b.app_id = m.app_id AND b.user_id = m.user_id)";

export interface CohortRow {
  cohort_id: number;
  league_id: number;
  season_start: number;
  app_id: number;
  tier: number;
  cohort_no: number;
  size: number;
  members: number;
  closed: number;
  claim: string | null;
  claimed_at: number | null;
  results: string | null;
  decided_at: number | null;
}

export interface MemberRow {
  league_id: number;
  season_start: number;
  user_id: string;
  app_id: number;
  cohort_id: number;
  tier: number;
  score: number;
  reached_at: number;
  joined_at: number;
}

export interface SeasonRow {
  league_id: number;
  season_start: number;
  app_id: number;
  ends_at: number;
  rules: string;
  state: "open" | "ending" | "ended";
  ended_at: number | null;
}

export const parseRules = (raw: string) => JSON.parse(raw) as SeasonRules;

/** The members of cohorts who are not banned, in one read. */
export async function cohortMembers(db: D1Database, cohortIds: number[]): Promise<Map<number, MemberRow[]>> {
  const byCohort = new Map<number, MemberRow[]>(cohortIds.map((id) => [id, []]));
  if (cohortIds.length === 0) return byCohort;
  const rows = await db
    .prepare(`SELECT m.* FROM league_members m WHERE m.cohort_id IN (SELECT value FROM json_each(?)) AND ${NOT_BANNED}`)
    .bind(JSON.stringify(cohortIds))
    .all<MemberRow>();
  for (const row of rows.results) byCohort.get(row.cohort_id)?.push(row);
  return byCohort;
}

export const asCohortMember = (m: MemberRow) => ({
  memberId: m.user_id,
  score: m.score,
  reachedAt: m.reached_at,
  joinedAt: m.joined_at,
});

/** A cohort's standings as players see them. */
export interface Standings {
  cohort: CohortRow;
  ranked: RankedMember[];
  infos: Map<string, UserInfo>;
}

/** The standings of cohorts of one season, in two reads (members, then their user info). */
export async function readStandings(
  db: D1Database,
  appId: string,
  cohorts: CohortRow[],
  rules: SeasonRules,
): Promise<Standings[]> {
  const members = await cohortMembers(
    db,
    cohorts.map((c) => c.cohort_id),
  );
  const tiers = rules.tiers.length;
  const ranked = cohorts.map((cohort) =>
    rankCohort(
      (members.get(cohort.cohort_id) ?? []).map(asCohortMember),
      rules,
      Math.min(cohort.tier, tiers - 1),
      tiers,
    ),
  );
  const infos = await readUserInfos(
    db,
    appId,
    ranked.flat().map((m) => m.memberId),
  );
  return cohorts.map((cohort, i) => ({ cohort, ranked: ranked[i], infos }));
}

const NO_INFO: UserInfo = { username: null, avatarImage: null };

/** The cohort as the player API, its topic and its webhook show it. */
export function presentCohort(s: Standings) {
  return {
    cohort_id: String(s.cohort.cohort_id),
    size: s.cohort.size,
    promote: s.ranked.filter((m) => m.zone === "promotion").length,
    demote: s.ranked.filter((m) => m.zone === "demotion").length,
    members: s.ranked.map((m) => ({
      member_id: m.memberId,
      rank: m.rank,
      score: m.score,
      additional_info: s.infos.get(m.memberId) ?? NO_INFO,
      zone: m.zone,
    })),
  };
}

/** The player's row in a season, with their cohort, or null. */
export async function memberOf(db: D1Database, leagueId: string, season: number, userId: string) {
  return db
    .prepare(
      `SELECT c.*, m.score, m.user_id FROM league_members m JOIN league_cohorts c ON c.cohort_id = m.cohort_id
       WHERE m.league_id = ? AND m.season_start = ? AND m.user_id = ?`,
    )
    .bind(Number(leagueId), season, userId)
    .first<CohortRow & { score: number; user_id: string }>();
}

export const readSeason = (db: D1Database, leagueId: string, season: number) =>
  db
    .prepare("SELECT * FROM league_seasons WHERE league_id = ? AND season_start = ?")
    .bind(Number(leagueId), season)
    .first<SeasonRow>();

/** A player's result of a season, and until when it can be claimed (the next season's end). */
export interface PlayerResult {
  season: number;
  result: SeasonResult;
  claimableUntil: number;
}

/**
 * The player's last decided result in the league: the latest season they played whose cohort is
 * decided and whose results name them (a player banned at the season's end has none).
 */
export async function lastResultOf(
  db: D1Database,
  appId: number,
  league: LeagueDef,
  userId: string,
): Promise<PlayerResult | null> {
  const row = await db
    .prepare(
      `SELECT m.season_start, c.results, s.ends_at FROM league_members m
       JOIN league_cohorts c ON c.cohort_id = m.cohort_id
       JOIN league_seasons s ON s.league_id = m.league_id AND s.season_start = m.season_start
       WHERE m.app_id = ? AND m.user_id = ? AND m.league_id = ? AND c.decided_at IS NOT NULL
       ORDER BY m.season_start DESC LIMIT 1`,
    )
    .bind(appId, userId, Number(league.id))
    .first<{ season_start: number; results: string; ends_at: number }>();
  if (!row) return null;
  const result = (JSON.parse(row.results) as SeasonResult[]).find((r) => r.member_id === userId);
  if (!result) return null;
  return { season: row.season_start, result, claimableUntil: seasonAfter(league.schedule, row.ends_at).endsAt };
}
