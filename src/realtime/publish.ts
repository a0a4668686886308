import type { Change } from "../changes/types";

/** Pushes changes to MQTT subscribers of their topics. Filled in by the realtime area. */
export async function publishChanges(_env: Env, _changes: Change[]): Promise<void> {}
