import { describe, expect, it } from "vitest";
import { decodePacket } from "../../../src/realtime/mqtt/decode";
import { encodePacket, PublishTemplate } from "../../../src/realtime/mqtt/encode";
import { MqttError, Reason } from "../../../src/realtime/mqtt/errors";
import type { Packet, ProtocolVersion } from "../../../src/realtime/mqtt/packets";
import { encodeVarint, decodeVarint } from "../../../src/realtime/mqtt/bytes";

const hex = (text: string) =>
  Uint8Array.from(
    text
      .trim()
      .split(/\s+/)
      .map((b) => parseInt(b, 16)),
  );
const toHex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(" ");
const utf8 = (text: string) => new TextEncoder().encode(text);

/** Decodes a whole packet given as bytes (fixed header included); its length must be exact. */
function decode(bytes: Uint8Array, version: ProtocolVersion): Packet {
  const length = decodeVarint(bytes, 1)!;
  expect(1 + length.length + length.value).toBe(bytes.length);
  return decodePacket(bytes[0], bytes.subarray(1 + length.length), version);
}

function decodeError(bytes: Uint8Array, version: ProtocolVersion): MqttError {
  try {
    decode(bytes, version);
  } catch (err) {
    expect(err).toBeInstanceOf(MqttError);
    return err as MqttError;
  }
  throw new Error(`decoded without error: ${toHex(bytes)}`);
}

describe("known byte sequences (MQTT 3.1.1)", () => {
  const cases: [string, string, Packet][] = [
    [
      "CONNECT",
      "10 0f 00 04 4d 51 54 54 04 02 00 3c 00 03 61 62 63",
      { type: "connect", protocolVersion: 4, clean: true, keepAlive: 60, clientId: "abc" },
    ],
    [
      "CONNECT with user name and password",
      "10 17 00 04 4d 51 54 54 04 c2 00 0a 00 01 63 00 02 75 73 00 04 70 61 73 73",
      {
        type: "connect",
        protocolVersion: 4,
        clean: true,
        keepAlive: 10,
        clientId: "c",
        username: "us",
        password: utf8("pass"),
      },
    ],
    [
      "CONNECT with a will",
      "10 16 00 04 4d 51 54 54 04 2e 00 00 00 01 63 00 03 77 2f 74 00 02 62 79",
      {
        type: "connect",
        protocolVersion: 4,
        clean: true,
        keepAlive: 0,
        clientId: "c",
        will: { topic: "w/t", payload: utf8("by"), qos: 1, retain: true },
      },
    ],
    ["CONNACK", "20 02 01 00", { type: "connack", sessionPresent: true, reasonCode: 0 }],
    [
      "PUBLISH QoS 0",
      "30 07 00 03 61 2f 62 68 69",
      { type: "publish", topic: "a/b", payload: utf8("hi"), qos: 0, retain: false, dup: false },
    ],
    [
      "PUBLISH QoS 1 retained duplicate",
      "3b 09 00 03 61 2f 62 00 0a 68 69",
      { type: "publish", topic: "a/b", payload: utf8("hi"), qos: 1, retain: true, dup: true, packetId: 10 },
    ],
    [
      "PUBLISH QoS 2",
      "34 05 00 01 74 00 07",
      { type: "publish", topic: "t", payload: new Uint8Array(0), qos: 2, retain: false, dup: false, packetId: 7 },
    ],
    ["PUBACK", "40 02 00 0a", { type: "puback", packetId: 10 }],
    ["PUBREC", "50 02 00 0b", { type: "pubrec", packetId: 11 }],
    ["PUBREL", "62 02 00 0c", { type: "pubrel", packetId: 12 }],
    ["PUBCOMP", "70 02 00 0d", { type: "pubcomp", packetId: 13 }],
    [
      "SUBSCRIBE",
      "82 0e 00 01 00 03 61 2f 62 01 00 03 63 2f 23 02",
      {
        type: "subscribe",
        packetId: 1,
        subscriptions: [
          { topicFilter: "a/b", qos: 1 },
          { topicFilter: "c/#", qos: 2 },
        ],
      },
    ],
    ["SUBACK", "90 04 00 01 01 80", { type: "suback", packetId: 1, reasonCodes: [1, 0x80] }],
    ["UNSUBSCRIBE", "a2 07 00 02 00 03 61 2f 62", { type: "unsubscribe", packetId: 2, topicFilters: ["a/b"] }],
    ["UNSUBACK", "b0 02 00 02", { type: "unsuback", packetId: 2 }],
    ["PINGREQ", "c0 00", { type: "pingreq" }],
    ["PINGRESP", "d0 00", { type: "pingresp" }],
    ["DISCONNECT", "e0 00", { type: "disconnect" }],
  ];
  for (const [name, bytes, packet] of cases) {
    it(`${name}: decodes and encodes`, () => {
      expect(decode(hex(bytes), 4)).toEqual(packet);
      expect(toHex(encodePacket(packet, 4))).toBe(toHex(hex(bytes)));
    });
  }
});

