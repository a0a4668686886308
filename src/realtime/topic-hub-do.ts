import { DurableObject } from "cloudflare:workers";
import { migrateObjectStorage } from "../shared/object-tables";
import type { TopicBatch } from "./broker-do";
import { TopicWatchers, watchersTables } from "./watchers";
import { recordWatchedTopics } from "./watched-topics";
import { configureLog, logBackgroundFailure } from "../shared/log";

/**
 * The owner of one topic that belongs to no user (a leaderboard's), addressed by the topic's name.
 * It plays the part a user's object plays for that user's topics: brokers tell it in which shards
 * the topic gained its first subscriber or lost its last, and a publish to the topic is one call
 * here that goes on only to those shards, however many shards there are. It also keeps D1's list
 * of watched topics (watched-topics.ts), from which the consumers learn that nobody listens
 * without calling here at all.
 */
export class TopicHub extends DurableObject<Env> {
  private readonly watchers: TopicWatchers;
  /** The D1 writes of the list, one at a time in call order: the last one written is the latest state. */
  private listing: Promise<void> = Promise.resolve();
  /** Topics this object has taken off the list since it started: a publish to them writes nothing more. */
  private readonly unlisted = new Set<string>();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    configureLog(env);
    this.watchers = new TopicWatchers(ctx.storage.sql);
    ctx.blockConcurrencyWhile(async () => migrateObjectStorage(ctx.storage.sql, [watchersTables]));
  }

  /**
   * From a broker: these topics gained their first subscriber there, or lost their last. Resolves
   * once D1's list says so: the broker sends the SUBACK only then, so no change after it skips the
   * new subscriber (a failure closes the connection, and the client subscribes again).
   */
  async watchTopics(broker: string, topics: string[], watching: boolean): Promise<void> {
    this.watchers.update(broker, topics, watching, Date.now());
    await this.list(topics);
  }

  /**
   * A topic left without a subscriber by the publish (a broker answered that nobody listens there
   * any more), or published to while D1 still lists it without one, comes off D1's list.
   */
  async publishTopics(batches: TopicBatch[]): Promise<void> {
    await this.watchers.publishBatches(this.env, batches);
    const unwatched = batches
      .map((b) => b.topic)
      .filter((topic) => !this.watchers.watches(topic) && !this.unlisted.has(topic));
    if (unwatched.length > 0)
      await this.list(unwatched).catch((err) => logBackgroundFailure("mqtt", "unlisting unwatched topics failed", err));
  }

  /** Writes each topic's state as it is when the write runs (not when it was asked for). */
  private list(topics: string[]): Promise<void> {
    const write = this.listing.then(async () => {
      const states = topics.map((topic): [string, boolean] => [topic, this.watchers.watches(topic)]);
      await recordWatchedTopics(this.env.DB, states);
      for (const [topic, watched] of states) {
        if (watched) this.unlisted.delete(topic);
        else this.unlisted.add(topic);
      }
    });
    this.listing = write.catch(() => undefined);
    return write;
  }
}
