// What MQTT subscribers of a user cost that user's events: three users of one app (one automatic
// challenge that counts the event), whose challenges topic has 0, 50 and 200 subscribers (plain
// WebSocket MQTT clients in a process of their own, spread over the broker's shards as real ones
// are). Each sends events one at a time with a pause between them, as a game does, in interleaved
// blocks; the figure is the event request's p50 latency with subscribers against the user with
// none. Every subscriber must receive every event's change, in order.
import { fork } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { mintTokens, missingFor, sleep } from "../api.mjs";
import { createChallengeApp } from "../seed.mjs";
import { summarize } from "../stats.mjs";

const SCENARIO = "event → MQTT subscribers of the user's topic";
const EVENT = "kill-enemy";
const SUBSCRIBERS = [0, 50, 200];
/** The pause between a user's events: a game sends events now and then, not back to back. */
const PAUSE_MS = 50;
const TARGET = 1.2;
/** The subscribers live in a process of their own (its header says why). */
const SUBSCRIBERS_SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "../fanout-subscribers.mjs");

/** Epoch ms, the clock the subscribers' process notes deliveries with. */
const now = () => performance.timeOrigin + performance.now();

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "challenges", "topics", "mqtt");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { rounds } = ctx.config;
  const perUser = ctx.config.fanout.events;
  const app = await createChallengeApp(ctx, { name: "Bench fan-out", challenges: 1, listeningTo: EVENT, listening: 1 });
  const challengeId = String(app.listeningIds[0]);
  const users = [];
  for (const count of SUBSCRIBERS) {
    const id = `fanout-${count}`;
    const [token] = await mintTokens(ctx.client, app.apiKey, [id]);
    await ctx.client.json("GET", `/api/v1/challenges/personal/all/${app.appId}`, { token });
    const { topic } = (await ctx.client.json("GET", "/api/v1/auth/user-challenges-topic-link", { token })).body;
    users.push({ id, topic, count, latencies: [], sentAt: new Map() });
  }
  const subscribers = fork(SUBSCRIBERS_SCRIPT, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const reply = () =>
    new Promise((resolve, reject) => {
      subscribers.once("message", resolve);
      subscribers.once("exit", (code) => reject(new Error(`the subscribers' process exited with ${code}`)));
    });
  try {
    const wsUrl = `${ctx.client.baseUrl.replace(/^http/, "ws")}/mqtt`;
    const ready = reply();
    subscribers.send({ wsUrl, challengeId, users: users.map(({ id, topic, count }) => ({ id, topic, count })) });
    await ready;

    const send = async (user, n) => {
      user.sentAt.set(n, now());
      const r = await ctx.client.request("POST", "/api/v1/events", {
        token: app.apiKey,
        body: { user_id: user.id, event_name: EVENT, meta_data: { amount: 1 } },
      });
      if (r.status !== 200) throw new Error(`event answered ${r.status}: ${r.text.slice(0, 200)}`);
      return r.ms;
    };
    // Warm-up: each user's first events are not measured (its object, the brokers' sockets).
    let score = 5;
    for (const user of users)
      for (let n = 1; n <= score; n++) {
        await send(user, n);
        await sleep(PAUSE_MS);
      }
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
    // The subscribers' process waits for stragglers (up to 5 s) before it reports.
    const reported = reply();
    subscribers.send({ events: score });
    const { stats } = await reported;
    report(ctx, users, stats, score);
  } finally {
    subscribers.kill();
  }
}

function report(ctx, users, stats, score) {
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
    const { received, outOfOrder, lastAt } = stats[user.id];
    const delivery = Object.entries(lastAt)
      .filter(([n]) => user.sentAt.has(Number(n)))
      .map(([n, at]) => at - user.sentAt.get(Number(n)));
    const d = summarize(delivery);
    ctx.report.add({
      scenario: `${SCENARIO}: ${user.count} subscribers`,
      metric: "event sent → its change at the last subscriber (ms)",
      value: d.p50,
      unit: "ms",
      p50: d.p50,
      p99: d.p99,
    });
    const expected = user.count * score;
    ctx.report.add({
      scenario: `${SCENARIO}: ${user.count} subscribers`,
      metric: "messages received = events × subscribers, each subscriber's in order",
      value: received,
      ceiling: expected,
      target: "none lost",
      pass: received === expected && outOfOrder === 0,
    });
    if (outOfOrder)
      ctx.report.note(`Fan-out: ${outOfOrder} messages to subscribers of ${user.id} arrived out of order.`);
  }
}
