import type { BackgroundChannels } from "../kit/area";
import type { BackgroundMessagesOf } from "../user/messages";
import { leaguesCatalog } from "./catalog";
import { cohortTopic, standingsChange } from "./core/changes";
import { tierAfter, type SeasonResult } from "./core/decide";
import { seasonRulesOf, type LeagueDef, type SeasonRules } from "./core/model";
import { seasonIdOf } from "./core/season";
import { parseRules, presentCohort, readStandings, type CohortRow, type SeasonRow } from "./store";

type ScoreMessage = BackgroundMessagesOf<"league-score">[number]["body"];

/** A season's statements run only while the cron has not claimed its end: a late score changes nothing. */
const SEASON_OPEN =
  "EXISTS (SELECT 1 FROM league_seasons s WHERE s.league_id = ?1 AND s.season_start = ?2 AND s.state = 'open')";

/**
 * A player's arrival: opens the tier's next cohort when none is open, places the player in the
 * open cohort with the lowest number, and counts its members (closing it when full). Three
 * statements of one D1 batch, so arrivals fill cohorts in the order they are written, whichever
 * consumer writes them; a replay of an arrival changes nothing (?1 league, ?2 season, ?3 app,
 * ?4 tier, ?5 user, ?6 size, ?7 score, ?8 reached_at, ?9 joined_at).
 */
const JOIN_SQL = [
  `INSERT INTO league_cohorts (league_id, season_start, app_id, tier, cohort_no, size)
   SELECT ?1, ?2, ?3, ?4, COALESCE((SELECT MAX(cohort_no) FROM league_cohorts
       WHERE league_id = ?1 AND season_start = ?2 AND tier = ?4), 0) + 1, ?6
   WHERE ${SEASON_OPEN}
     AND NOT EXISTS (SELECT 1 FROM league_cohorts WHERE league_id = ?1 AND season_start = ?2 AND tier = ?4 AND closed = 0)
     AND NOT EXISTS (SELECT 1 FROM league_members WHERE league_id = ?1 AND season_start = ?2 AND user_id = ?5)`,
  `INSERT INTO league_members (league_id, season_start, user_id, app_id, cohort_id, tier, score, reached_at, joined_at)
   SELECT ?1, ?2, ?5, ?3, cohort_id, ?4, ?7, ?8, ?9 FROM league_cohorts
   WHERE league_id = ?1 AND season_start = ?2 AND tier = ?4 AND closed = 0 AND ${SEASON_OPEN}
   ORDER BY cohort_no LIMIT 1
   ON CONFLICT (league_id, season_start, user_id) DO NOTHING`,
  `UPDATE league_cohorts SET
     members = (SELECT COUNT(*) FROM league_members m WHERE m.cohort_id = league_cohorts.cohort_id),
     closed = CASE WHEN (SELECT COUNT(*) FROM league_members m WHERE m.cohort_id = league_cohorts.cohort_id) >= size
       THEN 1 ELSE closed END
   WHERE cohort_id = (SELECT cohort_id FROM league_members WHERE league_id = ?1 AND season_start = ?2 AND user_id = ?5)`,
];
/** How many of the binds each statement of JOIN_SQL takes (its highest parameter). */
const JOIN_BINDS = [6, 9, 5];

/**
 * The scores of members, newest first: a score reached later replaces one reached earlier, never
 * the reverse (a redelivered message changes nothing). Answers the cohorts whose standings moved.
 */
const SCORES_SQL = `UPDATE league_members SET score = j.score, reached_at = j.reached_at
  FROM (SELECT json_extract(value, '$[0]') AS user_id, json_extract(value, '$[1]') AS score,
               json_extract(value, '$[2]') AS reached_at FROM json_each(?3)) AS j
  WHERE league_members.league_id = ?1 AND league_members.season_start = ?2 AND league_members.user_id = j.user_id
    AND j.reached_at >= league_members.reached_at
    AND (league_members.score != j.score OR league_members.reached_at != j.reached_at)
    AND ${SEASON_OPEN}
  RETURNING league_members.cohort_id AS cohort_id`;

