import type { LeagueReward, PointsReward, SeasonRules } from "./model";

/**
 * The pure rules of a cohort: how many of its members move up and down, the order of its
 * standings, each member's zone while the season runs and outcome when it ends.
 */

export type Zone = "promotion" | "safe" | "demotion";
export type Outcome = "promoted" | "stayed" | "demoted";

/** A member of a cohort as its standings order them. */
export interface CohortMember {
  memberId: string;
  score: number;
  /** Service time (ms) the member reached `score`: the earlier ranks first among equal scores. */
  reachedAt: number;
  /** Service time (ms) of the member's first qualifying event of the season: the last tie-breaker. */
  joinedAt: number;
}

export interface ZoneSizes {
  promote: number;
  demote: number;
}

/**
 * How many of a cohort of `n` members move up and down. A full cohort (n ≥ cohort_size) moves
 * `promote` up and `demote` down. A smaller one promotes max(1, floor(promote × n / cohort_size))
 * when n ≥ 2 and promote > 0 (none when n = 1), and demotes floor(demote × n / cohort_size). Nobody
 * moves up from the top tier nor down from the lowest. Promotion comes first: the two never overlap.
 */
export function zoneSizes(
  rules: Pick<SeasonRules, "cohortSize" | "promote" | "demote">,
  n: number,
  tier: number,
  tiers: number,
): ZoneSizes {
  if (n <= 0) return { promote: 0, demote: 0 };
  const full = n >= rules.cohortSize;
  let promote = 0;
  if (tier < tiers - 1 && rules.promote > 0) {
    if (full) promote = rules.promote;
    else if (n >= 2) promote = Math.max(1, Math.floor((rules.promote * n) / rules.cohortSize));
  }
  let demote = 0;
  if (tier > 0) demote = full ? rules.demote : Math.floor((rules.demote * n) / rules.cohortSize);
  promote = Math.min(promote, n);
  demote = Math.min(demote, n - promote);
  return { promote, demote };
}

/** Standings order: higher score first; equal scores by who reached the score first, then who joined first. */
export function compareMembers(a: CohortMember, b: CohortMember): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.reachedAt !== b.reachedAt) return a.reachedAt - b.reachedAt;
  if (a.joinedAt !== b.joinedAt) return a.joinedAt - b.joinedAt;
  return a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0;
}

export interface RankedMember extends CohortMember {
  /** 1, 2, 3...: distinct. */
  rank: number;
  zone: Zone;
}

/** The cohort's standings: ranks distinct, each member's zone for the cohort's present size. */
export function rankCohort(
  members: CohortMember[],
  rules: Pick<SeasonRules, "cohortSize" | "promote" | "demote">,
  tier: number,
  tiers: number,
): RankedMember[] {
  const sorted = [...members].sort(compareMembers);
  const sizes = zoneSizes(rules, sorted.length, tier, tiers);
  return sorted.map((m, i) => ({ ...m, rank: i + 1, zone: zoneOf(i + 1, sorted.length, sizes) }));
}

export function zoneOf(rank: number, n: number, sizes: ZoneSizes): Zone {
  if (rank <= sizes.promote) return "promotion";
  if (rank > n - sizes.demote) return "demotion";
  return "safe";
}

const OUTCOME: Record<Zone, Outcome> = { promotion: "promoted", safe: "stayed", demotion: "demoted" };

/** The tier a player plays next after an outcome in `tier`. */
export function nextTier(tier: number, outcome: Outcome, tiers: number): number {
  const next = outcome === "promoted" ? tier + 1 : outcome === "demoted" ? tier - 1 : tier;
  return Math.max(0, Math.min(tiers - 1, next));
}

/** What a result gives: the first reward entry (in the configuration's order) that covers the tier and rank. */
export interface ResultRewards {
  points_rewards: PointsReward[];
  reward: string | null;
}

export function rewardsFor(rewards: LeagueReward[], tierKey: string, rank: number): ResultRewards | null {
  const entry = rewards.find((r) => (r.tier === null || r.tier === tierKey) && rank >= r.rankMin && rank <= r.rankMax);
  return entry ? { points_rewards: entry.pointsRewards, reward: entry.reward } : null;
}

/** A member's result of a season, as D1 keeps it with the cohort and the API answers it. */
export interface SeasonResult {
  member_id: string;
  season_id: string;
  tier: string;
  cohort_id: string;
  rank: number;
  score: number;
  outcome: Outcome;
  /** The tier key the player plays next. */
  next_tier: string;
  rewards: ResultRewards | null;
}

/**
 * Decides one cohort at its season's end: every member ranked, with their outcome and rewards.
 * `members` are those who take a result (banned players are left out before).
 */
export function decideCohort(
  rules: SeasonRules,
  cohort: { cohortId: string; seasonId: string; tier: number },
  members: CohortMember[],
): SeasonResult[] {
  const tiers = rules.tiers.length;
  const tier = Math.min(cohort.tier, tiers - 1);
  const tierKey = rules.tiers[tier].key;
  return rankCohort(members, rules, tier, tiers).map((m) => {
    const outcome = OUTCOME[m.zone];
    return {
      member_id: m.memberId,
      season_id: cohort.seasonId,
      tier: tierKey,
      cohort_id: cohort.cohortId,
      rank: m.rank,
      score: m.score,
      outcome,
      next_tier: rules.tiers[nextTier(tier, outcome, tiers)].key,
      rewards: rewardsFor(rules.rewards, tierKey, m.rank),
    };
  });
}

/** The tier index a player plays in after a result (a tier key the league no longer has: the lowest). */
export function tierAfter(
  result: Pick<SeasonResult, "next_tier"> | null,
  tierKeys: string[],
  previousTier: number,
): number {
  if (result === null) return Math.max(0, Math.min(previousTier, tierKeys.length - 1));
  const index = tierKeys.indexOf(result.next_tier);
  return Math.max(index, 0);
}

/**
 * The cohorts arrivals fill, in order: each cohort takes `cohortSize` members, then closes and the
 * next opens. Answers the cohort number (1, 2...) of each arrival: 7 arrivals of size 3 → 1,1,1,2,2,2,3.
 */
export function cohortNumbers(arrivals: number, cohortSize: number): number[] {
  return Array.from({ length: arrivals }, (_, i) => Math.floor(i / cohortSize) + 1);
}

/** A player's score after one more qualifying event (`sum` adds, `max` keeps the highest). */
export function aggregate(aggregation: "sum" | "max", score: number | null, value: number): number {
  if (score === null) return value;
  return aggregation === "sum" ? score + value : Math.max(score, value);
}
