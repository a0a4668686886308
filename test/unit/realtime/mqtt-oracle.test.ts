/**
 * Cross-checks the codec against mqtt-packet, the codec of the `mqtt` client (a dev dependency):
 * what one writes the other must read the same way, in both protocol versions.
 */
import { describe, expect, it } from "vitest";
import * as mqttPacket from "mqtt-packet";
import { decodePacket } from "../../../src/realtime/mqtt/decode";
import { encodePacket } from "../../../src/realtime/mqtt/encode";
import type { Packet, ProtocolVersion } from "../../../src/realtime/mqtt/packets";
import { PacketStream } from "../../../src/realtime/mqtt/stream";

function theirsParse(bytes: Uint8Array, protocolVersion: ProtocolVersion): any[] {
  const parser = mqttPacket.parser({ protocolVersion });
  const packets: any[] = [];
  const errors: Error[] = [];
  parser.on("packet", (p) => packets.push(p));
  parser.on("error", (e) => errors.push(e));
  parser.parse(Buffer.from(bytes));
  if (errors.length) throw errors[0];
  return packets;
}

function oursParse(bytes: Uint8Array, version: ProtocolVersion): Packet {
  const stream = new PacketStream(1 << 20, { version });
  stream.push(bytes);
  const packet = stream.next();
  expect(stream.pending.length).toBe(0);
  return packet!;
}

const text = (b: Uint8Array | Buffer) => Buffer.from(b).toString("utf8");

