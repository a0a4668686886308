/**
 * The service's clock. In production it is the real time. With DEV_CLOCK=on (local development
 * only) the admin API can move it forward, so tests and demos cross time-outs and resets without
 * waiting; the offset lives in D1 so the Worker, every Durable Object and cron agree on it.
 */
export interface ServiceClock {
  /** Service time minus wall-clock time: 0 in production. */
  readonly offsetMs: number;
  /** The service time at this moment. */
  now(): number;
  /** The wall-clock time at which the service clock shows `serviceMs` (alarms and the runtime use wall time). */
  toWall(serviceMs: number): number;
}

const clockWithOffset = (offsetMs: number): ServiceClock => ({
  offsetMs,
  now: () => Date.now() + offsetMs,
  toWall: (serviceMs) => serviceMs - offsetMs,
});

/** Reads the offset once; the clock it answers then runs on without further reads. */
export async function readClock(env: Pick<Env, "DEV_CLOCK" | "DB">): Promise<ServiceClock> {
  if (env.DEV_CLOCK !== "on") return clockWithOffset(0);
  const row = await env.DB.prepare("SELECT offset_ms FROM dev_clock WHERE id = 1").first<{ offset_ms: number }>();
  return clockWithOffset(row?.offset_ms ?? 0);
}

export async function getNow(env: Pick<Env, "DEV_CLOCK" | "DB">): Promise<number> {
  return (await readClock(env)).now();
}

export async function setClockOffset(db: D1Database, offsetMs: number): Promise<void> {
  await db
    .prepare(
      "INSERT INTO dev_clock (id, offset_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET offset_ms = excluded.offset_ms",
    )
    .bind(offsetMs)
    .run();
}

export const toIso = (ms: number) => new Date(ms).toISOString();
