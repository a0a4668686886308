// The subscribers of the fan-out scenario, in a process of their own (scenarios/fanout.mjs forks
// it): hundreds of them parse every message, and in the process that sends the events that work
// would queue the event's own answer behind them, as no game client's subscribers do. Each user's
// subscribers count the messages about the challenge, check that its scores come in order, and
// note when the last of them got each score (epoch ms, the clock the sender uses).
import { mapPool, sleep } from "./api.mjs";
import { BenchClient, loadCodec } from "./mqtt-client.mjs";

/** Stragglers: how long the report waits at most for messages still on their way. */
const STRAGGLERS_MS = 5000;

const now = () => performance.timeOrigin + performance.now();

process.once("message", async ({ wsUrl, challengeId, users }) => {
  const codec = await loadCodec();
  const clients = [];
  const stats = {};
  for (const { id, topic, count } of users) {
    const user = (stats[id] = { received: 0, outOfOrder: 0, lastAt: {} });
    // A few connections at a time: hundreds of simultaneous upgrades would time out on a busy machine.
    await mapPool(
      Array.from({ length: count }, (_, i) => i),
      16,
      async (i) => {
        const client = await BenchClient.open(wsUrl, codec, `${id}-${i}`);
        clients.push(client);
        let last = 0;
        client.onPublish = (packet) => {
          const at = now();
          const challenge = JSON.parse(Buffer.from(packet.payload).toString("utf8")).new_challenge ?? {};
          if (String(challenge.challenge_id) !== challengeId) return;
          const score = challenge.user_challenge_current_score;
          user.received++;
          if (score <= last) user.outOfOrder++;
          last = score;
          user.lastAt[score] = at;
        };
        await client.subscribe(topic);
      },
    );
  }
  process.send({ ready: true });
  // The report: once every subscriber has every one of the `events` messages, or STRAGGLERS_MS after the ask.
  process.once("message", async ({ events }) => {
    const complete = () => users.every(({ id, count }) => stats[id].received >= count * events);
    for (const deadline = Date.now() + STRAGGLERS_MS; !complete() && Date.now() < deadline; ) await sleep(50);
    for (const client of clients) client.close();
    process.send({ stats }, () => process.exit(0));
  });
});
