import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import worker from "../../../src/index";
import { ADMIN, advanceClock, call, sendEvent, serviceNow } from "../helpers";

/** Helpers of the leagues tests. */

export const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

export const THREE_TIERS = [
  { key: "bronze", name: { en: "Bronze", de: "Bronze" } },
  { key: "silver", name: "Silver" },
  { key: "gold", name: "Gold" },
];

export const leagueBody = (fields: Record<string, unknown> = {}) => ({
  key: "weekly",
  name: { en: "Weekly league", de: "Wochenliga" },
  event_name: "earn-xp",
  value_field: "xp",
  tiers: THREE_TIERS,
  cohort_size: 3,
  promote: 1,
  demote: 1,
  schedule: { period: "weekly", reset_at_time: "00:00:00", time_zone: "UTC" },
  ...fields,
});

export async function createLeague(appId: string, fields: Record<string, unknown> = {}) {
  const r = await admin("POST", `/apps/${appId}/leagues`, leagueBody(fields));
  if (r.status !== 201) throw new Error(`create league: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { league_id: string } & Record<string, any>;
}

/** The league's cohorts of every season, with their members in arrival order. */
export async function cohortsOf(leagueId: string, season?: number) {
  const cohorts = await env.DB.prepare(
    `SELECT cohort_id, tier, cohort_no, members, closed FROM league_cohorts WHERE league_id = ?
     ${season === undefined ? "" : "AND season_start = ?"} ORDER BY season_start, tier, cohort_no`,
  )
    .bind(...(season === undefined ? [Number(leagueId)] : [Number(leagueId), season]))
    .all<{ cohort_id: number; tier: number; cohort_no: number; members: number; closed: number }>();
  const out = [];
  for (const c of cohorts.results) {
    const users = await env.DB.prepare(
      "SELECT user_id FROM league_members WHERE cohort_id = ? ORDER BY joined_at, user_id",
    )
      .bind(c.cohort_id)
      .all<{ user_id: string }>();
    out.push({
      tier: c.tier,
      cohort_no: c.cohort_no,
      members: c.members,
      closed: c.closed,
      users: users.results.map((u) => u.user_id),
    });
  }
  return out;
}

/** Whether the player is in a cohort of the league (any season). */
export const isMember = async (leagueId: string, userId: string, season?: number) =>
  (await env.DB.prepare(
    `SELECT 1 AS one FROM league_members WHERE league_id = ? AND user_id = ? ${season === undefined ? "" : "AND season_start = ?"}`,
  )
    .bind(...(season === undefined ? [Number(leagueId), userId] : [Number(leagueId), userId, season]))
    .first()) !== null;

/** Each player's first event, one after the other, each waiting until the player is placed: arrival order. */
export async function joinInOrder(
  apiKey: string,
  leagueId: string,
  players: string[],
  xp: (i: number) => number,
  season?: number,
) {
  for (const [i, player] of players.entries()) {
    await sendEvent(apiKey, player, "earn-xp", { xp: xp(i) });
    await expect.poll(() => isMember(leagueId, player, season)).toBe(true);
  }
}

/** Moves the development clock just past the end of the league's current season; answers that season's start. */
export async function endSeason(leagueId: string, apiKey: string, userId: string) {
  const r = await call("GET", `/api/v1/leagues/${await appOf(leagueId)}/${leagueId}?user_id=${userId}`, {
    token: apiKey,
  });
  if (r.status !== 200) throw new Error(`league: ${r.status} ${JSON.stringify(r.body)}`);
  const endsAt = Date.parse(r.body.season.ends_at);
  await advanceClock(Math.ceil((endsAt - (await serviceNow())) / 1000) + 1);
  await runCron();
  return Date.parse(r.body.season.starts_at);
}

async function appOf(leagueId: string) {
  const row = await env.DB.prepare("SELECT app_id FROM leagues WHERE league_id = ?")
    .bind(Number(leagueId))
    .first<{ app_id: number }>();
  return String(row!.app_id);
}

/** One cron run, as `/__scheduled` runs it. */
export async function runCron() {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "* * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** The results of the league's season, by member: [member, tier, rank, outcome, next tier]. */
export async function resultsOf(leagueId: string, season: number) {
  const rows = await env.DB.prepare(
    "SELECT results FROM league_cohorts WHERE league_id = ? AND season_start = ? ORDER BY tier, cohort_no",
  )
    .bind(Number(leagueId), season)
    .all<{ results: string | null }>();
  return rows.results.map(
    (r) =>
      (JSON.parse(r.results ?? "null") as any[] | null)?.map((x) => [
        x.member_id,
        x.tier,
        x.rank,
        x.outcome,
        x.next_tier,
      ]) ?? null,
  );
}