/** A season's start and end, and the rules it is decided by: written by its first arrival. */
const SEASON_SQL = `INSERT INTO league_seasons (league_id, season_start, app_id, ends_at, rules) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (league_id, season_start) DO NOTHING`;

interface PreviousRow {
  user_id: string;
  season_start: number;
  tier: number;
  results: string | null;
  decided_at: number | null;
  tiers: string;
}

/** Thrown while a player's previous season is not decided yet: their tier depends on it, so the messages wait. */
export class PreviousSeasonPending extends Error {}

/**
 * The tier of each arriving player: the result of the last season they played (a season without
 * play keeps the tier), the lowest for a new player. A previous season the cron has not decided
 * yet holds the arrival back (the messages are retried).
 */
async function arrivalTiers(
  db: D1Database,
  appId: string,
  league: LeagueDef,
  season: number,
  rules: SeasonRules,
  userIds: string[],
) {
  const tiers = new Map<string, number>();
  if (userIds.length === 0) return tiers;
  const rows = await db
    .prepare(
      `SELECT m.user_id, m.season_start, m.tier, c.results, c.decided_at, s.rules AS tiers FROM league_members m
       JOIN league_cohorts c ON c.cohort_id = m.cohort_id
       JOIN league_seasons s ON s.league_id = m.league_id AND s.season_start = m.season_start
       WHERE m.app_id = ? AND m.user_id IN (SELECT value FROM json_each(?)) AND m.league_id = ? AND m.season_start < ?
       ORDER BY m.season_start DESC`,
    )
    .bind(Number(appId), JSON.stringify(userIds), Number(league.id), season)
    .all<PreviousRow>();
  const latest = new Map<string, PreviousRow>();
  for (const row of rows.results) if (!latest.has(row.user_id)) latest.set(row.user_id, row);
  const keys = rules.tiers.map((t) => t.key);
  for (const userId of userIds) {
    const previous = latest.get(userId);
    if (!previous) {
      tiers.set(userId, 0);
      continue;
    }
    if (previous.decided_at === null)
      throw new PreviousSeasonPending(
        `league ${league.id}: the season before ${seasonIdOf(season)} is not decided yet`,
      );
    const result = (JSON.parse(previous.results ?? "[]") as SeasonResult[]).find((r) => r.member_id === userId) ?? null;
    // Without a result (banned at the season's end) the player keeps the tier, by its key when the tiers changed.
    const previousKey = parseRules(previous.tiers).tiers[previous.tier]?.key;
    const kept = previousKey === undefined ? 0 : Math.max(keys.indexOf(previousKey), 0);
    tiers.set(userId, tierAfter(result, keys, kept));
  }
  return tiers;
}

/**
 * Background handler of "league-score" messages: for each league season of the batch, the season's
 * row at its first arrival, each new player placed in a cohort (in the order of their first
 * qualifying event), and every member's latest score, in one D1 batch; then the standings of the
 * cohorts that moved go to their topics. Messages of a season whose end the cron has claimed
 * change nothing.
 */
export async function applyLeagueScores(
  messages: BackgroundMessagesOf<"league-score">,
  env: Env,
  channels: Pick<BackgroundChannels, "deliver" | "topicAudience">,
): Promise<void> {
  const groups = new Map<string, ScoreMessage[]>();
  for (const { body } of messages) {
    const key = `${body.appId}\u0000${body.leagueId}\u0000${body.season}`;
    groups.set(key, [...(groups.get(key) ?? []), body]);
  }
  for (const group of groups.values()) await applyGroup(env, group, channels);
}

