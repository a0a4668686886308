// A subscriber-only MQTT 3.1.1 client over one WebSocket that speaks through the service's own
// codec (no client library in the way, and cheap enough that hundreds share the load generator).
import WebSocket from "ws";
import { importTs } from "./import-ts.mjs";

/** The service's MQTT codec (src/realtime/mqtt/). */
export const loadCodec = async () => ({
  ...(await importTs("src/realtime/mqtt/encode.ts")),
  ...(await importTs("src/realtime/mqtt/stream.ts")),
});

export class BenchClient {
  static async open(url, codec, clientId) {
    const ws = new WebSocket(url, "mqtt");
    await new Promise((resolve, reject) => {
      ws.once("open", resolve);
      ws.once("error", reject);
    });
    const client = new BenchClient(ws, codec);
    await client.request({ type: "connect", protocolVersion: 4, clean: true, keepAlive: 900, clientId }, "connack");
    return client;
  }

  constructor(ws, codec) {
    this.ws = ws;
    this.codec = codec;
    this.published = 0;
    this.waiting = [];
    /** Called with each PUBLISH packet ({topic, payload}). */
    this.onPublish = () => {};
    const reader = new codec.PacketStream(1 << 20, { version: 4 });
    ws.on("message", (data) => {
      reader.push(new Uint8Array(data));
      for (let packet = reader.next(); packet; packet = reader.next()) {
        if (packet.type === "publish") {
          this.published++;
          this.onPublish(packet);
        } else this.waiting.shift()?.(packet);
      }
    });
  }

  /** Sends a packet and resolves with the broker's answer, which must be of type `answer`. */
  request(packet, answer) {
    return new Promise((resolve, reject) => {
      this.waiting.push((reply) =>
        reply.type === answer ? resolve(reply) : reject(new Error(`expected ${answer}, got ${reply.type}`)),
      );
      this.ws.send(this.codec.encodePacket(packet, 4));
    });
  }

  subscribe(topic) {
    return this.request({ type: "subscribe", packetId: 1, subscriptions: [{ topicFilter: topic, qos: 0 }] }, "suback");
  }

  close() {
    this.ws.terminate();
  }
}
