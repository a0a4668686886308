import { eventAmount, matchesEvent, type CounterEvent } from "../../rules/counter";
import { counterSignature, readsTotals, type AchievementDef, type AchievementsCatalog, type MetricRule } from "./model";

/**
 * How a player earns achievements, as pure functions over what their object keeps: the running
 * totals per event name, the counters of metric achievements that count on their own, and what
 * they hold. The object reads these, calls here, and writes what changed.
 */

/** One event name's running totals of the event's default amount. */
export interface Totals {
  count: number;
  sum: number;
  max: number;
}

/** A counter of a metric achievement that does not read the totals; `signature` says what it counted. */
export interface Counter {
  signature: string;
  value: number;
}

export const ZERO_TOTALS: Totals = { count: 0, sum: 0, max: 0 };

/**
 * The event's default amount: `amount` when it has one, else 1; null when its `amount` is not a
 * whole number (the event then moves no totals, as it would count for no achievement).
 */
export const defaultAmount = (event: Pick<CounterEvent, "metaData">) => eventAmount({ valueField: null }, event);

export function addToTotals(totals: Totals, amount: number): Totals {
  return {
    count: totals.count + 1,
    sum: totals.sum + amount,
    max: totals.count === 0 ? amount : Math.max(totals.max, amount),
  };
}

/** A value after one more event of `amount`, by the achievement's aggregation. */
export function aggregate(value: number, rule: Pick<MetricRule, "aggregation">, amount: number, first: boolean) {
  if (rule.aggregation === "count") return value + 1;
  if (rule.aggregation === "sum") return value + amount;
  return first ? amount : Math.max(value, amount);
}

/** What a player's object reads to know a metric achievement's progress. */
export interface ProgressSource {
  totals(eventName: string): Totals;
  counter(achievementId: string): Counter | undefined;
}

/** The progress of a metric achievement: its aggregation of the totals, or its own counter's value. */
export function metricProgress(def: AchievementDef, source: ProgressSource): number {
  const rule = def.metric;
  if (!rule) return 0;
  if (readsTotals(rule)) return source.totals(rule.eventName)[rule.aggregation];
  const counter = source.counter(def.achievementId);
  return counter && counter.signature === counterSignature(rule) ? counter.value : 0;
}

/**
 * The counters an event moves: active metric achievements of its name that count on their own and
 * whose filters (and value field) it passes. A counter that counted under another definition
 * starts again.
 */
export function movedCounters(
  catalog: AchievementsCatalog,
  event: CounterEvent,
  counter: (achievementId: string) => Counter | undefined,
): Map<string, Counter> {
  const moved = new Map<string, Counter>();
  for (const def of catalog.activeMetricsByEvent.get(event.eventName) ?? []) {
    const rule = def.metric!;
    if (readsTotals(rule)) continue;
    const matcher = { eventName: rule.eventName, valueField: rule.valueField, filters: rule.filters };
    if (!matchesEvent(matcher, event)) continue;
    const amount = eventAmount(matcher, event)!;
    const signature = counterSignature(rule);
    const known = counter(def.achievementId);
    const current = known && known.signature === signature ? known : null;
    moved.set(def.achievementId, {
      signature,
      value: aggregate(current?.value ?? 0, rule, amount, current === null),
    });
  }
  return moved;
}

const reached = (def: AchievementDef, source: ProgressSource) =>
  def.metric !== null && metricProgress(def, source) >= def.metric.threshold;

/**
 * Active composites earned once `held` holds what they require, in the order they are earned:
 * a composite earned here may complete another. `from`: only composites requiring these ids are
 * looked at first (an event's new holdings); null: every active composite (a sweep).
 */
function compositesEarned(
  catalog: AchievementsCatalog,
  held: Set<string>,
  from: string[] | null,
  blocked: ReadonlySet<string>,
): AchievementDef[] {
  const earned: AchievementDef[] = [];
  const holdsAll = (def: AchievementDef) =>
    def.requires.every((key) => {
      const required = catalog.byKey.get(key);
      return required !== undefined && held.has(required.achievementId);
    });
  let candidates =
    from === null
      ? catalog.achievements.filter((a) => a.kind === "composite" && a.status === "active")
      : from.flatMap((id) => catalog.compositesRequiring.get(id) ?? []);
  while (candidates.length > 0) {
    const next: AchievementDef[] = [];
    for (const def of candidates) {
      if (held.has(def.achievementId) || blocked.has(def.achievementId) || !holdsAll(def)) continue;
      held.add(def.achievementId);
      earned.push(def);
      next.push(...(catalog.compositesRequiring.get(def.achievementId) ?? []));
    }
    candidates = next;
  }
  return earned;
}

