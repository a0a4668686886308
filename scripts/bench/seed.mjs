// Seeding of challenge apps through the admin API, and reading counters back through the API.
import { createApp, mapPool, waitFor } from "./api.mjs";

/** Events the challenges that do not listen to the benchmark's event wait for. */
const OTHER_EVENTS = ["earn-points", "earn-experience", "user-invite", "fire-rate", "instant-kill", "reach-speed", "replenish-stat", "secure-zone"];

/**
 * An app with one category of `challenges` challenges; `listening` of them count `listeningTo`
 * events (amount), the others other events. Goals are out of reach so that every event keeps
 * counting. `auto`: unlocked and activated on a user's first touch; otherwise left in `unlock`.
 */
export async function createChallengeApp(ctx, { name, challenges, listeningTo, listening, auto = true, slug = "bench" }) {
  const { client, adminToken } = ctx;
  const app = await createApp(client, adminToken, name);
  const base = `/api/v1/admin/apps/${app.appId}`;
  const category = await client.json("POST", `${base}/challenge-categories`, {
    token: adminToken,
    body: { category_slug: slug, category_name: { en: `${name} challenges` }, category_position: 0, is_daily_category: false },
  });
  const categoryId = category.body.category_id;
  const ids = await mapPool(Array.from({ length: challenges }, (_, i) => i), 8, async (i) => {
    const created = await client.json("POST", `${base}/challenges`, {
      token: adminToken,
      body: {
        category_id: categoryId,
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
      },
    });
    return created.body.challenge_id;
  });
  return { ...app, categoryId, challengeCount: challenges, listeningIds: ids.slice(0, listening) };
}

/** challenge_id → current score, from the user's full challenge list. */
export async function countersOf(ctx, app, token) {
  const r = await ctx.client.json("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token });
  const counters = new Map();
  for (const category of r.body) {
    for (const c of category.challenges ?? []) counters.set(String(c.challenge_id), c.user_challenge_current_score ?? c.challenge_current_score);
  }
  return counters;
}

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** The app's usage of this UTC month: {events, unlocked_challenges}. */
export async function usageOf(ctx, appId) {
  const r = await ctx.client.json("GET", `/api/v1/admin/apps/${appId}/usage?month=${thisMonth()}`, { token: ctx.adminToken });
  return r.body.items[0] ?? { events: 0, unlocked_challenges: 0 };
}

/** Usage once `done(usage)` holds (the background queue has caught up), or as it is after `timeoutMs`. */
export async function waitForUsage(ctx, appId, done, timeoutMs) {
  const reached = await waitFor(async () => {
    const usage = await usageOf(ctx, appId);
    return done(usage) ? usage : undefined;
  }, timeoutMs, 500);
  return reached ?? usageOf(ctx, appId);
}
