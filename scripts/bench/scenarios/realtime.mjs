// Event → MQTT subscriber latency: each of several users has a subscriber (the `mqtt` client over
// WebSocket, as a game would) on its challenges topic and sends events one after the other; the
// latency runs from sending the event to the subscriber receiving the change it caused, next to
// the event request's own latency in the same run.
import mqtt from "mqtt";
import { mapPool, mintTokens, missingFor, sleep } from "../api.mjs";
import { createChallengeApp } from "../seed.mjs";
import { summarize } from "../stats.mjs";

const SCENARIO = "event → MQTT subscriber";
const EVENT = "kill-enemy";

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "challenges", "topics", "mqtt");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { users: userCount, eventsPerUser } = ctx.config.realtime;
  const app = await createChallengeApp(ctx, {
    name: "Bench realtime",
    challenges: 1,
    listeningTo: EVENT,
    listening: 1,
  });
  const challengeId = String(app.listeningIds[0]);
  const users = Array.from({ length: userCount }, (_, i) => `rt-user-${i}`);
  const tokens = await mintTokens(ctx.client, app.apiKey, users);

  const wsUrl = `${ctx.client.baseUrl.replace(/^http/, "ws")}/mqtt`;
  const clients = [];
  try {
    // Per user: score n → when the event that makes it n was sent; and the latencies measured.
    const sentAt = users.map(() => new Map());
    const toSubscriber = [];
    const toResponse = [];
    let unexpected = 0;
    await mapPool(users, 4, async (_user, u) => {
      await ctx.client.json("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token: tokens[u] });
      const { topic } = (await ctx.client.json("GET", "/api/v1/auth/user-challenges-topic-link", { token: tokens[u] }))
        .body;
      const client = await mqtt.connectAsync(wsUrl, {
        protocolVersion: 4,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: 10_000,
      });
      clients.push(client);
      client.on("message", (_topic, payload) => {
        const at = process.hrtime.bigint();
        const message = JSON.parse(payload.toString("utf8"));
        const challenge = message.new_challenge ?? {};
        if (String(challenge.challenge_id) !== challengeId) return;
        const score = challenge.user_challenge_current_score ?? challenge.challenge_current_score;
        const start = sentAt[u].get(score);
        if (start === undefined) return void unexpected++;
        sentAt[u].delete(score);
        toSubscriber.push(Number(at - start) / 1e6);
      });
      await client.subscribeAsync(topic, { qos: 0 });
    });

    const t0 = Date.now();
    await Promise.all(
      users.map(async (user, u) => {
        for (let n = 1; n <= eventsPerUser; n++) {
          sentAt[u].set(n, process.hrtime.bigint());
          const r = await ctx.client.request("POST", "/api/v1/events", {
            token: app.apiKey,
            body: { user_id: user, event_name: EVENT, meta_data: { amount: 1 } },
          });
          if (r.status !== 200) throw new Error(`event answered ${r.status}: ${r.text.slice(0, 200)}`);
          toResponse.push(r.ms);
          // A game sends events now and then, not back to back: a short pause between them.
          await sleep(5 + (n % 4) * 5);
        }
      }),
    );
    const sent = users.length * eventsPerUser;
    // Stragglers: wait up to 5 s after the last event.
    for (let waited = 0; toSubscriber.length < sent && waited < 5000; waited += 100) await sleep(100);
    ctx.log(`realtime: ${sent} events in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${toSubscriber.length} messages`);

    const request = summarize(toResponse);
    const pushed = summarize(toSubscriber);
    const label = `${SCENARIO}, ${users.length} subscribed users, ${eventsPerUser} events each`;
    ctx.report.add({
      scenario: label,
      metric: "event request latency (ms)",
      value: request.p99,
      unit: "ms",
      p50: request.p50,
      p99: request.p99,
    });
    ctx.report.add({
      scenario: label,
      metric: "event sent → message received, p99 vs event request p99",
      value: pushed.p99,
      unit: "ms",
      ceiling: request.p99,
      ratio: pushed.p99 / request.p99,
      p50: pushed.p50,
      p99: pushed.p99,
      target: "≤ 2× event p99",
      pass: pushed.p99 / request.p99 <= 2,
    });
    ctx.report.add({
      scenario: label,
      metric: "messages received = events sent",
      value: toSubscriber.length,
      ceiling: sent,
      target: "none lost",
      pass: toSubscriber.length === sent && unexpected === 0,
    });
    if (unexpected)
      ctx.report.note(`Realtime: ${unexpected} messages carried a score no event produced (duplicates?).`);
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
  }
}