/**
 * What one event earns, in order: the active metric achievements of its name whose progress
 * reached their threshold (the ladder's rungs it passed), then the composites they complete.
 * `held` is updated; `blocked` (revoked from the player) are not earned again this way.
 */
export function earnedByEvent(
  catalog: AchievementsCatalog,
  eventName: string,
  source: ProgressSource,
  held: Set<string>,
  blocked: ReadonlySet<string> = new Set(),
): AchievementDef[] {
  const metrics = (catalog.activeMetricsByEvent.get(eventName) ?? []).filter(
    (def) => !held.has(def.achievementId) && !blocked.has(def.achievementId) && reached(def, source),
  );
  for (const def of metrics) held.add(def.achievementId);
  return [
    ...metrics,
    ...compositesEarned(
      catalog,
      held,
      metrics.map((d) => d.achievementId),
      blocked,
    ),
  ];
}

/**
 * Every active achievement the player qualifies for and does not hold (backdating: an achievement
 * created or activated since the object last looked), metrics first, then composites. `held` is updated.
 */
export function earnedBySweep(
  catalog: AchievementsCatalog,
  source: ProgressSource,
  held: Set<string>,
  blocked: ReadonlySet<string> = new Set(),
) {
  const metrics = catalog.achievements.filter(
    (def) =>
      def.status === "active" &&
      !held.has(def.achievementId) &&
      !blocked.has(def.achievementId) &&
      reached(def, source),
  );
  for (const def of metrics) held.add(def.achievementId);
  return [...metrics, ...compositesEarned(catalog, held, null, blocked)];
}

/** After a grant: the composites it completes. `held` is updated (and holds the granted one). */
export function earnedByGrant(
  catalog: AchievementsCatalog,
  grantedId: string,
  held: Set<string>,
  blocked: ReadonlySet<string> = new Set(),
) {
  held.add(grantedId);
  return compositesEarned(catalog, held, [grantedId], blocked);
}

/**
 * What revoking an achievement takes: it, and every held composite (of any status) that requires
 * it, directly or through another composite.
 */
export function revokedWith(catalog: AchievementsCatalog, revokedId: string, held: ReadonlySet<string>): string[] {
  const revoked = [revokedId];
  const keys = new Set<string>();
  const first = catalog.byId.get(revokedId);
  if (first) keys.add(first.key);
  let grew = true;
  while (grew) {
    grew = false;
    for (const def of catalog.achievements) {
      if (def.kind !== "composite" || !held.has(def.achievementId) || revoked.includes(def.achievementId)) continue;
      if (def.requires.some((key) => keys.has(key))) {
        revoked.push(def.achievementId);
        keys.add(def.key);
        grew = true;
      }
    }
  }
  return revoked;
}

/** The share of the app's players who hold it, in percent with one decimal (0 without players). */
export function rarityOf(holders: number, players: number): number {
  if (players <= 0 || holders <= 0) return 0;
  return Math.min(100, Math.round((holders * 1000) / players) / 10);
}

/**
 * A cycle among composites' requirements (keys), as the path that closes it, or null. `requires`
 * maps each composite's key to the keys it requires.
 */
export function requirementCycle(requires: Map<string, string[]>): string[] | null {
  const state = new Map<string, "visiting" | "done">();
  const path: string[] = [];
  const visit = (key: string): string[] | null => {
    const seen = state.get(key);
    if (seen === "done") return null;
    if (seen === "visiting") return [...path.slice(path.indexOf(key)), key];
    state.set(key, "visiting");
    path.push(key);
    for (const next of requires.get(key) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(key, "done");
    return null;
  };
  for (const key of requires.keys()) {
    const cycle = visit(key);
    if (cycle) return cycle;
  }
  return null;
}
