import { LIMITS, takePacketId, type SessionState, type SubscriptionState } from "./core/session";
import { encodePacket, type PublishTemplate } from "./mqtt/encode";
import type { Packet } from "./mqtt/packets";
import { PacketStream } from "./mqtt/stream";
import { logLine } from "../shared/log";

/**
 * One client socket while the broker is awake: its session (the part that survives hibernation
 * lives in the socket's attachment), the bytes of a packet still arriving, and QoS 1 messages
 * waiting for room in the window.
 */
export class Connection {
  readonly stream: PacketStream;
  closed = false;
  private waiting: { template: PublishTemplate; sub: SubscriptionState }[] = [];
  private tail: Promise<void> = Promise.resolve();

  constructor(
    readonly ws: WebSocket,
    readonly session: SessionState,
    pending?: Uint8Array,
  ) {
    this.stream = new PacketStream(LIMITS.maxIncomingPacket, { version: session.version, pending });
  }

  /**
   * Runs `task` after the previous one of this connection: a CONNECT that awaits token checks
   * must be handled before the SUBSCRIBE that arrived right behind it.
   */
  serially(task: () => Promise<void>): Promise<void> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => {});
    return run;
  }

  /** Persists the session in the socket so it survives hibernation. */
  save(): void {
    if (!this.closed) this.ws.serializeAttachment(this.session);
  }

  send(packet: Packet): void {
    let bytes = encodePacket(packet, this.session.version ?? 4);
    const limit = this.session.maxPacketSize;
    if (limit !== undefined && bytes.length > limit && "properties" in packet && packet.properties) {
      // MQTT-3.1.2-25: a reason string that would break the client's limit is left out.
      bytes = encodePacket({ ...packet, properties: undefined }, this.session.version ?? 4);
    }
    this.write(bytes);
  }

  subscription(topic: string): SubscriptionState | undefined {
    return this.session.subs.find((s) => s.topic === topic);
  }

  /** Ends the subscriptions to `topics`, with their messages still waiting; answers how many ended. */
  dropSubscriptions(topics: ReadonlySet<string>): number {
    const before = this.session.subs.length;
    this.session.subs = this.session.subs.filter((s) => !topics.has(s.topic));
    this.waiting = this.waiting.filter((w) => !topics.has(w.sub.topic));
    this.save();
    return before - this.session.subs.length;
  }

  /**
   * Sends one message at the subscription's QoS. A QoS 1 message waits when the window is full;
   * beyond the queue's limit it is dropped (clients reload state through the REST API anyway).
   * Answers whether the message went out now.
   */
  deliver(template: PublishTemplate, sub: SubscriptionState): boolean {
    if (sub.qos === 0) return this.write(this.publishBytes(template, sub, undefined));
    // MQTT-3.1.2-24: a message larger than the client accepts is not sent to it (checked before
    // a packet id is spent on it, since no PUBACK would ever free that id).
    const limit = this.session.maxPacketSize;
    if (limit !== undefined && this.publishBytes(template, sub, 1).length > limit) return false;
    if (this.waiting.length === 0) {
      const id = takePacketId(this.session);
      if (id !== null) return this.write(this.publishBytes(template, sub, id));
    }
    if (this.waiting.length >= LIMITS.maxQueued) {
      // Not the topic: it is a capability, as good as a credential for reading.
      logLine("warn", "mqtt queue full, message dropped", { source: "mqtt", conn_id: this.session.connId });
      return false;
    }
    this.waiting.push({ template, sub });
    return false;
  }

  /** Sends queued QoS 1 messages while the window has room. */
  flushWaiting(): void {
    while (this.waiting.length > 0) {
      const id = takePacketId(this.session);
      if (id === null) return;
      const { template, sub } = this.waiting.shift()!;
      this.write(this.publishBytes(template, sub, id));
    }
  }

  private publishBytes(template: PublishTemplate, sub: SubscriptionState, packetId: number | undefined): Uint8Array {
    return template.bytesFor(this.session.version ?? 4, sub.qos, packetId, sub.id);
  }

  private write(bytes: Uint8Array): boolean {
    if (this.closed) return false;
    const limit = this.session.maxPacketSize;
    if (limit !== undefined && bytes.length > limit) return false;
    try {
      this.ws.send(bytes);
      return true;
    } catch {
      // The socket went away; its close event cleans up.
      return false;
    }
  }
}
