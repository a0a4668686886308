import type { Connection } from "./connection";

/**
 * Who listens to what, in memory. WebSocket tags are fixed when a socket is accepted, before its
 * SUBSCRIBE arrives, so they cannot index topics; instead the broker rebuilds this index from the
 * sockets' attachments the first time it needs it after waking from hibernation, and keeps it up
 * to date while awake.
 */
export class SubscriberIndex {
  private readonly byTopic = new Map<string, Set<Connection>>();
  private readonly topicsOf = new Map<Connection, string[]>();
  /** Normally one connection per client id; briefly two while a reconnect takes over. */
  private readonly byClientId = new Map<string, Set<Connection>>();

  /**
   * (Re)indexes a connection after its CONNECT or a change of its subscriptions. Answers the
   * topics that this changed from no subscriber to some, or from some to none.
   */
  update(conn: Connection): TopicDelta {
    const lost = new Set(this.unindexTopics(conn));
    const gained: string[] = [];
    const topics = conn.session.subs.map((s) => s.topic);
    for (const topic of topics) {
      let set = this.byTopic.get(topic);
      if (!set) this.byTopic.set(topic, (set = new Set()));
      if (set.size === 0 && !lost.delete(topic)) gained.push(topic);
      set.add(conn);
    }
    this.topicsOf.set(conn, topics);
    const clientId = conn.session.clientId;
    if (clientId !== undefined) {
      let holders = this.byClientId.get(clientId);
      if (!holders) this.byClientId.set(clientId, (holders = new Set()));
      holders.add(conn);
    }
    return { gained, lost: [...lost] };
  }

  /** Answers the topics that lost their last subscriber. */
  remove(conn: Connection): string[] {
    const lost = this.unindexTopics(conn);
    this.topicsOf.delete(conn);
    const clientId = conn.session.clientId;
    const holders = clientId === undefined ? undefined : this.byClientId.get(clientId);
    holders?.delete(conn);
    if (holders?.size === 0) this.byClientId.delete(clientId!);
    return lost;
  }

  subscribers(topic: string): ReadonlySet<Connection> {
    return this.byTopic.get(topic) ?? EMPTY;
  }

  holdersOf(clientId: string): Connection[] {
    return [...(this.byClientId.get(clientId) ?? [])];
  }

  /** Answers the topics left without a subscriber. */
  private unindexTopics(conn: Connection): string[] {
    const lost: string[] = [];
    for (const topic of this.topicsOf.get(conn) ?? []) {
      const set = this.byTopic.get(topic);
      if (!set?.delete(conn)) continue;
      if (set.size === 0) {
        this.byTopic.delete(topic);
        lost.push(topic);
      }
    }
    return lost;
  }
}

const EMPTY: ReadonlySet<Connection> = new Set();

export interface TopicDelta {
  gained: string[];
  lost: string[];
}
