/**
 * Development only (DEV_CLOCK=on): which players' objects hold a timer of an area, by its service
 * time (migrations/0018_streaks.sql `dev_timers`), so that advancing the development clock runs the
 * timers it makes due (a streak lost, a challenge's time-out) without waiting for the runtime's alarm.
 */

/** Most objects one advance of the clock runs the timers of: the development clock stays bounded. */
export const DEV_TIMERS_PER_ADVANCE = 500;

/** Records the object's earliest timer, or forgets it when it has none. */
export async function recordDevTimer(db: D1Database, objectId: string, timers: number[]): Promise<void> {
  if (timers.length === 0) await db.prepare("DELETE FROM dev_timers WHERE object_id = ?").bind(objectId).run();
  else
    await db
      .prepare(
        "INSERT INTO dev_timers (object_id, due_at) VALUES (?, ?) ON CONFLICT (object_id) DO UPDATE SET due_at = excluded.due_at",
      )
      .bind(objectId, Math.min(...timers))
      .run();
}

/** Runs the timers due by `now` (service time) in the objects holding them, earliest first. */
export async function runDueDevTimers(env: Env, now: number): Promise<number> {
  const { results } = await env.DB.prepare("SELECT object_id FROM dev_timers WHERE due_at <= ? ORDER BY due_at LIMIT ?")
    .bind(now, DEV_TIMERS_PER_ADVANCE)
    .all<{ object_id: string }>();
  await Promise.all(results.map((r) => env.USER.get(env.USER.idFromString(r.object_id)).runDueTimers()));
  return results.length;
}