describe("known byte sequences (MQTT 5)", () => {
  const cases: [string, string, Packet][] = [
    [
      "CONNECT without properties",
      "10 0e 00 04 4d 51 54 54 05 02 00 3c 00 00 01 61",
      { type: "connect", protocolVersion: 5, clean: true, keepAlive: 60, clientId: "a" },
    ],
    [
      "CONNECT with properties, password and no user name",
      "10 1a 00 04 4d 51 54 54 05 40 00 1e 08 11 00 00 00 3c 21 00 0a 00 00 00 03 61 62 63",
      {
        type: "connect",
        protocolVersion: 5,
        clean: false,
        keepAlive: 30,
        clientId: "",
        password: utf8("abc"),
        properties: { sessionExpiryInterval: 60, receiveMaximum: 10 },
      },
    ],
    [
      "CONNECT with a will that has properties",
      "10 1a 00 04 4d 51 54 54 05 06 00 00 00 00 01 63 05 18 00 00 00 05 00 01 77 00 01 78",
      {
        type: "connect",
        protocolVersion: 5,
        clean: true,
        keepAlive: 0,
        clientId: "c",
        will: { topic: "w", payload: utf8("x"), qos: 0, retain: false, properties: { willDelayInterval: 5 } },
      },
    ],
    [
      "CONNACK with properties",
      "20 0b 00 00 08 24 01 25 00 12 00 01 7a",
      {
        type: "connack",
        sessionPresent: false,
        reasonCode: 0,
        properties: { maximumQoS: 1, retainAvailable: 0, assignedClientIdentifier: "z" },
      },
    ],
    ["CONNACK refusal", "20 03 00 87 00", { type: "connack", sessionPresent: false, reasonCode: 0x87 }],
    [
      "PUBLISH with properties",
      "32 1f 00 01 74 00 05 17 01 01 03 00 10 61 70 70 6c 69 63 61 74 69 6f 6e 2f 6a 73 6f 6e 0b 07 7b 7d",
      {
        type: "publish",
        topic: "t",
        payload: utf8("{}"),
        qos: 1,
        retain: false,
        dup: false,
        packetId: 5,
        properties: { payloadFormatIndicator: 1, contentType: "application/json", subscriptionIdentifiers: [7] },
      },
    ],
    [
      "PUBLISH with a topic alias and no topic",
      "30 06 00 00 03 23 00 02",
      {
        type: "publish",
        topic: "",
        payload: new Uint8Array(0),
        qos: 0,
        retain: false,
        dup: false,
        properties: { topicAlias: 2 },
      },
    ],
    ["PUBACK success, short form", "40 02 00 05", { type: "puback", packetId: 5 }],
    ["PUBACK with a reason code", "40 03 00 05 10", { type: "puback", packetId: 5, reasonCode: 0x10 }],
    [
      "PUBREC with a reason string",
      "50 08 00 05 80 04 1f 00 01 78",
      { type: "pubrec", packetId: 5, reasonCode: 0x80, properties: { reasonString: "x" } },
    ],
    ["PUBREL with a reason code", "62 03 00 05 92", { type: "pubrel", packetId: 5, reasonCode: 0x92 }],
    ["PUBCOMP", "70 02 00 05", { type: "pubcomp", packetId: 5 }],
    [
      "SUBSCRIBE with options and a subscription identifier",
      "82 0b 00 09 02 0b 2a 00 03 61 2f 62 2d",
      {
        type: "subscribe",
        packetId: 9,
        subscriptions: [{ topicFilter: "a/b", qos: 1, noLocal: true, retainAsPublished: true, retainHandling: 2 }],
        properties: { subscriptionIdentifiers: [42] },
      },
    ],
    ["SUBACK", "90 05 00 09 00 01 87", { type: "suback", packetId: 9, reasonCodes: [1, 0x87] }],
    [
      "UNSUBSCRIBE with a user property",
      "a2 0f 00 03 07 26 00 01 6b 00 01 76 00 03 61 2f 62",
      { type: "unsubscribe", packetId: 3, topicFilters: ["a/b"], properties: { userProperties: [["k", "v"]] } },
    ],
    ["UNSUBACK", "b0 05 00 03 00 00 11", { type: "unsuback", packetId: 3, reasonCodes: [0, 0x11] }],
    ["PINGREQ", "c0 00", { type: "pingreq" }],
    ["PINGRESP", "d0 00", { type: "pingresp" }],
    ["DISCONNECT, short form", "e0 00", { type: "disconnect" }],
    ["DISCONNECT with a reason code", "e0 01 8d", { type: "disconnect", reasonCode: 0x8d }],
    [
      "DISCONNECT with properties",
      "e0 0a 00 08 11 00 00 00 00 1c 00 00",
      { type: "disconnect", reasonCode: 0, properties: { sessionExpiryInterval: 0, serverReference: "" } },
    ],
    ["AUTH, short form", "f0 00", { type: "auth" }],
    [
      "AUTH with method and data",
      "f0 0b 18 09 15 00 01 6d 16 00 02 01 02",
      {
        type: "auth",
        reasonCode: 0x18,
        properties: { authenticationMethod: "m", authenticationData: Uint8Array.from([1, 2]) },
      },
    ],
  ];
  for (const [name, bytes, packet] of cases) {
    it(`${name}: decodes and encodes`, () => {
      expect(decode(hex(bytes), 5)).toEqual(packet);
      expect(toHex(encodePacket(packet, 5))).toBe(toHex(hex(bytes)));
    });
  }

  it("reads a PUBACK whose reason code is followed by an empty property list", () => {
    expect(decode(hex("40 04 00 05 00 00"), 5)).toEqual({ type: "puback", packetId: 5, reasonCode: 0 });
  });

  it("round-trips every property of every packet it may appear in", () => {
    const packets: Packet[] = [
      {
        type: "connect",
        protocolVersion: 5,
        clean: true,
        keepAlive: 1,
        clientId: "id",
        username: "u",
        properties: {
          sessionExpiryInterval: 4294967295,
          authenticationMethod: "m",
          authenticationData: Uint8Array.from([9]),
          requestProblemInformation: 0,
          requestResponseInformation: 1,
          receiveMaximum: 65535,
          topicAliasMaximum: 3,
          userProperties: [
            ["a", "1"],
            ["a", "2"],
          ],
          maximumPacketSize: 1024,
        },
        will: {
          topic: "w",
          payload: Uint8Array.from([1]),
          qos: 2,
          retain: false,
          properties: {
            payloadFormatIndicator: 0,
            messageExpiryInterval: 9,
            contentType: "c",
            responseTopic: "r",
            correlationData: Uint8Array.from([5]),
            willDelayInterval: 1,
            userProperties: [["x", "y"]],
          },
        },
      },
      {
        type: "connack",
        sessionPresent: false,
        reasonCode: 0,
        properties: {
          sessionExpiryInterval: 0,
          assignedClientIdentifier: "a",
          serverKeepAlive: 30,
          authenticationMethod: "m",
          authenticationData: Uint8Array.from([1]),
          responseInformation: "ri",
          serverReference: "s",
          reasonString: "ok",
          receiveMaximum: 1,
          topicAliasMaximum: 0,
          maximumQoS: 0,
          retainAvailable: 1,
          userProperties: [["k", "v"]],
          maximumPacketSize: 100,
          wildcardSubscriptionAvailable: 0,
          subscriptionIdentifiersAvailable: 1,
          sharedSubscriptionAvailable: 0,
        },
      },
      {
        type: "publish",
        topic: "t",
        payload: utf8("p"),
        qos: 0,
        retain: true,
        dup: false,
        properties: {
          messageExpiryInterval: 5,
          responseTopic: "r",
          correlationData: Uint8Array.from([1, 2]),
          subscriptionIdentifiers: [1, 268435455],
          topicAlias: 1,
          userProperties: [["k", "v"]],
        },
      },
      {
        type: "puback",
        packetId: 1,
        reasonCode: 0x87,
        properties: { reasonString: "no", userProperties: [["k", "v"]] },
      },
      {
        type: "suback",
        packetId: 1,
        reasonCodes: [0],
        properties: { reasonString: "r", userProperties: [["k", "v"]] },
      },
      { type: "unsuback", packetId: 1, reasonCodes: [0], properties: { reasonString: "r" } },
      { type: "disconnect", reasonCode: 0x8e, properties: { reasonString: "r", userProperties: [["k", "v"]] } },
      { type: "auth", reasonCode: 0x19, properties: { reasonString: "r" } },
    ];
    for (const packet of packets) expect(decode(encodePacket(packet, 5), 5)).toEqual(packet);
  });
});

