// What MQTT subscribers of a user cost that user's events: three users of one app (one automatic
// challenge that counts the event), whose challenges topic has 0, 50 and 200 subscribers (plain
// WebSocket MQTT clients, spread over the broker's shards as real ones are). Each sends events one
// at a time with a pause between them, as a game does, in interleaved blocks; the figure is the
// event request's p50 latency with subscribers against the user with none. Every subscriber must
// receive every event's change, in order.
import { mapPool, mintTokens, missingFor, sleep } from "../api.mjs";
import { BenchClient, loadCodec } from "../mqtt-client.mjs";
import { createChallengeApp } from "../seed.mjs";
import { summarize } from "../stats.mjs";

const SCENARIO = "event → MQTT subscribers of the user's topic";
const EVENT = "kill-enemy";
const SUBSCRIBERS = [0, 50, 200];
/** The pause between a user's events: a game sends events now and then, not back to back. */
const PAUSE_MS = 50;
const TARGET = 1.2;

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "challenges", "topics", "mqtt");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { rounds } = ctx.config;
  const perUser = ctx.config.fanout.events;
  const app = await createChallengeApp(ctx, { name: "Bench fan-out", challenges: 1, listeningTo: EVENT, listening: 1 });
  const challengeId = String(app.listeningIds[0]);
  const codec = await loadCodec();
  const wsUrl = `${ctx.client.baseUrl.replace(/^http/, "ws")}/mqtt`;
  const clients = [];
  try {
    const users = [];
    for (const count of SUBSCRIBERS) {
      const id = `fanout-${count}`;
      const [token] = await mintTokens(ctx.client, app.apiKey, [id]);
      await ctx.client.json("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token });
      const { topic } = (await ctx.client.json("GET", "/api/v1/auth/user-challenges-topic-link", { token })).body;
      const user = { id, count, latencies: [], sentAt: new Map(), lastAt: new Map(), received: 0, outOfOrder: 0, delivery: [] };
      await mapPool(Array.from({ length: count }, (_, i) => i), 16, async (i) => {
        const client = await BenchClient.open(wsUrl, codec, `${id}-${i}`);
        clients.push(client);
        let last = 0;
        client.onPublish = (packet) => {
          const at = process.hrtime.bigint();
          const challenge = JSON.parse(Buffer.from(packet.payload).toString("utf8")).new_challenge ?? {};
          if (String(challenge.challenge_id) !== challengeId) return;
          const score = challenge.user_challenge_current_score;
          user.received++;
          if (score <= last) user.outOfOrder++;
          last = score;
          // The moment the last subscriber got the change of event `score`.
          user.lastAt.set(score, at);
        };
        await client.subscribe(topic);
      });
      users.push(user);
    }

    let score = 0;
    const send = async (user, n) => {
      user.sentAt.set(n, process.hrtime.bigint());
      const r = await ctx.client.request("POST", "/api/v1/events", { token: app.apiKey, body: { user_id: user.id, event_name: EVENT, meta_data: { amount: 1 } } });
      if (r.status !== 200) throw new Error(`event answered ${r.status}: ${r.text.slice(0, 200)}`);
      return r.ms;
    };
    // Warm-up: each user's first events are not measured (its object, the brokers' sockets).
    for (const user of users) for (let n = 1; n <= 5; n++) await send(user, n), await sleep(PAUSE_MS);
    score = 5;
    const block = Math.ceil(perUser / rounds);
    for (let round = 0; round < rounds; round++) {
      for (const user of users) {
        for (let n = score + 1; n <= score + block; n++) {
          user.latencies.push(await send(user, n));
          await sleep(PAUSE_MS);
        }
      }
      score += block;
    }
    // Stragglers: up to 5 s after the last event.
    const expected = (user) => user.count * score;
    for (let waited = 0; users.some((u) => u.received < expected(u)) && waited < 5000; waited += 100) await sleep(100);

    const none = summarize(users[0].latencies);
    for (const user of users) {
      const latency = summarize(user.latencies);
      const ratio = latency.p50 / none.p50;
      const targeted = user.count === Math.max(...SUBSCRIBERS);
      ctx.report.add({
        scenario: `${SCENARIO}: ${user.count} subscribers`,
        metric: `event request latency, p50 (one event at a time, ${PAUSE_MS} ms apart; ${user.latencies.length} events; ceiling: the user with none)`,
        value: latency.p50,
        unit: "ms",
        ceiling: none.p50,
        ratio,
        p50: latency.p50,
        p99: latency.p99,
        ...(targeted ? { target: `≤ ${TARGET}× none`, pass: ratio <= TARGET } : {}),
      });
      if (user.count === 0) continue;
      const delivery = [];
      for (const [n, at] of user.lastAt) if (user.sentAt.has(n)) delivery.push(Number(at - user.sentAt.get(n)) / 1e6);
      const d = summarize(delivery);
      ctx.report.add({ scenario: `${SCENARIO}: ${user.count} subscribers`, metric: "event sent → its change at the last subscriber (ms)", value: d.p50, unit: "ms", p50: d.p50, p99: d.p99 });
      ctx.report.add({
        scenario: `${SCENARIO}: ${user.count} subscribers`,
        metric: "messages received = events × subscribers, each subscriber's in order",
        value: user.received,
        ceiling: expected(user),
        target: "none lost",
        pass: user.received === expected(user) && user.outOfOrder === 0,
      });
      if (user.outOfOrder) ctx.report.note(`Fan-out: ${user.outOfOrder} messages to subscribers of ${user.id} arrived out of order.`);
    }
  } finally {
    for (const c of clients) c.close();
  }
}
