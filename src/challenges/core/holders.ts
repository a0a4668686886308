import type { HeldState, HolderDelta } from "../../user/messages";
import type { StoredType } from "./lifecycle";

/**
 * How many users hold each challenge in a state that running play depends on, counted in D1 from
 * +1/-1 that each user's object reports with its state changes (migrations/0010_catalog_keys.sql).
 * A catalog change that would break those states is refused while anybody holds them.
 */
const HELD: Partial<Record<StoredType, HeldState>> = {
  unlocked: "unlocked",
  "in-progress": "in-progress",
  unclaimed: "unclaimed",
};

/** The +1/-1 of one touch (a list, an action, an event, an alarm), summed per challenge and state. */
export class HolderTally {
  private readonly sums = new Map<string, { id: string; state: HeldState; delta: number }>();

  /** A challenge's stored type moved from `before` to `after` (null: no instance). */
  move(challengeId: string, before: StoredType | null, after: StoredType | null): void {
    const left = before === null ? undefined : HELD[before];
    const entered = after === null ? undefined : HELD[after];
    if (left === entered) return;
    if (left) this.add(challengeId, left, -1);
    if (entered) this.add(challengeId, entered, 1);
  }

  private add(id: string, state: HeldState, delta: number): void {
    const key = `${id}\u0000${state}`;
    const sum = this.sums.get(key) ?? { id, state, delta: 0 };
    sum.delta += delta;
    this.sums.set(key, sum);
  }

  /** What to report: the sums that moved. */
  deltas(): HolderDelta[] {
    return [...this.sums.values()].filter((s) => s.delta !== 0).map((s) => ({ object: "challenge", ...s }));
  }
}
