import { SELF } from "cloudflare:test";
import { expect } from "vitest";
import { encodePacket } from "../../../src/realtime/mqtt/encode";
import type { Packet, ProtocolVersion } from "../../../src/realtime/mqtt/packets";
import { PacketStream } from "../../../src/realtime/mqtt/stream";
import { call } from "../helpers";

export interface Closed {
  code: number;
  reason: string;
}

/**
 * A raw MQTT-over-WebSocket client for tests: it sends packets or arbitrary bytes, one frame per
 * call, and reads back the broker's packets, so every framing and malformed case can be built.
 */
export class RawClient {
  private readonly packets: Packet[] = [];
  private readonly waiters: (() => void)[] = [];
  private reader: PacketStream;
  closedWith: Closed | null = null;
  readonly closed: Promise<Closed>;

  constructor(
    readonly ws: WebSocket,
    public version: ProtocolVersion,
  ) {
    this.reader = new PacketStream(1 << 24, { version });
    let resolveClosed!: (c: Closed) => void;
    this.closed = new Promise((r) => (resolveClosed = r));
    ws.addEventListener("message", (event) => {
      this.reader.push(new Uint8Array(event.data as ArrayBuffer));
      for (let p = this.reader.next(); p; p = this.reader.next()) this.packets.push(p);
      this.wake();
    });
    ws.addEventListener("close", (event) => {
      this.closedWith = { code: event.code, reason: event.reason };
      resolveClosed(this.closedWith);
      this.wake();
    });
    ws.accept();
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  send(packet: Packet): void {
    this.ws.send(encodePacket(packet, this.version));
  }

  sendBytes(bytes: Uint8Array): void {
    this.ws.send(bytes);
  }

  /** The next packet from the broker; fails if the connection closes first. */
  async next(): Promise<Packet> {
    for (;;) {
      const packet = this.packets.shift();
      if (packet) return packet;
      if (this.closedWith)
        throw new Error(
          `connection closed (${this.closedWith.code} ${this.closedWith.reason}) while a packet was expected`,
        );
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** Packets received and not yet read. */
  get unread(): Packet[] {
    return [...this.packets];
  }

  /** A round trip: once the PINGRESP is back, everything sent before it was handled. */
  async sync(): Promise<void> {
    this.send({ type: "pingreq" });
    const packets: Packet[] = [];
    for (let p = await this.next(); p.type !== "pingresp"; p = await this.next()) packets.push(p);
    this.packets.unshift(...packets);
  }

  close(): void {
    try {
      this.ws.close(1000, "done");
    } catch {
      // Already closed.
    }
  }
}

export async function upgrade(query = "", protocol: string | null = "mqtt"): Promise<Response> {
  const headers: Record<string, string> = { Upgrade: "websocket" };
  if (protocol !== null) headers["Sec-WebSocket-Protocol"] = protocol;
  return SELF.fetch(`https://gamification.test/mqtt${query}`, { headers });
}

export async function openClient(version: ProtocolVersion = 4, query = ""): Promise<RawClient> {
  const response = await upgrade(query);
  expect(response.status).toBe(101);
  return new RawClient(response.webSocket!, version);
}

/** A client that completed CONNECT. */
export async function connectClient(
  version: ProtocolVersion,
  connect: Partial<Extract<Packet, { type: "connect" }>> = {},
): Promise<RawClient> {
  const client = await openClient(version);
  client.send({
    type: "connect",
    protocolVersion: version,
    clean: true,
    keepAlive: 60,
    clientId: `c-${crypto.randomUUID()}`,
    ...connect,
  });
  expect(await client.next()).toMatchObject({ type: "connack", reasonCode: 0 });
  return client;
}

export async function subscribe(client: RawClient, topics: string[], qos: 0 | 1 = 1, packetId = 1): Promise<number[]> {
  client.send({ type: "subscribe", packetId, subscriptions: topics.map((topicFilter) => ({ topicFilter, qos })) });
  const suback = await client.next();
  expect(suback).toMatchObject({ type: "suback", packetId });
  return (suback as Extract<Packet, { type: "suback" }>).reasonCodes;
}

export async function topicLink(token: string, path: string): Promise<string> {
  const r = await call("GET", `/api/v1/auth/${path}`, { token });
  expect(r.status).toBe(200);
  return r.body.topic;
}

export const json = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));
