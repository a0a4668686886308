import { DurableObject } from "cloudflare:workers";
import { trustedAccessToken } from "../auth/trusted-token";
import { isDomainError } from "../shared/domain-errors";
import { getNow } from "../shared/clock";
import { Connection } from "./connection";
import {
  handlePacket,
  keepAliveDeadline,
  keepAliveExpired,
  newSession,
  protocolFailure,
  takenOver,
  type Close,
  type Outcome,
  type PacketDeps,
  type SessionState,
} from "./core/session";
import { encodeUtf8 } from "./mqtt/bytes";
import { PublishTemplate } from "./mqtt/encode";
import { MqttError, protocolError, Reason } from "./mqtt/errors";
import { SubscriberIndex } from "./subscriber-index";
import { isIssuedTopic, topicOwner } from "./topics";
import { groupByOwner } from "./owners";
import { brokerTables } from "./broker-tables";
import { migrateObjectStorage } from "../shared/object-tables";
import { configureLog, logBackgroundFailure } from "../shared/log";

/** Messages for one topic, in the order they must arrive. */
export interface TopicBatch {
  topic: string;
  /** JSON texts. */
  payloads: string[];
}

export interface PublishResult {
  /** PUBLISH packets that went out. */
  delivered: number;
  /** Topics of the call that have no subscriber in this object. */
  unheard: string[];
}

/** MQTT 5 subscribers learn that every message is UTF-8 JSON. */
const V5_PUBLISH_PROPERTIES = { payloadFormatIndicator: 1, contentType: "application/json" };
const OPEN = 1;

/**
 * The MQTT broker: MQTT 3.1.1 and 5 over WebSocket, for subscribers only. Sockets are accepted
 * with the hibernation API, so idle clients cost nothing; what each must remember (its session
 * and subscriptions) is its attachment, and a piece of a packet split across frames is kept in
 * this object's SQLite storage, so both survive hibernation.
 */
