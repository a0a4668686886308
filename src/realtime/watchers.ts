import type { Change } from "../changes/types";
import type { AreaTables, AreaSql } from "../shared/object-tables";
import type { TopicBatch } from "./broker-do";
import { topicBatches } from "./publish";
import { logBackgroundFailure } from "../shared/log";

/** The table as its first migration made it: history, never changed. */
const WATCHERS_TABLE =
  "CREATE TABLE rt_watchers (topic TEXT NOT NULL, broker TEXT NOT NULL, since INTEGER NOT NULL, PRIMARY KEY (topic, broker))";

/**
 * Which of a user's topics have subscribers, and in which broker objects: kept by the user's object
 * (and by the hub of a topic of no one user: topic-hub-do.ts) so that changes go out over MQTT only
 * to the broker shards where somebody listens, and a topic nobody watches costs no broker call. A
 * broker tells the owner of a topic when the topic gains its first subscriber there (before the
 * SUBACK) and when it loses its last. An entry the broker could not retract (it restarted, or the
 * call failed) comes back as unheard from the next publish, and is dropped then.
 */
export const watchersTables: AreaTables = {
  area: "realtime",
  migrations: [WATCHERS_TABLE],
  // The same table as one b-tree: its key is the table (src/shared/object-tables.ts).
  created: `${WATCHERS_TABLE} WITHOUT ROWID`,
};

/** Broker object id → when it said the topic has a subscriber there. */
type Brokers = Map<string, number>;

export class TopicWatchers {
  private byTopic: Map<string, Brokers> | null = null;

  constructor(private readonly sql: AreaSql) {}

  /** A broker's news: `topics` gained their first subscriber in it (`watching`) or lost their last. */
  update(broker: string, topics: string[], watching: boolean, now: number): void {
    const byTopic = this.topics();
    for (const topic of topics) {
      if (watching) {
        this.sql.exec("INSERT OR REPLACE INTO rt_watchers (topic, broker, since) VALUES (?, ?, ?)", topic, broker, now);
        const brokers = byTopic.get(topic) ?? new Map<string, number>();
        byTopic.set(topic, brokers.set(broker, now));
      } else {
        this.forget(topic, broker);
      }
    }
  }

  /** Whether the topic has a subscriber in some broker object. */
  watches(topic: string): boolean {
    return this.topics().has(topic);
  }

  /** Whether any topic of the user has a subscriber anywhere. */
  get any(): boolean {
    return this.topics().size > 0;
  }

  /** Publishes the changes to the topics that have subscribers, one call per broker object. */
  async publish(env: Env, changes: Change[]): Promise<void> {
    if (!this.any) return;
    try {
      const byTopic = this.topics();
      await this.publishBatches(env, await topicBatches(env, changes, (topic) => byTopic.has(topic)));
    } catch (err) {
      console.error("mqtt: publish failed", err);
    }
  }

  /** Publishes messages already grouped by topic to the broker objects where their topics have subscribers. */
  async publishBatches(env: Env, batches: TopicBatch[]): Promise<void> {
    if (!this.any) return;
    try {
      const byTopic = this.topics();
      const byBroker = new Map<string, TopicBatch[]>();
      for (const batch of batches) {
        for (const broker of byTopic.get(batch.topic)?.keys() ?? []) {
          const list = byBroker.get(broker);
          if (list) list.push(batch);
          else byBroker.set(broker, [batch]);
        }
      }
      const sentAt = Date.now();
      await Promise.all(
        [...byBroker].map(async ([broker, brokerBatches]) => {
          try {
            const { unheard } = await env.BROKER.get(env.BROKER.idFromString(broker)).publish(brokerBatches);
            // Only what the broker said before the publish went out: a newer subscriber stays.
            for (const topic of unheard) {
              const since = this.topics().get(topic)?.get(broker);
              if (since !== undefined && since < sentAt) this.forget(topic, broker);
            }
          } catch (err) {
            logBackgroundFailure("mqtt", "mqtt publish failed", err, { broker });
          }
        }),
      );
    } catch (err) {
      logBackgroundFailure("mqtt", "mqtt publish failed", err);
    }
  }

  /** The topics with subscribers, by broker object: where an erasure ends the subscriptions. */
  byBroker(): Map<string, string[]> {
    const byBroker = new Map<string, string[]>();
    for (const [topic, brokers] of this.topics()) {
      for (const broker of brokers.keys()) byBroker.set(broker, [...(byBroker.get(broker) ?? []), topic]);
    }
    return byBroker;
  }

  private forget(topic: string, broker: string): void {
    this.sql.exec("DELETE FROM rt_watchers WHERE topic = ? AND broker = ?", topic, broker);
    const brokers = this.topics().get(topic);
    brokers?.delete(broker);
    if (brokers?.size === 0) this.topics().delete(topic);
  }

  private topics(): Map<string, Brokers> {
    if (this.byTopic) return this.byTopic;
    const byTopic = new Map<string, Brokers>();
    for (const row of this.sql.exec<{ topic: string; broker: string; since: number }>(
      "SELECT topic, broker, since FROM rt_watchers",
    )) {
      const brokers = byTopic.get(row.topic) ?? new Map<string, number>();
      byTopic.set(row.topic, brokers.set(row.broker, row.since));
    }
    this.byTopic = byTopic;
    return byTopic;
  }
}
