import { request as httpRequest } from "node:http";
import WebSocket from "ws";
import { encodeVarint } from "../../src/realtime/mqtt/bytes";
import { baseUrl } from "./support";

/**
 * The wire as SCILL's non-JavaScript SDKs use it, for their contract tests: HTTP requests with
 * exactly the headers and bytes an SDK sends (node:http adds only Host, Connection and the body's
 * Content-Length), and MQTT over WebSocket with packets built and read the way the Unity and Unreal
 * clients build and read them (one packet per frame, hand-encoded CONNECT and SUBSCRIBE).
 */

export interface WireAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: any;
}

/** Sends one request as given: no header is added or normalized beyond what HTTP needs. */
export function wire(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<WireAnswer> {
  const url = new URL(path, baseUrl());
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on("error", reject);
    req.end(body);
  });
}

const encoder = new TextEncoder();
const utf8 = (s: string) => [...encoder.encode(s)];
const u16 = (n: number) => [n >> 8, n & 0xff];
const str = (s: string) => [...u16(encoder.encode(s).length), ...utf8(s)];

const packet = (first: number, body: number[]) => Buffer.from([first, ...encodeVarint(body.length), ...body]);

/**
 * MQTT 3.1.1 CONNECT with clean session and no credentials, as Unity (ScillMqttPacketConnect.cs) and Unreal
 * (ScillMqtt.cpp:203-258) build it.
 */
export const connectPacket = (clientId: string, keepAlive: number) =>
  packet(0x10, [...str("MQTT"), 4, 0x02, ...u16(keepAlive), ...str(clientId)]);

/** SUBSCRIBE to one topic at QoS 0, as both clients do (Unity ScillMqtt.cs:335-342; Unreal ScillMqtt.cpp:150-166). */
export const subscribePacket = (packetId: number, topic: string, qos = 0) =>
  packet(0x82, [...u16(packetId), ...str(topic), qos]);

export const pingPacket = () => Buffer.from([0xc0, 0x00]);

/** A frame read the way Unity and Unreal read it: one packet per WebSocket message, type from the first byte. */
export interface ReadFrame {
  type: number;
  bytes: Buffer;
  /** PUBLISH only: topic, QoS and the payload as text. */
  topic?: string;
  qos?: number;
  payload?: string;
}

/** Parses a frame as one packet, like ScillMqttPacketPublish.cs / UScillMqttPacketPublish::FromBuffer. */
export function readFrame(bytes: Buffer): ReadFrame {
  const type = bytes[0] >> 4;
  if (type !== 3) return { type, bytes };
  let pointer = 1;
  let length = 0;
  let multiplier = 1;
  let byte: number;
  do {
    byte = bytes[pointer++];
    length += (byte & 127) * multiplier;
    multiplier *= 128;
  } while (byte & 128);
  const end = pointer + length;
  const qos = (bytes[0] >> 1) & 3;
  const topicLength = (bytes[pointer] << 8) | bytes[pointer + 1];
  pointer += 2;
  const topic = bytes.subarray(pointer, pointer + topicLength).toString("utf8");
  pointer += topicLength + (qos > 0 ? 2 : 0);
  if (end !== bytes.length)
    throw new Error(`a frame holds ${bytes.length} bytes but its packet ${end}: more than one packet in a frame`);
  return { type, bytes, topic, qos, payload: bytes.subarray(pointer, end).toString("utf8") };
}

/** A raw MQTT-over-WebSocket client: sends what it is given, keeps every frame it receives. */
export class WireMqtt {
  readonly frames: ReadFrame[] = [];
  private waiters: (() => void)[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data: Buffer) => {
      this.frames.push(readFrame(Buffer.from(data)));
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Opens `/mqtt` offering these WebSocket subprotocols (none: no Sec-WebSocket-Protocol header). */
  static async open(subprotocols: string[]): Promise<WireMqtt> {
    const url = `${baseUrl().replace(/^http/, "ws")}/mqtt`;
    const ws = subprotocols.length === 0 ? new WebSocket(url) : new WebSocket(url, subprotocols);
    await new Promise<void>((resolve, reject) => ws.once("open", () => resolve()).once("error", reject));
    return new WireMqtt(ws);
  }

  get protocol(): string {
    return this.ws.protocol;
  }

  send(bytes: Buffer): void {
    this.ws.send(bytes);
  }

  /** The next frame of this packet type (others are skipped, as the SDKs ignore them). */
  async next(type: number, timeoutMs = 10_000): Promise<ReadFrame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.frames.findIndex((f) => f.type === type);
      if (index >= 0) return this.frames.splice(index, 1)[0];
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no MQTT packet of type ${type} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.ws.close();
  }
}

export const PACKET = { CONNACK: 2, PUBLISH: 3, SUBACK: 9, PINGRESP: 13 } as const;