export class MqttBroker extends DurableObject<Env> {
  private readonly connections = new Map<WebSocket, Connection>();
  private index: SubscriberIndex | null = null;
  /** Owners (users' objects) whose topics are refused, with the service time it ends (null: until lifted). */
  private barred: Map<string, number | null> | null = null;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    configureLog(env);
    migrateObjectStorage(ctx.storage.sql, [brokerTables]);
    // After a restart (not a hibernation) every socket is gone, and with it every unfinished packet.
    const anyPending = ctx.storage.sql.exec("SELECT 1 FROM pending_bytes LIMIT 1").toArray().length > 0;
    if (anyPending && ctx.getWebSockets().length === 0) ctx.storage.sql.exec("DELETE FROM pending_bytes");
  }

  /** A WebSocket upgrade, already checked by the Worker (see upgrade.ts). */
  override async fetch(request: Request): Promise<Response> {
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server);
    const session = newSession(crypto.randomUUID(), Date.now());
    server.serializeAttachment(session);
    this.connections.set(server, new Connection(server, session));
    await this.scheduleSweep(session);
    const offered = request.headers.get("Sec-WebSocket-Protocol") ?? "";
    const headers = offered.split(",").some((p) => p.trim() === "mqtt")
      ? { "Sec-WebSocket-Protocol": "mqtt" }
      : undefined;
    return new Response(null, { status: 101, webSocket: client, headers });
  }

  override async webSocketMessage(ws: WebSocket, message: ArrayBuffer | string): Promise<void> {
    const conn = this.connection(ws);
    if (!conn) return;
    if (typeof message === "string") {
      // MQTT over WebSocket is binary frames only (MQTT-6.0.0-1).
      await this.execute(conn, protocolFailure(conn.session, protocolError("text frame")));
      return;
    }
    conn.stream.push(new Uint8Array(message));
    await conn.serially(() => this.drain(conn));
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    this.forget(ws);
    try {
      // Completes the closing handshake; 1005/1006/1015 only describe a close, they cannot be sent.
      ws.close(code === 1005 || code === 1006 || code === 1015 ? 1000 : code, "");
    } catch {
      // Already closed.
    }
  }

  override async webSocketError(ws: WebSocket): Promise<void> {
    this.forget(ws);
  }

  /** Closes connections silent past their keep-alive, then waits for the next deadline. */
  override async alarm(): Promise<void> {
    try {
      await this.closeSilentConnections();
    } catch (err) {
      logBackgroundFailure("alarm", "broker alarm failed; the runtime retries it", err, {
        object: this.ctx.id.toString(),
      });
      throw err;
    }
  }

  private async closeSilentConnections(): Promise<void> {
    const now = Date.now();
    let next: number | null = null;
    for (const ws of this.ctx.getWebSockets()) {
      const conn = this.connection(ws);
      if (!conn) continue;
      const deadline = keepAliveDeadline(conn.session);
      if (deadline === null) continue;
      if (deadline <= now) await this.execute(conn, keepAliveExpired(conn.session));
      else next = Math.min(next ?? deadline, deadline);
    }
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }

  /**
   * Delivers messages to this object's subscribers of their topics, in order. Answers how many
   * PUBLISH packets went out, and the topics nobody here listens to (a publisher stops sending
   * those: see watchers.ts).
   */
  async publish(batches: TopicBatch[]): Promise<PublishResult> {
    const index = this.subscriberIndex();
    const touched = new Set<Connection>();
    const unheard: string[] = [];
    let sent = 0;
    for (const { topic, payloads } of batches) {
      const subscribers = index.subscribers(topic);
      if (subscribers.size === 0) {
        unheard.push(topic);
        continue;
      }
      for (const payload of payloads) {
        const template = new PublishTemplate(topic, encodeUtf8(payload), V5_PUBLISH_PROPERTIES);
        for (const conn of subscribers) {
          const sub = conn.subscription(topic);
          if (!sub) continue;
          if (conn.deliver(template, sub)) sent++;
          if (sub.qos === 1) touched.add(conn);
        }
      }
    }
    // Packet ids in flight are part of the session: persisted once per connection per call.
    for (const conn of touched) conn.save();
    return { delivered: sent, unheard };
  }

  /**
   * An erased player's topics, named by their object: every subscription to them here ends (MQTT
   * has no server-side unsubscribe; the clients stay connected and simply receive nothing more).
   * The owner asked, so it is not told. Answers how many subscriptions ended.
   */
  async dropTopics(topics: string[]): Promise<number> {
    const gone = new Set(topics);
    const index = this.subscriberIndex();
    const holders = new Set(topics.flatMap((topic) => [...index.subscribers(topic)]));
    let dropped = 0;
    for (const conn of holders) {
      dropped += conn.dropSubscriptions(gone);
      index.update(conn);
    }
    return dropped;
  }

  private async drain(conn: Connection): Promise<void> {
    try {
      while (!conn.closed) {
        let packet: ReturnType<Connection["stream"]["next"]>;
        try {
          packet = conn.stream.next();
        } catch (err) {
          if (!(err instanceof MqttError)) throw err;
          await this.execute(conn, protocolFailure(conn.session, err));
          return;
        }
        if (!packet) break;
        const outcome = await handlePacket(conn.session, packet, this.deps());
        await this.execute(conn, outcome);
        if (packet.type === "connect" && !conn.closed) await this.scheduleSweep(conn.session);
      }
      if (!conn.closed) {
        this.storePending(conn);
        conn.save();
      }
    } catch (err) {
      logBackgroundFailure("mqtt", "mqtt connection failed", err, { conn_id: conn.session.connId });
      this.close(conn, { reason: Reason.UnspecifiedError, message: "internal error", code: 1011 });
    }
  }

  private deps(): PacketDeps {
    return {
      now: Date.now(),
      verifyToken: async (token) => {
        try {
          await trustedAccessToken(this.env, token, await getNow(this.env));
          return true;
        } catch (err) {
          if (isDomainError(err)) return false;
          throw err;
        }
      },
      maySubscribe: async (topic) =>
        (await isIssuedTopic(this.env, topic)) && !(await this.isBarred(topicOwner(topic))),
      newClientId: () => `auto-${crypto.randomUUID()}`,
    };
  }

  /**
   * A banned player: the topics of their object are refused from now until `until` (service
   * time; null: until unbarred), and every subscription to them here is dropped at once. MQTT
   * sessions are anonymous, so closing sockets would not do: the topic itself is the capability.
   * Answers how many subscriptions went.
   */
  async barOwner(owner: string, until: number | null): Promise<number> {
    this.barredOwners().set(owner, until);
    this.ctx.storage.sql.exec(
      "INSERT INTO barred_owners (owner, until) VALUES (?, ?) ON CONFLICT (owner) DO UPDATE SET until = excluded.until",
      owner,
      until,
    );
    let dropped = 0;
    const lost: string[] = [];
    for (const ws of this.ctx.getWebSockets()) {
      const conn = this.connection(ws);
      if (conn?.session.phase !== "connected") continue;
      const kept = conn.session.subs.filter((sub) => topicOwner(sub.topic) !== owner);
      if (kept.length === conn.session.subs.length) continue;
      dropped += conn.session.subs.length - kept.length;
      conn.session.subs = kept;
      conn.save();
      lost.push(...this.subscriberIndex().update(conn).lost);
    }
    if (lost.length > 0) this.tellOwnersLater(lost);
    return dropped;
  }

  /** The ban is lifted: the owner's topics may be subscribed again. */
  async unbarOwner(owner: string): Promise<void> {
    this.barredOwners().delete(owner);
    this.ctx.storage.sql.exec("DELETE FROM barred_owners WHERE owner = ?", owner);
  }

  private async isBarred(owner: string | null): Promise<boolean> {
    if (owner === null) return false;
    const barred = this.barredOwners();
    if (!barred.has(owner)) return false;
    const until = barred.get(owner)!;
    if (until === null || until > (await getNow(this.env))) return true;
    await this.unbarOwner(owner);
    return false;
  }

  private barredOwners(): Map<string, number | null> {
    this.barred ??= new Map(
      this.ctx.storage.sql
        .exec<{ owner: string; until: number | null }>("SELECT owner, until FROM barred_owners")
        .toArray()
        .map((r) => [r.owner, r.until]),
    );
    return this.barred;
  }

  private async execute(conn: Connection, outcome: Outcome): Promise<void> {
    const delta =
      outcome.clientIdTaken !== undefined || outcome.resubscribed ? this.subscriberIndex().update(conn) : undefined;
    // The SUBACK (or the CONNACK of a resumed session) goes out only once the topics' owners know
    // of the subscriber: from then on, none of their changes skips it. A failure closes the
    // connection (drain), and the client subscribes again.
    if (delta?.gained.length) await this.tellOwners(delta.gained, true);
    for (const packet of outcome.send) conn.send(packet);
    if (outcome.clientIdTaken !== undefined) {
      for (const holder of this.subscriberIndex().holdersOf(outcome.clientIdTaken)) {
        if (holder !== conn) await this.execute(holder, takenOver(holder.session));
      }
    }
    if (delta?.lost.length) this.tellOwnersLater(delta.lost);
    if (outcome.windowFreed) conn.flushWaiting();
    if (outcome.close) this.close(conn, outcome.close);
  }

  /** Tells the owners of topics (owners.ts) that these gained their first subscriber here, or lost their last. */
  private async tellOwners(topics: string[], watching: boolean): Promise<void> {
    const brokerId = this.ctx.id.toString();
    await Promise.all(
      groupByOwner(this.env, topics, (topic) => topic).map(({ owner, items }) =>
        owner.watchTopics(brokerId, items, watching),
      ),
    );
  }

  /** Best effort: an owner that is not told learns it at its next publish (the topic comes back unheard). */
  private tellOwnersLater(topics: string[]): void {
    this.ctx.waitUntil(
      this.tellOwners(topics, false).catch((err) =>
        logBackgroundFailure("mqtt", "telling owners of unsubscribed topics failed", err),
      ),
    );
  }

  private close(conn: Connection, close: Close): void {
    this.forget(conn.ws);
    conn.closed = true;
    try {
      // Close reasons are limited to 123 bytes.
      conn.ws.close(close.code, close.message.slice(0, 100));
    } catch {
      // Already closed.
    }
  }

  /** Drops every trace of a socket that is gone. */
  private forget(ws: WebSocket): void {
    const conn = this.connections.get(ws);
    const session = (conn?.session ?? ws.deserializeAttachment()) as SessionState | null;
    if (conn) {
      conn.closed = true;
      this.connections.delete(ws);
      const lost = this.index?.remove(conn) ?? [];
      if (lost.length > 0) this.tellOwnersLater(lost);
    }
    if (session?.partial) this.ctx.storage.sql.exec("DELETE FROM pending_bytes WHERE conn_id = ?", session.connId);
  }

  /** The connection of an open socket, restored from its attachment after hibernation. */
  private connection(ws: WebSocket): Connection | null {
    const known = this.connections.get(ws);
    if (known) return known.closed ? null : known;
    if (ws.readyState !== OPEN) return null;
    const session = ws.deserializeAttachment() as SessionState | null;
    if (!session) return null;
    const conn = new Connection(ws, session, session.partial ? this.loadPending(session.connId) : undefined);
    this.connections.set(ws, conn);
    return conn;
  }

  private subscriberIndex(): SubscriberIndex {
    if (this.index) return this.index;
    const index = new SubscriberIndex();
    for (const ws of this.ctx.getWebSockets()) {
      const conn = this.connection(ws);
      if (conn?.session.phase === "connected") index.update(conn);
    }
    this.index = index;
    return index;
  }

  private storePending(conn: Connection): void {
    const pending = conn.stream.pending;
    if (pending.length > 0) {
      this.ctx.storage.sql.exec(
        "INSERT INTO pending_bytes (conn_id, bytes) VALUES (?, ?) ON CONFLICT (conn_id) DO UPDATE SET bytes = excluded.bytes",
        conn.session.connId,
        pending,
      );
      conn.session.partial = true;
    } else if (conn.session.partial) {
      this.ctx.storage.sql.exec("DELETE FROM pending_bytes WHERE conn_id = ?", conn.session.connId);
      conn.session.partial = false;
    }
  }

  private loadPending(connId: string): Uint8Array | undefined {
    const row = this.ctx.storage.sql
      .exec<{ bytes: ArrayBuffer }>("SELECT bytes FROM pending_bytes WHERE conn_id = ?", connId)
      .toArray()[0];
    return row ? new Uint8Array(row.bytes) : undefined;
  }

  /** Makes sure the alarm fires by this session's keep-alive deadline. */
  private async scheduleSweep(session: SessionState): Promise<void> {
    const deadline = keepAliveDeadline(session);
    if (deadline === null) return;
    const current = await this.ctx.storage.getAlarm();
    if (current === null || deadline < current) await this.ctx.storage.setAlarm(deadline);
  }
}
