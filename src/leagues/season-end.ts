import type { Change, ChangeSink } from "../changes/types";
import { resultChange, seasonEndedChange } from "./core/changes";
import { decideCohort } from "./core/decide";
import { seasonIdOf } from "./core/season";
import { asCohortMember, cohortMembers, parseRules, type CohortRow, type SeasonRow } from "./store";

/** Cohorts one chunk decides: one D1 read of their members and one D1 batch of their results. */
export const CHUNK_COHORTS = 100;
/** A chunk claimed this long ago and still undecided (its run died) may be claimed again. */
export const STALE_CLAIM_MS = 5 * 60_000;
/** How long one cron run goes on deciding chunks (wall time), within a Worker invocation's limits. */
const RUN_BUDGET_MS = 15_000;
/**
 * Changes one cron run hands on before it starts no further chunk: each player's result goes to
 * the player's own object (their notifications topic), one subrequest each, and an invocation may
 * make 10,000. The next minute's run goes on where this one stopped.
 */
const RUN_CHANGES_BUDGET = 6_000;
/** Ended seasons whose cohorts, standings and results each league keeps: the results of this many seasons. */
export const RESULT_SEASONS = 4;

/**
 * The season ends, from the cron: claims the end of every season whose end has come (no score
 * counts in it from then on), then decides its cohorts in chunks. A chunk is claimed by one run
 * (a token on its cohorts) and decided with a write that requires that claim and no decision yet,
 * so no cohort is ever decided twice, even when a chunk whose run died is claimed again. A season
 * is ended once every cohort is decided. Then the retention of ended seasons.
 */
export async function runSeasonEnds(env: Env, now: number, deliver: ChangeSink): Promise<void> {
  const db = env.DB;
  await db.prepare("UPDATE league_seasons SET state = 'ending' WHERE state = 'open' AND ends_at <= ?").bind(now).run();
  const started = Date.now();
  let handedOn = 0;
  const counted: ChangeSink = (changes) => {
    handedOn += changes.length;
    return deliver(changes);
  };
  while (Date.now() - started < RUN_BUDGET_MS && handedOn < RUN_CHANGES_BUDGET) {
    const ending = await db
      .prepare("SELECT * FROM league_seasons WHERE state = 'ending' ORDER BY ends_at, league_id LIMIT 20")
      .all<SeasonRow>();
    if (ending.results.length === 0) break;
    let decided = 0;
    for (const season of ending.results) {
      if (handedOn >= RUN_CHANGES_BUDGET) break;
      const n = await decideChunk(db, season, now, counted);
      if (n === 0) await finishSeason(db, season, now);
      decided += n;
    }
    if (decided === 0) break;
  }
  await pruneSeasons(db);
}

/** Claims and decides one chunk of the season's cohorts; answers how many cohorts it claimed. */
export async function decideChunk(
  db: D1Database,
  season: SeasonRow,
  now: number,
  deliver: ChangeSink,
): Promise<number> {
  const claim = crypto.randomUUID();
  const claimed = await db
    .prepare(
      `UPDATE league_cohorts SET claim = ?1, claimed_at = ?2 WHERE cohort_id IN (
         SELECT cohort_id FROM league_cohorts WHERE league_id = ?3 AND season_start = ?4 AND decided_at IS NULL
           AND (claim IS NULL OR claimed_at < ?5) ORDER BY cohort_id LIMIT ?6)
       RETURNING *`,
    )
    .bind(claim, now, season.league_id, season.season_start, now - STALE_CLAIM_MS, CHUNK_COHORTS)
    .all<CohortRow>();
  const cohorts = claimed.results.sort((a, b) => a.cohort_id - b.cohort_id);
  if (cohorts.length === 0) return 0;
  const rules = parseRules(season.rules);
  const seasonId = seasonIdOf(season.season_start);
  const members = await cohortMembers(
    db,
    cohorts.map((c) => c.cohort_id),
  );
  const decisions = cohorts.map((cohort) => ({
    cohort,
    results: decideCohort(
      rules,
      { cohortId: String(cohort.cohort_id), seasonId, tier: cohort.tier },
      (members.get(cohort.cohort_id) ?? []).map(asCohortMember),
    ),
  }));
  const written = await db.batch(
    decisions.map(({ cohort, results }) =>
      db
        .prepare(
          `UPDATE league_cohorts SET results = ?, decided_at = ?, closed = 1
           WHERE cohort_id = ? AND claim = ? AND decided_at IS NULL RETURNING cohort_id`,
        )
        .bind(JSON.stringify(results), now, cohort.cohort_id, claim),
    ),
  );
  const appId = String(season.app_id);
  const leagueId = String(season.league_id);
  const changes: Change[] = [];
  decisions.forEach(({ cohort, results }, i) => {
    // Decided by this run only: a chunk claimed again after this run's claim went stale is the other run's.
    if (written[i].results.length === 0) return;
    const tier = rules.tiers[Math.min(cohort.tier, rules.tiers.length - 1)].key;
    changes.push(seasonEndedChange({ appId, leagueId, cohortId: String(cohort.cohort_id) }, seasonId, tier, results));
    for (const result of results) changes.push(resultChange(appId, leagueId, result));
  });
  await deliver(changes);
  return cohorts.length;
}

