import { localize } from "../shared/localize";
import { toIso } from "../shared/clock";
import { tierAfter } from "./core/decide";
import { seasonRulesOf, type LeagueDef } from "./core/model";
import { seasonAt, seasonIdOf } from "./core/season";
import { presentResult } from "./core/changes";
import { lastResultOf, memberOf, parseRules, presentCohort, readSeason, readStandings } from "./store";
import { userLeagues } from "./user-leagues";

/**
 * The player's league as the player API, the console and the admin's view show it: the current
 * season, their tier and cohort's standings, and their last result with whether it is claimed.
 */
export async function playerLeague(
  env: Env,
  appId: string,
  league: LeagueDef,
  userId: string,
  now: number,
  language: string | undefined,
  defaultLanguage: string,
) {
  const db = env.DB;
  const season = seasonAt(league.schedule, now);
  const [seasonRow, member, last] = await Promise.all([
    readSeason(db, league.id, season.startsAt),
    memberOf(db, league.id, season.startsAt, userId),
    lastResultOf(db, Number(appId), league, userId),
  ]);
  const rules = seasonRow ? parseRules(seasonRow.rules) : seasonRulesOf(league);
  const keys = rules.tiers.map((t) => t.key);
  const tierIndex = member ? Math.min(member.tier, keys.length - 1) : tierAfter(last ? last.result : null, keys, 0);
  const tier = rules.tiers[tierIndex];
  const cohort = member ? presentCohort((await readStandings(db, appId, [member], rules))[0]) : null;
  const claimed = last ? await userLeagues(env, appId, userId).claimed(league.id, last.season) : false;
  return {
    league_id: league.id,
    name: localize(league.name, language, defaultLanguage),
    season: {
      season_id: seasonIdOf(season.startsAt),
      starts_at: toIso(season.startsAt),
      ends_at: toIso(season.endsAt),
    },
    tier: { key: tier.key, name: localize(tier.name, language, defaultLanguage), index: tierIndex },
    cohort,
    last_result: last ? { ...presentResult(last.result), claimed, claimable_until: toIso(last.claimableUntil) } : null,
  };
}