describe("remaining length", () => {
  it("encodes the boundaries of one to four bytes", () => {
    const cases: [number, string][] = [
      [0, "00"],
      [127, "7f"],
      [128, "80 01"],
      [16383, "ff 7f"],
      [16384, "80 80 01"],
      [2097151, "ff ff 7f"],
      [2097152, "80 80 80 01"],
      [268435455, "ff ff ff 7f"],
    ];
    for (const [value, bytes] of cases) {
      expect(toHex(Uint8Array.from(encodeVarint(value)))).toBe(bytes);
      expect(decodeVarint(hex(bytes), 0)).toEqual({ value, length: hex(bytes).length });
    }
    expect(() => encodeVarint(268435456)).toThrow(RangeError);
  });

  it("frames a payload long enough to need two length bytes", () => {
    const payload = new Uint8Array(200).fill(0x61);
    const bytes = encodePacket({ type: "publish", topic: "t", payload, qos: 0, retain: false, dup: false }, 4);
    expect(toHex(bytes.subarray(0, 3))).toBe("30 cb 01");
    expect(decode(bytes, 4)).toMatchObject({ topic: "t", payload });
  });

  it("refuses five length bytes and a longer encoding than needed", () => {
    expect(() => decodeVarint(hex("ff ff ff ff 7f"), 0)).toThrow(/longer than four/);
    expect(() => decodeVarint(hex("80 00"), 0)).toThrow(/minimally/);
    expect(decodeVarint(hex("80 80"), 0)).toBeNull();
  });
});

