import type { CronRun } from "../cron-runs";

/** What the status endpoint found, gathered by src/ops/status.ts. */
export interface StatusFacts {
  development: boolean;
  devClock: boolean;
  loopbackWebhooks: boolean;
  weakTopicSecret: string | null;
  d1: { reachable: true; latestMigration: string | null } | { reachable: false; error: string };
  expectedMigration: string;
  missingQueues: string[];
  cron: CronRun | null;
}

/** The cron runs every minute: no run for this long means it stopped. */
export const CRON_STALE_MS = 10 * 60_000;

/**
 * Everything unsafe or broken, one sentence each saying what to do; [] when all is well.
 * Development settings are expected in development, and its cron runs only on request.
 */
export function statusWarnings(facts: StatusFacts, now: number): string[] {
  const warnings: string[] = [];
  if (!facts.development) {
    if (facts.devClock)
      warnings.push(
        'DEV_CLOCK is "on" outside development: anyone with the admin token can move the service\'s clock. Set DEV_CLOCK = "off".',
      );
    if (facts.loopbackWebhooks) {
      warnings.push(
        'ALLOW_LOOPBACK_WEBHOOKS is "on" outside development: webhooks may be sent to plain-http loopback addresses. Set ALLOW_LOOPBACK_WEBHOOKS = "off".',
      );
    }
  }
  if (facts.weakTopicSecret) {
    warnings.push(
      `${facts.weakTopicSecret}. Set a random secret of at least 32 characters with \`wrangler secret put TOPIC_SECRET\`; the topics handed out so far stop working, and clients fetch new ones.`,
    );
  }
  if (!facts.d1.reachable) warnings.push(`D1 is not reachable: ${facts.d1.error}`);
  else if (facts.d1.latestMigration === null || facts.d1.latestMigration < facts.expectedMigration) {
    warnings.push(
      `D1 migrations are behind the code (latest applied: ${facts.d1.latestMigration ?? "none"}, expected: ${facts.expectedMigration}). Run \`npm run deploy\`, or \`wrangler d1 migrations apply DB --remote\`.`,
    );
  }
  for (const binding of facts.missingQueues)
    warnings.push(`The queue binding ${binding} is missing: check [[queues.producers]] in wrangler.toml.`);
  if (facts.cron?.failed_tasks.length) {
    warnings.push(
      `The cron's last run (${facts.cron.started_at}) failed in: ${facts.cron.failed_tasks.join(", ")}. Its log lines have source "cron".`,
    );
  }
  if (!facts.development && facts.cron && now - Date.parse(facts.cron.finished_at) > CRON_STALE_MS) {
    warnings.push(`The cron has not run since ${facts.cron.finished_at}: check the Worker's cron trigger.`);
  }
  return warnings;
}
