import { ADMIN, call } from "../helpers";

/** Helpers of the achievements tests: achievements through the admin API, the player's list, grants and revocations. */

export const admin = (method: string, path: string, body?: unknown) =>
  call(method, `/api/v1/admin${path}`, { token: ADMIN, body });

export async function createAchievement(appId: string, fields: Record<string, unknown>) {
  const r = await admin("POST", `/apps/${appId}/achievements`, { name: { en: "Achievement" }, ...fields });
  if (r.status !== 201) throw new Error(`create achievement: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as { achievement_id: string } & Record<string, any>;
}

export async function replaceAchievement(
  appId: string,
  current: Record<string, any>,
  changes: Record<string, unknown>,
) {
  const fields = [
    "key",
    "name",
    "description",
    "hidden",
    "hidden_description",
    "icon",
    "kind",
    "status",
    "sort_order",
    "points_rewards",
    "event_name",
    "filters",
    "value_field",
    "aggregation",
    "threshold",
    "requires",
  ];
  const body = Object.fromEntries(fields.map((f) => [f, current[f]]));
  const r = await admin("PUT", `/apps/${appId}/achievements/${current.achievement_id}`, { ...body, ...changes });
  if (r.status !== 200) throw new Error(`replace achievement: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body as Record<string, any>;
}

/** The player's list as the studio's backend reads it (API key naming the user). */
export async function listOf(appId: string, apiKey: string, userId: string, language?: string) {
  const query = `user_id=${encodeURIComponent(userId)}${language ? `&language=${language}` : ""}`;
  const r = await call("GET", `/api/v1/achievements/${appId}?${query}`, { token: apiKey });
  if (r.status !== 200) throw new Error(`list: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.achievements as any[];
}

/** One achievement of the player's list, by key. */
export async function viewOf(appId: string, apiKey: string, userId: string, key: string) {
  return (await listOf(appId, apiKey, userId)).find((a) => a.key === key);
}

export const grant = (appId: string, token: string, achievementId: string, userId: string) =>
  call("POST", `/api/v1/achievements/${appId}/${achievementId}/grant`, { token, body: { user_id: userId } });

export const revoke = (appId: string, token: string, achievementId: string, userId: string, reason?: string) =>
  call(
    "DELETE",
    `/api/v1/achievements/${appId}/${achievementId}/holders/${encodeURIComponent(userId)}${reason ? `?reason=${encodeURIComponent(reason)}` : ""}`,
    { token },
  );