describe("malformed packets", () => {
  const cases: [string, string, ProtocolVersion, number, RegExp][] = [
    ["reserved packet type 0", "00 00", 4, Reason.MalformedPacket, /Reserved packet type 0/],
    ["AUTH in MQTT 3.1.1", "f0 00", 4, Reason.MalformedPacket, /Reserved packet type 15/],
    ["flags on PINGREQ", "c1 00", 4, Reason.MalformedPacket, /flags/],
    ["SUBSCRIBE without its 0010 flags", "80 08 00 01 00 03 61 2f 62 00", 4, Reason.MalformedPacket, /flags/],
    ["UNSUBSCRIBE without its 0010 flags", "a0 07 00 02 00 03 61 2f 62", 4, Reason.MalformedPacket, /flags/],
    ["PUBREL without its 0010 flags", "60 02 00 01", 4, Reason.MalformedPacket, /flags/],
    ["PUBLISH at QoS 3", "36 05 00 01 74 00 01", 4, Reason.MalformedPacket, /QoS 3/],
    ["DUP on a QoS 0 PUBLISH", "38 03 00 01 74", 4, Reason.MalformedPacket, /DUP/],
    ["wildcard in a PUBLISH topic", "30 03 00 01 23", 4, Reason.MalformedPacket, /Wildcard/],
    ["packet id 0", "40 02 00 00", 4, Reason.ProtocolError, /identifier 0/],
    ["bytes after a PUBACK (3.1.1)", "40 03 00 01 00", 4, Reason.MalformedPacket, /unexpected bytes/],
    ["bytes after PINGREQ", "c0 01 00", 4, Reason.MalformedPacket, /unexpected bytes/],
    ["bytes after a 3.1.1 DISCONNECT", "e0 01 00", 4, Reason.MalformedPacket, /unexpected bytes/],
    ["truncated packet id", "40 01 00", 4, Reason.MalformedPacket, /Truncated packet identifier/],
    [
      "string longer than the packet",
      "82 08 00 01 00 0a 61 2f 62 00",
      4,
      Reason.MalformedPacket,
      /Truncated topic filter/,
    ],
    ["string length cut in half", "82 03 00 01 00", 4, Reason.MalformedPacket, /Truncated length of topic filter/],
    [
      "missing requested QoS",
      "82 07 00 01 00 03 61 2f 62",
      4,
      Reason.MalformedPacket,
      /Truncated subscription options/,
    ],
    ["invalid UTF-8 in a topic filter", "82 07 00 01 00 02 c3 28 00", 4, Reason.MalformedPacket, /Invalid UTF-8/],
    ["UTF-16 surrogate encoded in UTF-8", "82 08 00 01 00 03 ed a0 80 00", 4, Reason.MalformedPacket, /Invalid UTF-8/],
    ["null character in a string", "82 06 00 01 00 01 00 00", 4, Reason.MalformedPacket, /Null character/],
    ["SUBSCRIBE without any filter", "82 02 00 01", 4, Reason.ProtocolError, /without any entry/],
    ["UNSUBSCRIBE without any filter", "a2 02 00 01", 4, Reason.ProtocolError, /without any entry/],
    ["empty topic filter", "82 05 00 01 00 00 00", 4, Reason.ProtocolError, /Empty topic filter/],
    ["reserved bits of requested QoS", "82 08 00 01 00 03 61 2f 62 04", 4, Reason.MalformedPacket, /Reserved bits/],
    ["requested QoS 3", "82 08 00 01 00 03 61 2f 62 03", 4, Reason.MalformedPacket, /QoS 3/],
    [
      "reserved bits of subscription options",
      "82 09 00 01 00 00 03 61 2f 62 c0",
      5,
      Reason.MalformedPacket,
      /Reserved bits/,
    ],
    ["retain handling 3", "82 09 00 01 00 00 03 61 2f 62 30", 5, Reason.ProtocolError, /Retain handling 3/],
    ["reserved CONNACK flags", "20 02 02 00", 4, Reason.MalformedPacket, /Reserved bits/],
    ["invalid 3.1.1 SUBACK code", "90 03 00 01 03", 4, Reason.MalformedPacket, /SUBACK return code/],
    [
      "reserved CONNECT flag",
      "10 0d 00 04 4d 51 54 54 04 03 00 3c 00 01 61",
      4,
      Reason.MalformedPacket,
      /Reserved connect flag/,
    ],
    [
      "3.1.1 password without user name",
      "10 0f 00 04 4d 51 54 54 04 42 00 3c 00 01 61 00 00",
      4,
      Reason.MalformedPacket,
      /Password without user name/,
    ],
    [
      "will QoS without a will",
      "10 0d 00 04 4d 51 54 54 04 0a 00 3c 00 01 61",
      4,
      Reason.MalformedPacket,
      /without a will/,
    ],
    ["will QoS 3", "10 12 00 04 4d 51 54 54 04 1e 00 3c 00 01 61 00 01 77 00 00", 4, Reason.MalformedPacket, /QoS 3/],
    ["truncated CONNECT", "10 0b 00 04 4d 51 54 54 04 02 00 3c 00", 4, Reason.MalformedPacket, /Truncated/],
    ["unknown protocol name", "10 0d 00 04 4d 51 54 58 04 02 00 3c 00 01 61", 4, Reason.ProtocolError, /protocol name/],
    [
      "MQTT 3.1 (MQIsdp)",
      "10 0f 00 06 4d 51 49 73 64 70 03 02 00 3c 00 01 61",
      4,
      Reason.UnsupportedProtocolVersion,
      /level 3/,
    ],
    [
      "protocol level 6",
      "10 0d 00 04 4d 51 54 54 06 02 00 3c 00 01 61",
      4,
      Reason.UnsupportedProtocolVersion,
      /level 6/,
    ],
    ["unknown property", "e0 04 00 02 7f 00", 5, Reason.MalformedPacket, /Unknown property/],
    [
      "property not allowed in the packet",
      "e0 04 00 02 24 01",
      5,
      Reason.ProtocolError,
      /maximumQoS is not allowed in disconnect/,
    ],
    ["property given twice", "20 07 00 00 04 24 01 24 01", 5, Reason.ProtocolError, /appears twice/],
    [
      "subscription identifier twice in SUBSCRIBE",
      "82 0d 00 01 04 0b 01 0b 02 00 03 61 2f 62 00",
      5,
      Reason.ProtocolError,
      /appears twice/,
    ],
    ["subscription identifier 0", "82 0b 00 01 02 0b 00 00 03 61 2f 62 00", 5, Reason.ProtocolError, /Invalid value 0/],
    [
      "receive maximum 0",
      "10 10 00 04 4d 51 54 54 05 02 00 3c 03 21 00 00 00 00",
      5,
      Reason.ProtocolError,
      /receiveMaximum/,
    ],
    ["property list longer than the packet", "e0 03 00 05 11", 5, Reason.MalformedPacket, /Truncated properties/],
    [
      "property value cut short",
      "e0 04 00 02 11 00",
      5,
      Reason.MalformedPacket,
      /Truncated property sessionExpiryInterval/,
    ],
    ["empty topic without an alias", "30 03 00 00 00", 5, Reason.ProtocolError, /Empty topic name/],
  ];
  for (const [name, bytes, version, reason, message] of cases) {
    it(`refuses ${name}`, () => {
      const error = decodeError(hex(bytes), version);
      expect(error.message).toMatch(message);
      expect(error.reason).toBe(reason);
    });
  }
});

