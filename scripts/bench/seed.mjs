// Seeding of challenge apps through the admin API, and reading counters back through the API.
import { createApp, mapPool, missingFor, waitFor } from "./api.mjs";

/** Events the challenges that do not listen to the benchmark's event wait for. */
const OTHER_EVENTS = [
  "earn-points",
  "earn-experience",
  "user-invite",
  "fire-rate",
  "instant-kill",
  "reach-speed",
  "replenish-stat",
  "secure-zone",
];

/** Objects one catalog apply may create (the service allows 990 writes per apply). */
const APPLY_CHUNK = 900;

/**
 * An app with one category of `challenges` challenges; `listening` of them count `listeningTo`
 * events (amount), the others other events. Goals are out of reach so that every event keeps
 * counting. `auto`: unlocked and activated on a user's first touch; otherwise left in `unlock`.
 * Created with catalog applies (a few requests, however many challenges) where the server has
 * them, else one admin request per challenge.
 */
export async function createChallengeApp(
  ctx,
  { name, challenges, listeningTo, listening, auto = true, slug = "bench" },
) {
  const { client, adminToken } = ctx;
  const app = await createApp(client, adminToken, name);
  const base = `/api/v1/admin/apps/${app.appId}`;
  const category = {
    category_slug: slug,
    category_name: { en: `${name} challenges` },
    category_position: 0,
    is_daily_category: false,
  };
  const fields = (i) => ({
    challenge_name: { en: `Challenge ${i + 1}` },
    challenge_description: { en: "Benchmark challenge" },
    challenge_goal: 1_000_000_000,
    challenge_goal_condition: 0,
    challenge_duration_time: -1,
    challenge_xp: 10,
    challenge_reward: "10",
    challenge_reward_type: "coins",
    repeatable: false,
    is_auto_activated: auto,
    period_range: "never",
    event_name: i < listening ? listeningTo : OTHER_EVENTS[i % OTHER_EVENTS.length],
    value_field: "amount",
    counter_scope: "total",
  });
  const all = Array.from({ length: challenges }, (_, i) => i);
  if (missingFor(ctx.features, "catalog")) {
    const created = await client.json("POST", `${base}/challenge-categories`, { token: adminToken, body: category });
    const ids = await mapPool(all, 8, async (i) => {
      const r = await client.json("POST", `${base}/challenges`, {
        token: adminToken,
        body: { category_id: created.body.category_id, ...fields(i) },
      });
      return r.body.challenge_id;
    });
    return { ...app, challengeCount: challenges, listeningIds: ids.slice(0, listening) };
  }
  // Each apply creates what the document adds to the last one: the challenges keep their order.
  for (let upTo = Math.min(challenges, APPLY_CHUNK); ; upTo = Math.min(challenges, upTo + APPLY_CHUNK)) {
    const document = {
      version: 1,
      categories: [{ ...category, challenges: all.slice(0, upTo).map((i) => ({ key: `c${i}`, ...fields(i) })) }],
    };
    await client.json("PUT", `${base}/catalog`, { token: adminToken, body: document });
    if (upTo === challenges) break;
  }
  return { ...app, challengeCount: challenges, listeningIds: await firstChallengeIds(ctx, app.appId, listening) };
}

/** The ids of the app's first `count` challenges (ids grow in creation order). */
async function firstChallengeIds(ctx, appId, count) {
  const ids = [];
  for (let page = 1; ids.length < count; page++) {
    const r = await ctx.client.json("GET", `/api/v1/admin/apps/${appId}/challenges?currentPage=${page}&pageSize=100`, {
      token: ctx.adminToken,
    });
    if (r.body.items.length === 0) break;
    ids.push(...r.body.items.map((c) => c.challenge_id));
  }
  return ids.slice(0, count);
}

/** challenge_id → current score, from the user's full challenge list. */
export async function countersOf(ctx, app, token) {
  const r = await ctx.client.json("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token });
  const counters = new Map();
  for (const category of r.body) {
    for (const c of category.challenges ?? [])
      counters.set(String(c.challenge_id), c.user_challenge_current_score ?? c.challenge_current_score);
  }
  return counters;
}

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** The app's usage of this UTC month: {events, unlocked_challenges}. */
export async function usageOf(ctx, appId) {
  const r = await ctx.client.json("GET", `/api/v1/admin/apps/${appId}/usage?month=${thisMonth()}`, {
    token: ctx.adminToken,
  });
  return r.body.items[0] ?? { events: 0, unlocked_challenges: 0 };
}

/** Usage once `done(usage)` holds (the background queue has caught up), or as it is after `timeoutMs`. */
export async function waitForUsage(ctx, appId, done, timeoutMs) {
  const reached = await waitFor(
    async () => {
      const usage = await usageOf(ctx, appId);
      return done(usage) ? usage : undefined;
    },
    timeoutMs,
    500,
  );
  return reached ?? usageOf(ctx, appId);
}
