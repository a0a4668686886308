// What the MQTT broker costs per connect, per SUBSCRIBE, per keep-alive and per delivered message:
// the server's CPU time (all its processes) per operation, on the service's own server, with plain
// WebSocket clients that speak MQTT 3.1.1 through the service's own codec (no client library in
// the way). Delivered messages are a leaderboard's changes fanned out to every connection; their
// cost is the CPU of events whose changes reach all connections minus that of the same events on
// a board nobody follows (intake and applying the scores alike; the changes of a board nobody
// follows are not even built), per message delivered.
import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../../lib/wrangler.mjs";
import { createApp, mapPool, missingFor, sleep, waitFor } from "../api.mjs";
import { BenchClient, loadCodec } from "../mqtt-client.mjs";

const SCENARIO = "MQTT broker";
const EVENT = "kill-enemy";
const CONCURRENCY = 32;

const configuredShards = () =>
  /^MQTT_BROKER_SHARDS\s*=\s*"(\d+)"/m.exec(readFileSync(path.join(projectRoot, "wrangler.toml"), "utf8"))?.[1];

/** A board and its topic in a new app. */
async function boardApp(ctx, name) {
  const app = await createApp(ctx.client, ctx.adminToken, name);
  const board = await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/leaderboards`, {
    token: ctx.adminToken,
    body: { name, event_name: EVENT, value_field: "amount", aggregation: "sum", sort_order_ascending: false },
  });
  const boardId = board.body.leaderboard_id;
  const topic = (
    await ctx.client.json("GET", `/api/v1/auth/leaderboard-topic-link?leaderboard_id=${boardId}`, { token: app.apiKey })
  ).body.topic;
  return { ...app, boardId, topic };
}

/** Sends `count` events of distinct users to the app's board: each is one change of the board. */
async function sendEvents(ctx, app, count, prefix) {
  const users = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  await mapPool(users, 4, async (user) => {
    const r = await ctx.client.request("POST", "/api/v1/events", {
      token: app.apiKey,
      body: { user_id: user, event_name: EVENT, meta_data: { amount: 1 } },
    });
    if (r.status !== 200) throw new Error(`event answered ${r.status}: ${r.text.slice(0, 200)}`);
  });
  return users;
}

const scored = (ctx, app, user) =>
  ctx.client
    .json("GET", `/api/v1/leaderboards-members/user/${user}/${app.boardId}`, { token: app.apiKey, expect: null })
    .then((r) => r.body?.member?.score === 1);

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "leaderboards", "mqtt");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { clients: count, pings, events } = ctx.config.broker;
  const codec = await loadCodec();
  const url = `${ctx.client.baseUrl.replace(/^http/, "ws")}/mqtt`;
  const followed = await boardApp(ctx, "Bench broker followed");
  const quiet = await boardApp(ctx, "Bench broker quiet");
  const clients = [];
  try {
    const connect = await ctx.measured("broker: connect", async () => {
      const started = Date.now();
      await mapPool(
        Array.from({ length: count }, (_, i) => i),
        CONCURRENCY,
        async (i) => clients.push(await BenchClient.open(url, codec, `bench-${i}`)),
      );
      return { sent: count, ms: Date.now() - started };
    });
    const subscribe = await ctx.measured("broker: subscribe", async () => {
      await mapPool(clients, CONCURRENCY, (c) => c.subscribe(followed.topic));
      return { sent: count };
    });
    const keepAlive = await ctx.measured("broker: keep-alive", async () => {
      const started = Date.now();
      for (let round = 0; round < pings; round++)
        await mapPool(clients, CONCURRENCY, (c) => c.request({ type: "pingreq" }, "pingresp"));
      return { sent: count * pings, ms: Date.now() - started };
    });

    // The same events twice: on a board nobody follows, then on the one every connection follows.
    const control = await ctx.measured("broker: events, nobody follows", async () => {
      const users = await sendEvents(ctx, quiet, events, "quiet");
      await waitFor(
        async () =>
          (await scored(ctx, quiet, users.at(-1))) && (await scored(ctx, quiet, users[0])) ? true : undefined,
        60_000,
        100,
      );
      return { sent: events };
    });
    const expected = count * events;
    const delivered = await ctx.measured("broker: events, every connection follows", async () => {
      const started = Date.now();
      const all = new Promise((resolve) => {
        let total = 0;
        for (const c of clients) {
          c.onPublish = () => {
            if (++total === expected) resolve();
          };
        }
      });
      await sendEvents(ctx, followed, events, "followed");
      await Promise.race([all, sleep(60_000)]);
      return { sent: events, ms: Date.now() - started };
    });
    const received = clients.reduce((n, c) => n + c.published, 0);

    const shards = configuredShards();
    const scenario = `${SCENARIO}, ${count} connections${shards ? ` over ${shards} shards` : ""} (server CPU: all of wrangler dev's processes)`;
    const perOp = (result, n) => (result.serverCpu === undefined ? undefined : result.serverCpu / n);
    ctx.report.add({
      scenario,
      metric: `server CPU per connect: WebSocket upgrade, CONNECT → CONNACK (${((count / connect.ms) * 1000).toFixed(0)}/s at ${CONCURRENCY} concurrent)`,
      value: perOp(connect, count),
      unit: "ms",
    });
    ctx.report.add({
      scenario,
      metric: "server CPU per SUBSCRIBE of a leaderboard topic (its hub told of a first subscriber per shard)",
      value: perOp(subscribe, count),
      unit: "ms",
    });
    ctx.report.add({
      scenario,
      metric: `server CPU per keep-alive: PINGREQ → PINGRESP (${(((count * pings) / keepAlive.ms) * 1000).toFixed(0)}/s at ${CONCURRENCY} concurrent)`,
      value: perOp(keepAlive, count * pings),
      unit: "ms",
    });
    const extra =
      delivered.serverCpu !== undefined && control.serverCpu !== undefined
        ? (delivered.serverCpu - control.serverCpu) / received
        : undefined;
    ctx.report.add({
      scenario,
      metric: `server CPU per delivered message (QoS 0): ${events} leaderboard changes to every connection, less the same events unfollowed (${((received / delivered.ms) * 1000).toFixed(0)} messages/s)`,
      value: extra,
      unit: "ms",
    });
    ctx.report.add({
      scenario,
      metric: "messages received = changes × connections",
      value: received,
      ceiling: expected,
      target: "none lost",
      pass: received === expected,
    });
  } finally {
    for (const c of clients) c.close();
  }
}
