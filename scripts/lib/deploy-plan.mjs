// What `npm run deploy` has to do, decided from the resolved wrangler config and what the account
// already holds. Pure: no I/O, so that the plan of a fresh and of a deployed account is testable.

/** The secrets the service needs (src/shared/secrets.ts); missing ones are generated. */
export const REQUIRED_SECRETS = ["ADMIN_TOKEN", "JWT_SIGNING_KEYS", "TOPIC_SECRET"];

/** The name wrangler gives a resource that the config names only by binding. */
const autoProvisionedName = (worker, binding) => `${worker}-${binding.toLowerCase().replaceAll("_", "-")}`;

const unique = (names) => [...new Set(names.filter(Boolean))];

/**
 * Everything the config (one environment of it, as wrangler resolves it) needs in the account:
 * every D1 database, every queue (producers, consumers and dead-letter queues: `wrangler deploy`
 * creates only producers), every R2 bucket, and the static assets it uploads.
 * @param {import("wrangler").Unstable_Config} config
 */
export function resourcesOf(config) {
  const worker = config.name;
  return {
    worker,
    d1: config.d1_databases.map((db) => ({
      binding: db.binding,
      name: db.database_name ?? autoProvisionedName(worker, db.binding),
      id: db.database_id ?? null,
    })),
    queues: unique([
      ...(config.queues.producers ?? []).map((p) => p.queue),
      ...(config.queues.consumers ?? []).flatMap((c) => [c.queue, c.dead_letter_queue]),
    ]),
    r2: config.r2_buckets.map((b) => ({
      binding: b.binding,
      name: b.bucket_name ?? autoProvisionedName(worker, b.binding),
      jurisdiction: b.jurisdiction ?? null,
    })),
    assets: config.assets?.directory ?? null,
  };
}

/**
 * @param {ReturnType<typeof resourcesOf>} resources
 * @param {{d1: Set<string>, queues: Set<string>, r2: Set<string>, secrets: Set<string>}} account
 *   what exists: database and bucket names, queue names, and the Worker's secret names (empty when
 *   the Worker was never deployed)
 */
export function planDeployment(resources, account) {
  return {
    worker: resources.worker,
    // A database given by id is the operator's own: it is used as it is.
    createDatabases: resources.d1.filter((db) => db.id === null && !account.d1.has(db.name)).map((db) => db.name),
    createQueues: resources.queues.filter((name) => !account.queues.has(name)),
    createBuckets: resources.r2
      .filter((b) => !account.r2.has(b.name))
      .map(({ name, jurisdiction }) => ({ name, jurisdiction })),
    // Always: wrangler applies only the migrations the database has not seen.
    migrateDatabases: resources.d1.map((db) => db.name),
    generateSecrets: REQUIRED_SECRETS.filter((name) => !account.secrets.has(name)),
    assets: resources.assets,
  };
}

/** @param {ReturnType<typeof planDeployment>} plan */
export const createsNothing = (plan) =>
  plan.createDatabases.length + plan.createQueues.length + plan.createBuckets.length + plan.generateSecrets.length ===
  0;

/**
 * The plan as printed before anything runs: each resource with what happens to it.
 * @param {ReturnType<typeof resourcesOf>} resources
 * @param {ReturnType<typeof planDeployment>} plan
 */
export function describePlan(resources, plan) {
  const rows = [
    ...resources.d1.map((db) => [
      "D1 database",
      db.name,
      db.id !== null ? "exists (given by id)" : plan.createDatabases.includes(db.name) ? "create" : "exists",
    ]),
    ...resources.queues.map((name) => ["queue", name, plan.createQueues.includes(name) ? "create" : "exists"]),
    ...resources.r2.map((b) => [
      "R2 bucket",
      b.name,
      plan.createBuckets.some((c) => c.name === b.name) ? "create" : "exists",
    ]),
    ...REQUIRED_SECRETS.map((name) => ["secret", name, plan.generateSecrets.includes(name) ? "generate" : "set"]),
  ];
  const width = Math.max(...rows.map(([, name]) => name.length));
  return [
    `Worker ${plan.worker}:`,
    ...rows.map(([kind, name, action]) => `  ${kind.padEnd(12)} ${name.padEnd(width)}  ${action}`),
    ...plan.migrateDatabases.map(
      (name) => `  ${"migrations".padEnd(12)} ${name.padEnd(width)}  apply the pending ones (remote)`,
    ),
    `  ${"deploy".padEnd(12)} ${plan.worker.padEnd(width)}  upload and deploy${plan.assets ? `, with the static files of ${plan.assets}` : ""}`,
  ];
}