describe("the encoder refuses what it cannot express", () => {
  it("rejects packet id 0, empty lists, misplaced properties and AUTH in 3.1.1", () => {
    expect(() => encodePacket({ type: "puback", packetId: 0 }, 4)).toThrow(/Packet identifier/);
    expect(() => encodePacket({ type: "subscribe", packetId: 1, subscriptions: [] }, 4)).toThrow(/at least one/);
    expect(() => encodePacket({ type: "disconnect", reasonCode: 0, properties: { maximumQoS: 1 } }, 5)).toThrow(
      /not allowed/,
    );
    expect(() => encodePacket({ type: "auth" }, 4)).toThrow(/only in MQTT 5/);
    expect(() =>
      encodePacket(
        { type: "publish", topic: "t", payload: new Uint8Array(), qos: 0, retain: false, dup: false, packetId: 1 },
        4,
      ),
    ).toThrow(/QoS 0/);
    expect(() =>
      encodePacket({ type: "suback", packetId: 1, reasonCodes: [0], properties: { subscriptionIdentifiers: [1] } }, 5),
    ).toThrow(/not allowed/);
    expect(() =>
      encodePacket(
        {
          type: "subscribe",
          packetId: 1,
          subscriptions: [{ topicFilter: "t", qos: 0 }],
          properties: { subscriptionIdentifiers: [1, 2] },
        },
        5,
      ),
    ).toThrow(/only once/);
    expect(() =>
      encodePacket(
        { type: "publish", topic: "x".repeat(65536), payload: new Uint8Array(), qos: 0, retain: false, dup: false },
        4,
      ),
    ).toThrow(/65535/);
  });
});