async function finishSeason(db: D1Database, season: SeasonRow, now: number): Promise<void> {
  await db
    .prepare(
      `UPDATE league_seasons SET state = 'ended', ended_at = ?3 WHERE league_id = ?1 AND season_start = ?2 AND state = 'ending'
         AND NOT EXISTS (SELECT 1 FROM league_cohorts WHERE league_id = ?1 AND season_start = ?2 AND decided_at IS NULL)`,
    )
    .bind(season.league_id, season.season_start, now)
    .run();
}

/** Rows removed per statement: each prune is bounded, the rest waits for the next run. */
const PRUNE_LIMIT = 5000;

/**
 * Keeps the last RESULT_SEASONS ended seasons of each league (their cohorts, standings and
 * results), and nothing of deleted leagues: the oldest rows go first, a bounded number per run.
 */
async function pruneSeasons(db: D1Database): Promise<void> {
  const old = `SELECT s.league_id, s.season_start FROM league_seasons s
    WHERE s.state = 'ended' AND (
      NOT EXISTS (SELECT 1 FROM leagues l WHERE l.league_id = s.league_id)
      OR (SELECT COUNT(*) FROM league_seasons n WHERE n.league_id = s.league_id AND n.state = 'ended'
          AND n.season_start > s.season_start) >= ${RESULT_SEASONS})`;
  const gone = `SELECT s.league_id, s.season_start FROM league_seasons s
    WHERE s.state != 'ended' AND NOT EXISTS (SELECT 1 FROM leagues l WHERE l.league_id = s.league_id)`;
  const doomed = `SELECT league_id, season_start FROM (${old} UNION ALL ${gone}) LIMIT 20`;
  await db.batch([
    db.prepare(
      `DELETE FROM league_members WHERE (league_id, season_start, user_id) IN (
         SELECT m.league_id, m.season_start, m.user_id FROM league_members m
         JOIN (${doomed}) d ON d.league_id = m.league_id AND d.season_start = m.season_start LIMIT ${PRUNE_LIMIT})`,
    ),
    db.prepare(
      `DELETE FROM league_cohorts WHERE cohort_id IN (SELECT c.cohort_id FROM league_cohorts c
         JOIN (${doomed}) d ON d.league_id = c.league_id AND d.season_start = c.season_start
         WHERE NOT EXISTS (SELECT 1 FROM league_members m WHERE m.cohort_id = c.cohort_id) LIMIT ${PRUNE_LIMIT})`,
    ),
    db.prepare(
      `DELETE FROM league_seasons WHERE (league_id, season_start) IN (SELECT d.league_id, d.season_start FROM (${doomed}) d
         WHERE NOT EXISTS (SELECT 1 FROM league_cohorts c WHERE c.league_id = d.league_id AND c.season_start = d.season_start))`,
    ),
  ]);
}
