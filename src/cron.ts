/** Periodic work that must happen even when no user is active: runs every minute. */
export async function runScheduled(_env: Env, _now: number): Promise<void> {}
