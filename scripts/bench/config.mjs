// Sizes and bounds of a benchmark run, from environment variables. The defaults finish in about
// fourteen minutes on a 2-core machine (the fair play scenario about two of them); every load phase is bounded by a
// request count AND a duration.
//
//   BENCH_SCENARIOS=events,hot-user,warm,d1,broker,listing,growth,points,streaks,achievements,leagues,leaderboards,realtime,fanout,webhooks,fairplay
// (default: all of these)
//                   or intake-breakdown: what each part of an event costs (a diagnostic)
//   BENCH_URL=http://host:port BENCH_ADMIN_TOKEN=...   use a running server (no leaderboard seeding,
//                                                     no storage or CPU figures; webhooks need loopback).
//                                                     Start a local one with X_LOCAL_OBSERVABILITY=false,
//                                                     as the bench starts its own (scripts/lib/dev-server.mjs)
//   BENCH_USERS=1000           distinct users of the intake scenario (default 10,000, the size the
//                              targets are set for; fewer users make a shorter run)
//   BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONCURRENCY, BENCH_EVENTS, BENCH_LB_SIZES=10000,100000,1000000 ...
//   BENCH_PROFILE=1            log a CPU profile of the Worker's isolate for every measured phase
//   BENCH_PROFILE_OUT=dir      the same, and save each raw profile in dir (*.cpuprofile, for DevTools)
//   BENCH_KEEP=1               keep the server's state directory (printed) after the run

const int = (name, fallback, min = 0) => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}, got ${raw}`);
  return value;
};
const positive = (name, fallback) => int(name, fallback, 1);

const list = (name, fallback) =>
  process.env[name]
    ? process.env[name]
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : fallback;

export const SCENARIOS = [
  "events",
  "hot-user",
  "warm",
  "d1",
  "broker",
  "listing",
  "growth",
  "points",
  "streaks",
  "achievements",
  "leagues",
  "leaderboards",
  "realtime",
  "fanout",
  "webhooks",
  "fairplay",
  "players",
];
/** Run only when named in BENCH_SCENARIOS. */
export const DIAGNOSTICS = ["intake-breakdown"];

export function readConfig() {
  const config = {
    /** Use this server instead of starting one (then leaderboard seeding and storage are not measurable). */
    url: process.env.BENCH_URL || undefined,
    adminToken: process.env.BENCH_ADMIN_TOKEN || "bench-admin-token",
    port: int("BENCH_PORT", 19_000 + Math.floor(Math.random() * 900)),
    keepState: process.env.BENCH_KEEP === "1",
    /** Profile the Worker's isolate during each measured phase (scripts/bench/profile.mjs). */
    profile: process.env.BENCH_PROFILE === "1" || Boolean(process.env.BENCH_PROFILE_OUT),
    /** Also save each raw profile there, as a .cpuprofile file. */
    profileOut: process.env.BENCH_PROFILE_OUT || undefined,
    scenarios: list("BENCH_SCENARIOS", SCENARIOS),
    /** Players in the registry that the players scenario lists and searches. */
    players: positive("BENCH_PLAYERS", 1_000_000),
    /** Seconds of each measured figure at most (each also stops at its request count). */
    seconds: positive("BENCH_SECONDS", 10),
    /** A figure and its ceiling are measured in this many interleaved rounds (scripts/bench/compare.mjs). */
    rounds: positive("BENCH_ROUNDS", 3),
    events: {
      users: positive("BENCH_USERS", 10_000),
      challengesPerUser: positive("BENCH_CHALLENGES_PER_USER", 20),
      /** How many of those challenges listen to the benchmark's event (the others to other events). */
      listening: int("BENCH_LISTENING_CHALLENGES", 5),
      requests: positive("BENCH_EVENTS", 20_000),
      concurrency: positive("BENCH_CONCURRENCY", 32),
    },
    /**
     * Objects of the runtime floor's evicted phase (measured with the 10,000-user intake): more than it can call in
     * BENCH_SECONDS.
     */
    floor: { objects: positive("BENCH_FLOOR_OBJECTS", 5_000) },
    hotUser: { senders: positive("BENCH_HOT_SENDERS", 100), requests: positive("BENCH_HOT_EVENTS", 4_000) },
    listing: {
      categorySize: positive("BENCH_CATEGORY_SIZE", 1000),
      users: positive("BENCH_LISTING_USERS", 50),
      requests: positive("BENCH_LISTING_REQUESTS", 2_000),
      concurrency: positive("BENCH_LISTING_CONCURRENCY", 16),
    },
    leaderboards: {
      sizes: list("BENCH_LB_SIZES", ["10000", "100000", "1000000"]).map((n) => {
        if (!/^[1-9]\d*$/.test(n)) throw new Error(`BENCH_LB_SIZES must list positive integers, got ${n}`);
        return Number(n);
      }),
      requests: positive("BENCH_LB_REQUESTS", 3_000),
      seconds: positive("BENCH_LB_SECONDS", 5),
      // Sequential reads: latency without queueing, so that sizes compare cleanly.
      concurrency: positive("BENCH_LB_CONCURRENCY", 1),
    },
    realtime: { users: positive("BENCH_RT_USERS", 10), eventsPerUser: positive("BENCH_RT_EVENTS", 40) },
    /** Events each user of the subscriber scenario sends (measured; after 5 of warm-up). */
    fanout: { events: positive("BENCH_FANOUT_EVENTS", 60) },
    /** The background consumer's own Worker (scenarios/d1-writes.mjs): events per queue batch, leaderboard members. */
    d1: { batchSize: positive("BENCH_D1_BATCH", 100), users: positive("BENCH_D1_USERS", 10_000) },
    /** MQTT connections of the broker-cost scenario, and the events whose changes they all receive. */
    broker: {
      clients: positive("BENCH_BROKER_CLIENTS", 500),
      pings: positive("BENCH_BROKER_PINGS", 5),
      events: positive("BENCH_BROKER_EVENTS", 40),
    },
    webhooks: {
      users: positive("BENCH_WEBHOOK_USERS", 50),
      events: positive("BENCH_WEBHOOK_EVENTS", 1_000),
      waitSeconds: positive("BENCH_WEBHOOK_WAIT", 90),
    },
  };
  const known = [...SCENARIOS, ...DIAGNOSTICS];
  for (const s of config.scenarios)
    if (!known.includes(s)) throw new Error(`unknown scenario ${s}; known: ${known.join(", ")}`);
  return config;
}

/** Secrets of the benchmark's own server: never the test or deployed values. */
export const BENCH_VARS = {
  // Development: its short secrets would close a production deployment's admin API (503).
  ENVIRONMENT: "development",
  ADMIN_TOKEN: "bench-admin-token",
  JWT_SIGNING_KEYS: JSON.stringify([{ kid: "bench-1", secret: "bench-signing-secret-0123456789abcdef0123" }]),
  TOPIC_SECRET: "bench-topic-secret",
  // Off: the dev clock would add a D1 read to every request.
  DEV_CLOCK: "off",
  // No line per successful request: wrangler dev printing thousands of them would weigh on the
  // figures (its terminal is not what production pays), and keeps them comparable with earlier
  // rounds. Errors are still logged.
  LOG_SAMPLE_RATE: "0",
  ALLOW_LOOPBACK_WEBHOOKS: "on",
};
