// The subscribers of the fan-out scenario, in a process of their own (scenarios/fanout.mjs forks
// it): hundreds of them parse every message, and in the process that sends the events that work
// would queue the event's own answer behind them, as no game client's subscribers do. Each user's
// subscribers count the messages about the challenge, check that its scores come in order, and
// note when the last of them got each score (epoch ms, the clock the sender uses).
import { BenchClient, loadCodec } from "./mqtt-client.mjs";

const now = () => performance.timeOrigin + performance.now();

process.once("message", async ({ wsUrl, challengeId, users }) => {
  const codec = await loadCodec();
  const clients = [];
  const stats = {};
  for (const { id, topic, count } of users) {
    const user = (stats[id] = { received: 0, outOfOrder: 0, lastAt: {} });
    const opened = Array.from({ length: count }, (_, i) =>
      BenchClient.open(wsUrl, codec, `${id}-${i}`).then(async (client) => {
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
      }),
    );
    await Promise.all(opened);
  }
  process.send({ ready: true });
  process.once("message", () => {
    for (const client of clients) client.close();
    process.send({ stats }, () => process.exit(0));
  });
});
