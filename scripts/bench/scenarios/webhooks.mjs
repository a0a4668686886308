// Webhook deliveries per second to a local node:http receiver: a burst of events whose every one
// changes one challenge, so each must cause exactly one challenge-changed call.
import http from "node:http";
import { mapPool, missingFor, sleep } from "../api.mjs";
import { createChallengeApp } from "../seed.mjs";
import { summarize } from "../stats.mjs";

const SCENARIO = "webhook deliveries";
const EVENT = "kill-enemy";
const SECRET = "bench-webhook-secret";

/** The user id inside the payload's user_token (a JWT), without verifying it. */
const userOfToken = (token) =>
  JSON.parse(Buffer.from(String(token).split(".")[1] ?? "", "base64url").toString("utf8")).sub;

function startReceiver(onCall) {
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const at = process.hrtime.bigint();
      const secretOk = new URL(req.url, "http://x").searchParams.get("secret_key") === SECRET;
      res.writeHead(secretOk ? 200 : 403).end();
      if (secretOk) onCall(at, req.headers, Buffer.concat(chunks).toString("utf8"));
    });
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

export async function run(ctx) {
  const why = missingFor(ctx.features, "events", "challenges", "webhooks");
  if (why) return ctx.report.missing(SCENARIO, why);
  const { users: userCount, events: total, waitSeconds } = ctx.config.webhooks;
  const perUser = Math.max(1, Math.floor(total / userCount));
  const users = Array.from({ length: userCount }, (_, i) => `wh-user-${i}`);
  const sentAt = new Map();
  const latencies = [];
  // Deliveries of the measured events, by user and score (the warm-up events leave score 1).
  const measured = new Set();
  let warmUpCalls = 0;
  let duplicates = 0;
  let first;
  let last;
  const receiver = await startReceiver((at, _headers, body) => {
    let key;
    try {
      const payload = JSON.parse(body);
      const score =
        payload.new_challenge?.user_challenge_current_score ?? payload.new_challenge?.challenge_current_score;
      if (!(score >= 2)) return void warmUpCalls++;
      key = `${userOfToken(payload.user_token)}:${score}`;
    } catch {
      return;
    }
    if (measured.has(key)) return void duplicates++;
    measured.add(key);
    first ??= at;
    last = at;
    const start = sentAt.get(key);
    if (start !== undefined) latencies.push(Number(at - start) / 1e6);
  });
  try {
    const app = await createChallengeApp(ctx, {
      name: "Bench webhooks",
      challenges: 1,
      listeningTo: EVENT,
      listening: 1,
    });
    await ctx.client.json("POST", `/api/v1/admin/apps/${app.appId}/webhooks`, {
      token: ctx.adminToken,
      body: {
        webhook_type: "challenge-changed",
        url: `http://127.0.0.1:${receiver.address().port}/hook`,
        secret_key: SECRET,
      },
    });
    // First touch (activation) of every user before the measured burst; its calls are not counted.
    await mapPool(users, 8, (user) =>
      ctx.client.json("POST", "/api/v1/events", {
        token: app.apiKey,
        body: { user_id: user, event_name: EVENT, meta_data: { amount: 1 } },
      }),
    );
    for (let waited = 0; warmUpCalls < users.length && waited < 15_000; waited += 200) await sleep(200);

    // One event in flight per user, so that score n of a user is the nth event's doing.
    const start = process.hrtime.bigint();
    await Promise.all(
      users.map(async (user) => {
        for (let n = 2; n <= perUser + 1; n++) {
          sentAt.set(`${user}:${n}`, process.hrtime.bigint());
          const r = await ctx.client.request("POST", "/api/v1/events", {
            token: app.apiKey,
            body: { user_id: user, event_name: EVENT, meta_data: { amount: 1 } },
          });
          if (r.status !== 200) throw new Error(`event answered ${r.status}: ${r.text.slice(0, 200)}`);
        }
      }),
    );
    const sentMs = Number(process.hrtime.bigint() - start) / 1e6;
    const expected = users.length * perUser;
    const deadline = Date.now() + waitSeconds * 1000;
    while (measured.size < expected && Date.now() < deadline) await sleep(200);
    await sleep(1000); // late duplicates
    const windowMs = first && last ? Number(last - first) / 1e6 : NaN;
    const rate = (measured.size / windowMs) * 1000;
    const eventRate = (expected / sentMs) * 1000;
    const lat = summarize(latencies);
    const label = `${SCENARIO} (challenge-changed), ${expected.toLocaleString("en-US")} events of ${users.length} users`;
    ctx.report.add({
      scenario: label,
      metric: "deliveries/s (ceiling: the events' intake rate; p50/p99: event sent → call received)",
      value: rate,
      ceiling: eventRate,
      ratio: rate / eventRate,
      p50: lat.p50,
      p99: lat.p99,
    });
    ctx.report.add({
      scenario: label,
      metric: `calls received = changes (${duplicates} duplicates)`,
      value: measured.size,
      ceiling: expected,
      target: "none lost",
      pass: measured.size === expected,
    });
  } finally {
    receiver.close();
  }
}
