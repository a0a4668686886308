import { describe, expect, it } from "vitest";
import { createsNothing, describePlan, planDeployment, resourcesOf } from "../../../scripts/lib/deploy-plan.mjs";

/** The parts of a resolved wrangler config the plan reads, as `unstable_readConfig` gives them. */
const config = {
  name: "open-gamification",
  d1_databases: [
    { binding: "DB", database_name: "gamification", migrations_dir: "migrations" },
    { binding: "LEGACY_DB", database_name: "legacy", database_id: "6f1f0c3e-0000-4000-8000-000000000000" },
  ],
  queues: {
    producers: [
      { binding: "WEBHOOKS", queue: "gamification-webhooks" },
      { binding: "BACKGROUND", queue: "gamification-background" },
    ],
    consumers: [
      { queue: "gamification-webhooks", dead_letter_queue: "gamification-webhooks-dlq" },
      { queue: "gamification-webhooks-dlq" },
      { queue: "gamification-background" },
    ],
  },
  r2_buckets: [
    { binding: "EVENTS_ARCHIVE", bucket_name: "gamification-events" },
    { binding: "EU_FILES", bucket_name: "eu-files", jurisdiction: "eu" },
    { binding: "AUTO_NAMED" },
  ],
  assets: { directory: "./console/dist", binding: "ASSETS" },
};

const empty = { d1: new Set<string>(), queues: new Set<string>(), r2: new Set<string>(), secrets: new Set<string>() };

describe("resourcesOf", () => {
  it("lists every database, queue (dead-letter ones included, once each), bucket and the assets", () => {
    expect(resourcesOf(config)).toEqual({
      worker: "open-gamification",
      d1: [
        { binding: "DB", name: "gamification", id: null },
        { binding: "LEGACY_DB", name: "legacy", id: "6f1f0c3e-0000-4000-8000-000000000000" },
      ],
      queues: ["gamification-webhooks", "gamification-background", "gamification-webhooks-dlq"],
      r2: [
        { binding: "EVENTS_ARCHIVE", name: "gamification-events", jurisdiction: null },
        { binding: "EU_FILES", name: "eu-files", jurisdiction: "eu" },
        // Wrangler's own name for a bucket the config names by binding only.
        { binding: "AUTO_NAMED", name: "open-gamification-auto-named", jurisdiction: null },
      ],
      assets: "./console/dist",
    });
  });
});

describe("planDeployment", () => {
  it("creates everything on a fresh account, except a database given by id", () => {
    const plan = planDeployment(resourcesOf(config), empty);
    expect(plan).toEqual({
      worker: "open-gamification",
      createDatabases: ["gamification"],
      createQueues: ["gamification-webhooks", "gamification-background", "gamification-webhooks-dlq"],
      createBuckets: [
        { name: "gamification-events", jurisdiction: null },
        { name: "eu-files", jurisdiction: "eu" },
        { name: "open-gamification-auto-named", jurisdiction: null },
      ],
      migrateDatabases: ["gamification", "legacy"],
      generateSecrets: ["ADMIN_TOKEN", "JWT_SIGNING_KEYS", "TOPIC_SECRET"],
      assets: "./console/dist",
    });
    expect(createsNothing(plan)).toBe(false);
  });

  it("creates only what is missing, and nothing on a deployed account", () => {
    const resources = resourcesOf(config);
    const partly = planDeployment(resources, {
      ...empty,
      d1: new Set(["gamification"]),
      queues: new Set(["gamification-webhooks"]),
      secrets: new Set(["ADMIN_TOKEN"]),
    });
    expect(partly.createDatabases).toEqual([]);
    expect(partly.createQueues).toEqual(["gamification-background", "gamification-webhooks-dlq"]);
    expect(partly.generateSecrets).toEqual(["JWT_SIGNING_KEYS", "TOPIC_SECRET"]);

    const deployed = planDeployment(resources, {
      d1: new Set(["gamification"]),
      queues: new Set(resources.queues),
      r2: new Set(resources.r2.map((b) => b.name)),
      secrets: new Set(["ADMIN_TOKEN", "JWT_SIGNING_KEYS", "TOPIC_SECRET", "SOMETHING_ELSE"]),
    });
    expect(createsNothing(deployed)).toBe(true);
    expect(deployed.migrateDatabases).toEqual(["gamification", "legacy"]);
  });
});

describe("describePlan", () => {
  it("shows each resource with what happens to it", () => {
    const resources = resourcesOf(config);
    const plan = planDeployment(resources, {
      ...empty,
      queues: new Set(["gamification-webhooks"]),
      secrets: new Set(["TOPIC_SECRET"]),
    });
    expect(describePlan(resources, plan)).toEqual([
      "Worker open-gamification:",
      "  D1 database  gamification                  create",
      "  D1 database  legacy                        exists (given by id)",
      "  queue        gamification-webhooks         exists",
      "  queue        gamification-background       create",
      "  queue        gamification-webhooks-dlq     create",
      "  R2 bucket    gamification-events           create",
      "  R2 bucket    eu-files                      create",
      "  R2 bucket    open-gamification-auto-named  create",
      "  secret       ADMIN_TOKEN                   generate",
      "  secret       JWT_SIGNING_KEYS              generate",
      "  secret       TOPIC_SECRET                  set",
      "  migrations   gamification                  apply the pending ones (remote)",
      "  migrations   legacy                        apply the pending ones (remote)",
      "  deploy       open-gamification             upload and deploy, with the static files of ./console/dist",
    ]);
  });
});
