import { describe, expect, it } from "vitest";
import { encodePacket } from "../../../src/realtime/mqtt/encode";
import { MqttError, Reason } from "../../../src/realtime/mqtt/errors";
import type { Packet } from "../../../src/realtime/mqtt/packets";
import { PacketStream } from "../../../src/realtime/mqtt/stream";

const connect5: Packet = {
  type: "connect",
  protocolVersion: 5,
  clean: true,
  keepAlive: 30,
  clientId: "c1",
  properties: { receiveMaximum: 5 },
};
const subscribe: Packet = {
  type: "subscribe",
  packetId: 1,
  subscriptions: [{ topicFilter: "t/1", qos: 1, noLocal: false, retainAsPublished: false, retainHandling: 0 }],
};
const ping: Packet = { type: "pingreq" };
const puback: Packet = { type: "puback", packetId: 3 };

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function drain(stream: PacketStream): Packet[] {
  const out: Packet[] = [];
  for (let p = stream.next(); p; p = stream.next()) out.push(p);
  return out;
}

const session = [connect5, subscribe, ping, puback];
const bytes = concat(...session.map((p) => encodePacket(p, 5)));

describe("PacketStream", () => {
  it("reads several packets from one chunk, switching to the CONNECT's version", () => {
    const stream = new PacketStream(1024);
    stream.push(bytes);
    expect(drain(stream)).toEqual(session);
    expect(stream.protocolVersion).toBe(5);
    expect(stream.pending.length).toBe(0);
  });

  it("reads packets fed one byte at a time", () => {
    const stream = new PacketStream(1024);
    const seen: Packet[] = [];
    for (const byte of bytes) {
      stream.push(Uint8Array.of(byte));
      seen.push(...drain(stream));
    }
    expect(seen).toEqual(session);
  });

  it("reads packets cut at every possible point", () => {
    for (let cut = 1; cut < bytes.length; cut++) {
      const stream = new PacketStream(1024);
      stream.push(bytes.subarray(0, cut));
      const first = drain(stream);
      stream.push(bytes.subarray(cut));
      expect([...first, ...drain(stream)]).toEqual(session);
    }
  });

  it("resumes from the pending bytes of an earlier stream, as after hibernation", () => {
    const before = new PacketStream(1024);
    const cut = encodePacket(connect5, 5).length + 4;
    before.push(bytes.subarray(0, cut));
    expect(drain(before)).toEqual([connect5]);
    const after = new PacketStream(1024, { version: before.protocolVersion, pending: before.pending });
    after.push(bytes.subarray(cut));
    expect(drain(after)).toEqual([subscribe, ping, puback]);
  });

  it("waits for a remaining length split across chunks", () => {
    const stream = new PacketStream(100_000, { version: 4 });
    const big = encodePacket(
      { type: "publish", topic: "t", payload: new Uint8Array(20_000), qos: 0, retain: false, dup: false },
      4,
    );
    stream.push(big.subarray(0, 2));
    expect(stream.next()).toBeNull();
    stream.push(big.subarray(2, 3));
    expect(stream.next()).toBeNull();
    stream.push(big.subarray(3));
    expect(stream.next()).toMatchObject({ type: "publish", topic: "t" });
  });

  it("refuses an oversize packet from its header alone", () => {
    const stream = new PacketStream(64, { version: 4 });
    stream.push(Uint8Array.of(0x30, 0xff, 0x7f));
    const error = catchError(() => stream.next());
    expect(error.reason).toBe(Reason.PacketTooLarge);
    expect(error.message).toMatch(/16386 bytes exceeds the limit of 64/);
  });

  it("refuses a remaining length of five bytes", () => {
    const stream = new PacketStream(1 << 30, { version: 4 });
    stream.push(Uint8Array.of(0x30, 0xff, 0xff, 0xff, 0xff, 0x7f));
    expect(catchError(() => stream.next()).reason).toBe(Reason.MalformedPacket);
  });

  it("requires CONNECT first and only once", () => {
    const first = new PacketStream(1024);
    first.push(encodePacket(ping, 4));
    expect(catchError(() => first.next()).message).toMatch(/first packet must be CONNECT/);

    const twice = new PacketStream(1024);
    twice.push(concat(encodePacket(connect5, 5), encodePacket(connect5, 5)));
    expect(twice.next()).toEqual(connect5);
    expect(catchError(() => twice.next()).message).toMatch(/second CONNECT/);
  });

  it("hands out the good packets before a malformed one", () => {
    const stream = new PacketStream(1024);
    stream.push(concat(encodePacket(connect5, 5), encodePacket(ping, 5), Uint8Array.of(0xc0, 0x01, 0x00)));
    expect(stream.next()).toEqual(connect5);
    expect(stream.next()).toEqual(ping);
    expect(catchError(() => stream.next()).reason).toBe(Reason.MalformedPacket);
  });
});

function catchError(fn: () => unknown): MqttError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(MqttError);
    return err as MqttError;
  }
  throw new Error("no error");
}
