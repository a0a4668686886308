// Sizes and bounds of a benchmark run, from environment variables. The defaults finish in a few
// minutes on a 2-core machine; every load phase is bounded by a request count AND a duration.

const int = (name, fallback) => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got ${raw}`);
  return value;
};

const list = (name, fallback) => (process.env[name] ? process.env[name].split(",").map((s) => s.trim()).filter(Boolean) : fallback);

export const SCENARIOS = ["events", "hot-user", "listing", "leaderboards", "realtime", "webhooks"];

export function readConfig() {
  const config = {
    /** Use this server instead of starting one (then leaderboard seeding and storage are not measurable). */
    url: process.env.BENCH_URL || undefined,
    adminToken: process.env.BENCH_ADMIN_TOKEN || "bench-admin-token",
    port: int("BENCH_PORT", 19_000 + Math.floor(Math.random() * 900)),
    keepState: process.env.BENCH_KEEP === "1",
    /** Profile the Worker's isolate during each measured phase (scripts/bench/profile.mjs). */
    profile: process.env.BENCH_PROFILE === "1",
    scenarios: list("BENCH_SCENARIOS", SCENARIOS),
    /** Seconds of each measured load phase at most (each also stops at its request count). */
    seconds: int("BENCH_SECONDS", 10),
    events: {
      users: int("BENCH_USERS", 1_000),
      challengesPerUser: int("BENCH_CHALLENGES_PER_USER", 20),
      /** How many of those challenges listen to the benchmark's event (the others to other events). */
      listening: int("BENCH_LISTENING_CHALLENGES", 5),
      requests: int("BENCH_EVENTS", 20_000),
      concurrency: int("BENCH_CONCURRENCY", 32),
    },
    hotUser: { senders: int("BENCH_HOT_SENDERS", 100), requests: int("BENCH_HOT_EVENTS", 4_000) },
    listing: {
      categorySize: int("BENCH_CATEGORY_SIZE", 1000),
      users: int("BENCH_LISTING_USERS", 50),
      requests: int("BENCH_LISTING_REQUESTS", 2_000),
      concurrency: int("BENCH_LISTING_CONCURRENCY", 16),
    },
    leaderboards: {
      sizes: list("BENCH_LB_SIZES", ["10000", "100000", "1000000"]).map(Number),
      requests: int("BENCH_LB_REQUESTS", 3_000),
      seconds: int("BENCH_LB_SECONDS", 5),
      concurrency: int("BENCH_LB_CONCURRENCY", 4),
    },
    realtime: { users: int("BENCH_RT_USERS", 10), eventsPerUser: int("BENCH_RT_EVENTS", 40) },
    webhooks: { users: int("BENCH_WEBHOOK_USERS", 50), events: int("BENCH_WEBHOOK_EVENTS", 1_000), waitSeconds: int("BENCH_WEBHOOK_WAIT", 90) },
  };
  for (const s of config.scenarios) if (!SCENARIOS.includes(s)) throw new Error(`unknown scenario ${s}; known: ${SCENARIOS.join(", ")}`);
  return config;
}

/** Secrets of the benchmark's own server: never the test or deployed values. */
export const BENCH_VARS = {
  ADMIN_TOKEN: "bench-admin-token",
  JWT_SIGNING_KEYS: JSON.stringify([{ kid: "bench-1", secret: "bench-signing-secret-0123456789abcdef0123" }]),
  TOPIC_SECRET: "bench-topic-secret",
  // Off: the dev clock would add a D1 read to every request.
  DEV_CLOCK: "off",
  ALLOW_LOOPBACK_WEBHOOKS: "on",
};