async function applyGroup(
  env: Env,
  group: ScoreMessage[],
  { deliver, topicAudience }: Pick<BackgroundChannels, "deliver" | "topicAudience">,
): Promise<void> {
  const db = env.DB;
  const { appId, leagueId, season, endsAt } = group[0];
  const league = (await leaguesCatalog(db, appId)).byId.get(leagueId);
  if (!league) return;
  // Each player's latest score: reached last wins (a later message of the same object is newer).
  const latest = new Map<string, ScoreMessage>();
  for (const m of group) {
    const known = latest.get(m.userId);
    if (!known || m.reachedAt > known.reachedAt || (m.reachedAt === known.reachedAt && m.score !== known.score))
      latest.set(m.userId, m);
  }
  const userIds = [...latest.keys()];
  const [seasonRead, membersRead] = await db.batch<unknown>([
    db.prepare("SELECT * FROM league_seasons WHERE league_id = ? AND season_start = ?").bind(Number(leagueId), season),
    db
      .prepare(
        "SELECT user_id FROM league_members WHERE league_id = ? AND season_start = ? AND user_id IN (SELECT value FROM json_each(?))",
      )
      .bind(Number(leagueId), season, JSON.stringify(userIds)),
  ]);
  const seasonRow = (seasonRead.results[0] as SeasonRow | undefined) ?? null;
  if (seasonRow !== null && seasonRow.state !== "open") return;
  const rules = seasonRow ? parseRules(seasonRow.rules) : seasonRulesOf(league);
  const members = new Set((membersRead.results as { user_id: string }[]).map((r) => r.user_id));
  const arrivals = [...latest.values()]
    .filter((m) => !members.has(m.userId))
    .sort((a, b) => a.joinedAt - b.joinedAt || (a.userId < b.userId ? -1 : 1));
  const tiers = await arrivalTiers(
    db,
    appId,
    league,
    season,
    rules,
    arrivals.map((m) => m.userId),
  );

  const id = Number(leagueId);
  const statements: D1PreparedStatement[] = [
    db.prepare(SEASON_SQL).bind(id, season, Number(appId), endsAt, JSON.stringify(rules)),
  ];
  for (const m of arrivals) {
    const binds = [
      id,
      season,
      Number(appId),
      tiers.get(m.userId)!,
      m.userId,
      rules.cohortSize,
      m.score,
      m.reachedAt,
      m.joinedAt,
    ];
    for (const [i, sql] of JOIN_SQL.entries()) statements.push(db.prepare(sql).bind(...binds.slice(0, JOIN_BINDS[i])));
  }
  const scores = [...latest.values()].filter((m) => members.has(m.userId)).map((m) => [m.userId, m.score, m.reachedAt]);
  const scoresAt = statements.length;
  if (scores.length > 0) statements.push(db.prepare(SCORES_SQL).bind(id, season, JSON.stringify(scores)));
  const results = await db.batch(statements);

  const moved = new Set<number>();
  if (scores.length > 0)
    for (const row of results[scoresAt].results as { cohort_id: number }[]) moved.add(row.cohort_id);
  if (arrivals.length > 0) {
    const placed = await db
      .prepare(
        "SELECT DISTINCT cohort_id FROM league_members WHERE league_id = ? AND season_start = ? AND user_id IN (SELECT value FROM json_each(?))",
      )
      .bind(id, season, JSON.stringify(arrivals.map((m) => m.userId)))
      .all<{ cohort_id: number }>();
    for (const row of placed.results) moved.add(row.cohort_id);
  }
  if (moved.size === 0) return;
  // Standings are read and sent only for the cohorts somebody receives (a subscriber, an endpoint).
  const movedIds = [...moved].sort((a, b) => a - b);
  const heard = await topicAudience(
    appId,
    "league-standings-changed",
    movedIds.map((cohortId) => cohortTopic({ appId, leagueId, cohortId: String(cohortId) })),
  );
  const heardIds = movedIds.filter((_, i) => heard[i]);
  if (heardIds.length === 0) return;
  const cohorts = await db
    .prepare("SELECT * FROM league_cohorts WHERE cohort_id IN (SELECT value FROM json_each(?)) ORDER BY cohort_id")
    .bind(JSON.stringify(heardIds))
    .all<CohortRow>();
  const tierKey = (tier: number) => rules.tiers[Math.min(tier, rules.tiers.length - 1)].key;
  const changes = (await readStandings(db, appId, cohorts.results, rules)).map((standings) =>
    standingsChange(
      { appId, leagueId, cohortId: String(standings.cohort.cohort_id) },
      { seasonId: seasonIdOf(season), tier: tierKey(standings.cohort.tier) },
      presentCohort(standings),
    ),
  );
  await deliver(changes);
}