describe("PublishTemplate", () => {
  const template = new PublishTemplate("a/b", utf8('{"x":1}'), {
    payloadFormatIndicator: 1,
    contentType: "application/json",
  });

  it("gives each QoS 1 subscriber its own packet id and shares QoS 0 bytes", () => {
    expect(decode(template.bytesFor(4, 1, 300), 4)).toEqual({
      type: "publish",
      topic: "a/b",
      payload: utf8('{"x":1}'),
      qos: 1,
      retain: false,
      dup: false,
      packetId: 300,
    });
    expect(decode(template.bytesFor(4, 1, 7), 4)).toMatchObject({ packetId: 7 });
    expect(template.bytesFor(4, 0)).toBe(template.bytesFor(4, 0));
    expect(decode(template.bytesFor(5, 1, 65535), 5)).toEqual({
      type: "publish",
      topic: "a/b",
      payload: utf8('{"x":1}'),
      qos: 1,
      retain: false,
      dup: false,
      packetId: 65535,
      properties: { payloadFormatIndicator: 1, contentType: "application/json" },
    });
  });

  it("adds a subscription identifier for MQTT 5 only", () => {
    expect(decode(template.bytesFor(5, 0, undefined, 9), 5)).toMatchObject({
      properties: { subscriptionIdentifiers: [9] },
    });
    expect(decode(template.bytesFor(4, 0, undefined, 9), 4)).not.toHaveProperty("properties");
  });

  it("patches the id behind a topic whose length needs a two-byte remaining length", () => {
    const big = new PublishTemplate("t".repeat(300), utf8("p"), {});
    expect(decode(big.bytesFor(4, 1, 0x1234), 4)).toMatchObject({ packetId: 0x1234, topic: "t".repeat(300) });
  });
});
