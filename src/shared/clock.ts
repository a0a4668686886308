/**
 * The service's clock. In production it is the real time. With DEV_CLOCK=on (local development
 * only) the admin API can move it forward, so tests and demos cross time-outs and resets without
 * waiting; the offset lives in D1 so the Worker, every Durable Object and cron agree on it.
 */
export async function getNow(env: Pick<Env, "DEV_CLOCK" | "DB">): Promise<number> {
  if (env.DEV_CLOCK !== "on") return Date.now();
  const row = await env.DB.prepare("SELECT offset_ms FROM dev_clock WHERE id = 1").first<{ offset_ms: number }>();
  return Date.now() + (row?.offset_ms ?? 0);
}

export async function setClockOffset(db: D1Database, offsetMs: number): Promise<void> {
  await db
    .prepare("INSERT INTO dev_clock (id, offset_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET offset_ms = excluded.offset_ms")
    .bind(offsetMs)
    .run();
}

export const toIso = (ms: number) => new Date(ms).toISOString();
