import { ADMIN, call } from "../helpers";

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
