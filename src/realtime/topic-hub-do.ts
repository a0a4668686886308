import { DurableObject } from "cloudflare:workers";
import { migrateUserStorage } from "../user/schema";
import type { TopicBatch } from "./broker-do";
import { TopicWatchers, watchersSchema } from "./watchers";

/**
 * The owner of one topic that belongs to no user (a leaderboard's), addressed by the topic's name.
 * It plays the part a user's object plays for that user's topics: brokers tell it in which shards
 * the topic gained its first subscriber or lost its last, and a publish to the topic is one call
 * here that goes on only to those shards (none when nobody listens), however many shards there are.
 */
export class TopicHub extends DurableObject<Env> {
  private readonly watchers: TopicWatchers;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.watchers = new TopicWatchers(ctx.storage.sql);
    ctx.blockConcurrencyWhile(async () => migrateUserStorage(ctx.storage.sql, [watchersSchema]));
  }

  /** From a broker: these topics gained their first subscriber there, or lost their last. */
  async watchTopics(broker: string, topics: string[], watching: boolean): Promise<void> {
    this.watchers.update(broker, topics, watching, Date.now());
  }

  async publishTopics(batches: TopicBatch[]): Promise<void> {
    await this.watchers.publishBatches(this.env, batches);
  }
}
