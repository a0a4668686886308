// Seeding through the public and admin API, and detection of which features the server has.
import http from "node:http";

/** Paths each feature needs, as the OpenAPI document names them (parameter names ignored). */
const FEATURE_PATHS = {
  events: ["post /api/v1/events"],
  challenges: [
    "post /api/v1/admin/apps/{}/challenge-categories",
    "post /api/v1/admin/apps/{}/challenges",
    "get /api/v1/challenges/personal/all/{}",
  ],
  leaderboards: [
    "post /api/v1/admin/apps/{}/leaderboards",
    "get /api/v1/leaderboards/{}",
    "get /api/v1/leaderboards-members/{}/{}/{}",
  ],
  topics: ["get /api/v1/auth/user-challenges-topic-link"],
  webhooks: ["post /api/v1/admin/apps/{}/webhooks"],
  usage: ["get /api/v1/admin/apps/{}/usage"],
  catalog: ["put /api/v1/admin/apps/{}/catalog"],
  fairplay: ["post /api/v1/admin/apps/{}/users/{}/ban", "get /api/v1/admin/apps/{}/leaderboards/{}/flagged"],
  check: ["get /api/v1/auth/check"],
  points: ["post /api/v1/admin/apps/{}/points-systems", "post /api/v1/points/{}/{}/grant"],
  streaks: ["post /api/v1/admin/apps/{}/streaks", "get /api/v1/streaks/{}"],
  achievements: ["post /api/v1/admin/apps/{}/achievements", "get /api/v1/achievements/{}"],
  leagues: ["post /api/v1/admin/apps/{}/leagues", "get /api/v1/leagues/{}/{}"],
};

/** {feature: missing paths[]} from the server's OpenAPI document; an empty list means present. */
export async function detectFeatures(client) {
  const doc = (await client.json("GET", "/openapi.json")).body;
  const present = new Set();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of Object.keys(item)) present.add(`${method} ${path.replace(/\{[^}]+\}/g, "{}")}`);
  }
  const features = {};
  for (const [feature, paths] of Object.entries(FEATURE_PATHS))
    features[feature] = paths.filter((p) => !present.has(p));
  features.mqtt = (await mqttAnswers(client)) ? [] : ["MQTT over WebSocket on /mqtt"];
  return features;
}

/** The broker accepts a WebSocket upgrade on /mqtt (a stub answers 501 or 404 instead). */
async function mqttAnswers(client) {
  const url = new URL(client.baseUrl);
  return new Promise((resolve) => {
    const req = http.request({
      host: url.hostname,
      port: url.port,
      path: "/mqtt",
      method: "GET",
      headers: {
        Connection: "Upgrade",
        Upgrade: "websocket",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Protocol": "mqtt",
      },
    });
    req.on("upgrade", (_res, socket) => {
      socket.destroy();
      resolve(true);
    });
    req.on("response", (res) => {
      res.resume();
      resolve(false);
    });
    req.on("error", () => resolve(false));
    req.setTimeout(10_000, () => req.destroy());
    req.end();
  });
}

/**
 * Why a scenario cannot run, or null: "feature missing: ..." naming the absent features (their paths are logged at the
 * start).
 */
export function missingFor(features, ...names) {
  const missing = names.filter((n) => features[n]?.length);
  return missing.length === 0 ? null : `feature missing: ${missing.join(", ")}`;
}

/** A new app with one API key. */
export async function createApp(client, adminToken, name) {
  const app = await client.json("POST", "/api/v1/admin/apps", {
    token: adminToken,
    body: { name, default_language: "en" },
  });
  const appId = app.body.app_id;
  const key = await client.json("POST", `/api/v1/admin/apps/${appId}/api-keys`, {
    token: adminToken,
    body: { name: "bench" },
  });
  return { appId, apiKey: key.body.key };
}

/**
 * Lifts an app's rate limits out of the way: the intake scenarios send thousands of events a
 * minute for one player on purpose (the hot user), which the default per-player limit would refuse.
 */
export async function withoutRateLimits(client, adminToken, appId, name) {
  const body = { name, rate_limits: { per_user_per_minute: 1_000_000_000, per_app_per_minute: 1_000_000_000 } };
  await client.json("PUT", `/api/v1/admin/apps/${appId}`, { token: adminToken, body });
}

/** Runs `fn` over `items` with at most `concurrency` at a time; answers the results in order. */
export async function mapPool(items, concurrency, fn) {
  const results = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** Access tokens for users, minted through the API as a studio's backend would. */
export async function mintTokens(client, apiKey, userIds, concurrency = 16) {
  return mapPool(userIds, concurrency, async (user_id) => {
    const r = await client.json("POST", "/api/v1/auth/access-token", { token: apiKey, body: { user_id } });
    return r.body.token;
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Polls `probe` until it answers something other than undefined, or answers undefined after `timeoutMs`. */
export async function waitFor(probe, timeoutMs, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > deadline) return value;
    await sleep(intervalMs);
  }
}
