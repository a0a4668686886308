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

  /** (Re)indexes a connection after its CONNECT or a change of its subscriptions. */
  update(conn: Connection): void {
    this.unindexTopics(conn);
    const topics = conn.session.subs.map((s) => s.topic);
    for (const topic of topics) {
      let set = this.byTopic.get(topic);
      if (!set) this.byTopic.set(topic, (set = new Set()));
      set.add(conn);
    }
    this.topicsOf.set(conn, topics);
    const clientId = conn.session.clientId;
    if (clientId !== undefined) {
      let holders = this.byClientId.get(clientId);
      if (!holders) this.byClientId.set(clientId, (holders = new Set()));
      holders.add(conn);
    }
  }

  remove(conn: Connection): void {
    this.unindexTopics(conn);
    this.topicsOf.delete(conn);
    const clientId = conn.session.clientId;
    const holders = clientId === undefined ? undefined : this.byClientId.get(clientId);
    holders?.delete(conn);
    if (holders?.size === 0) this.byClientId.delete(clientId!);
  }

  subscribers(topic: string): ReadonlySet<Connection> {
    return this.byTopic.get(topic) ?? EMPTY;
  }

  holdersOf(clientId: string): Connection[] {
    return [...(this.byClientId.get(clientId) ?? [])];
  }

  private unindexTopics(conn: Connection): void {
    for (const topic of this.topicsOf.get(conn) ?? []) {
      const set = this.byTopic.get(topic);
      set?.delete(conn);
      if (set?.size === 0) this.byTopic.delete(topic);
    }
  }
}

const EMPTY: ReadonlySet<Connection> = new Set();