describe.each([4, 5] as const)("MQTT level %i", (v) => {
  it("reads the CONNECT mqtt.js sends", () => {
    const bytes = mqttPacket.generate(
      {
        cmd: "connect",
        protocolId: "MQTT",
        protocolVersion: v,
        clean: true,
        clientId: "mqttjs_1",
        keepalive: 45,
        username: "u",
        password: Buffer.from("token"),
        ...(v === 5
          ? {
              properties: {
                sessionExpiryInterval: 10,
                receiveMaximum: 20,
                maximumPacketSize: 5000,
                userProperties: { a: "b" },
              },
            }
          : {}),
      },
      { protocolVersion: v },
    );
    const stream = new PacketStream(1 << 20);
    stream.push(bytes);
    expect(stream.next()).toEqual({
      type: "connect",
      protocolVersion: v,
      clean: true,
      keepAlive: 45,
      clientId: "mqttjs_1",
      username: "u",
      password: new Uint8Array(Buffer.from("token")),
      ...(v === 5
        ? {
            properties: {
              sessionExpiryInterval: 10,
              receiveMaximum: 20,
              maximumPacketSize: 5000,
              userProperties: [["a", "b"]],
            },
          }
        : {}),
    });
  });

  it("reads SUBSCRIBE, UNSUBSCRIBE, PUBACK, PINGREQ and DISCONNECT as mqtt.js writes them", () => {
    const sub = mqttPacket.generate(
      {
        cmd: "subscribe",
        messageId: 7,
        subscriptions: [
          { topic: "a/b", qos: 1, ...(v === 5 ? { nl: true, rap: false, rh: 1 } : {}) },
          { topic: "c", qos: 0 },
        ],
        ...(v === 5 ? { properties: { subscriptionIdentifier: 3 } } : {}),
      } as any,
      { protocolVersion: v },
    );
    expect(oursParse(sub, v)).toMatchObject({
      type: "subscribe",
      packetId: 7,
      subscriptions: [
        { topicFilter: "a/b", qos: 1, ...(v === 5 ? { noLocal: true, retainHandling: 1 } : {}) },
        { topicFilter: "c", qos: 0 },
      ],
      ...(v === 5 ? { properties: { subscriptionIdentifiers: [3] } } : {}),
    });
    const unsub = mqttPacket.generate({ cmd: "unsubscribe", messageId: 8, unsubscriptions: ["a/b", "c"] } as any, {
      protocolVersion: v,
    });
    expect(oursParse(unsub, v)).toEqual({ type: "unsubscribe", packetId: 8, topicFilters: ["a/b", "c"] });
    const puback = mqttPacket.generate({ cmd: "puback", messageId: 9, ...(v === 5 ? { reasonCode: 0 } : {}) } as any, {
      protocolVersion: v,
    });
    expect(oursParse(puback, v)).toMatchObject({ type: "puback", packetId: 9 });
    expect(oursParse(mqttPacket.generate({ cmd: "pingreq" }, { protocolVersion: v }), v)).toEqual({ type: "pingreq" });
    expect(oursParse(mqttPacket.generate({ cmd: "disconnect" } as any, { protocolVersion: v }), v)).toMatchObject({
      type: "disconnect",
    });
  });

  it("writes CONNACK, SUBACK, UNSUBACK, PUBLISH, PINGRESP and DISCONNECT that mqtt.js reads", () => {
    const connack = theirsParse(
      encodePacket(
        {
          type: "connack",
          sessionPresent: false,
          reasonCode: 0,
          ...(v === 5
            ? {
                properties: {
                  maximumQoS: 1,
                  retainAvailable: 0,
                  maximumPacketSize: 65536,
                  assignedClientIdentifier: "auto-1",
                },
              }
            : {}),
        },
        v,
      ),
      v,
    )[0];
    expect(connack).toMatchObject({
      cmd: "connack",
      sessionPresent: false,
      [v === 5 ? "reasonCode" : "returnCode"]: 0,
    });
    if (v === 5)
      expect(connack.properties).toEqual({
        maximumQoS: 1,
        retainAvailable: false,
        maximumPacketSize: 65536,
        assignedClientIdentifier: "auto-1",
      });

    const suback = theirsParse(
      encodePacket({ type: "suback", packetId: 7, reasonCodes: [1, v === 5 ? 0x87 : 0x80] }, v),
      v,
    )[0];
    expect(suback).toMatchObject({ cmd: "suback", messageId: 7, granted: [1, v === 5 ? 0x87 : 0x80] });

    const unsuback = theirsParse(
      encodePacket({ type: "unsuback", packetId: 8, ...(v === 5 ? { reasonCodes: [0, 0x11] } : {}) }, v),
      v,
    )[0];
    expect(unsuback).toMatchObject({ cmd: "unsuback", messageId: 8, ...(v === 5 ? { granted: [0, 0x11] } : {}) });

    const publish = theirsParse(
      encodePacket(
        {
          type: "publish",
          topic: "gamification/challenges/x",
          payload: new TextEncoder().encode('{"ü":1}'),
          qos: 1,
          retain: false,
          dup: false,
          packetId: 513,
          ...(v === 5
            ? {
                properties: {
                  payloadFormatIndicator: 1,
                  contentType: "application/json",
                  subscriptionIdentifiers: [3],
                },
              }
            : {}),
        },
        v,
      ),
      v,
    )[0];
    expect(publish).toMatchObject({
      cmd: "publish",
      topic: "gamification/challenges/x",
      qos: 1,
      messageId: 513,
      retain: false,
      dup: false,
    });
    expect(text(publish.payload)).toBe('{"ü":1}');
    if (v === 5)
      expect(publish.properties).toEqual({
        payloadFormatIndicator: true,
        contentType: "application/json",
        subscriptionIdentifier: 3,
      });

    expect(theirsParse(encodePacket({ type: "pingresp" }, v), v)[0]).toMatchObject({ cmd: "pingresp" });
    if (v === 5) {
      const disconnect = theirsParse(
        encodePacket({ type: "disconnect", reasonCode: 0x8d, properties: { reasonString: "keep-alive timeout" } }, 5),
        5,
      )[0];
      expect(disconnect).toMatchObject({
        cmd: "disconnect",
        reasonCode: 0x8d,
        properties: { reasonString: "keep-alive timeout" },
      });
    }
  });

  it("agrees on a PUBLISH in both directions, byte for byte", () => {
    const theirs = mqttPacket.generate(
      {
        cmd: "publish",
        topic: "t/x",
        payload: Buffer.from("hello"),
        qos: 1,
        messageId: 42,
        retain: true,
        dup: false,
      } as any,
      { protocolVersion: v },
    );
    const ours = encodePacket(
      {
        type: "publish",
        topic: "t/x",
        payload: new TextEncoder().encode("hello"),
        qos: 1,
        packetId: 42,
        retain: true,
        dup: false,
      },
      v,
    );
    expect([...ours]).toEqual([...theirs]);
    expect(decodePacket(theirs[0], theirs.subarray(2), v)).toMatchObject({ topic: "t/x", packetId: 42, retain: true });
  });
});
