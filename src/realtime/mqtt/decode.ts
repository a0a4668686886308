import { ByteReader } from "./bytes";
import { MqttError, Reason, malformed, protocolError } from "./errors";
import type {
  AckPacket,
  ConnectPacket,
  Packet,
  ProtocolVersion,
  PublishPacket,
  QoS,
  SubscribePacket,
  Subscription,
  Will,
} from "./packets";
import { readProperties, type PropertyContext } from "./properties";

const TYPE_NAMES = [
  undefined,
  "connect",
  "connack",
  "publish",
  "puback",
  "pubrec",
  "pubrel",
  "pubcomp",
  "subscribe",
  "suback",
  "unsubscribe",
  "unsuback",
  "pingreq",
  "pingresp",
  "disconnect",
  "auth",
] as const;

/** The fixed-header flags each type requires (MQTT-2.1.3-1); PUBLISH carries its own. */
const REQUIRED_FLAGS: Record<string, number> = { pubrel: 0b0010, subscribe: 0b0010, unsubscribe: 0b0010 };

/**
 * Decodes one whole packet: its first byte and the `body` of remaining-length bytes. `version`
 * is the connection's protocol level; a CONNECT carries its own. Throws MqttError for anything
 * that breaks the protocol.
 */
export function decodePacket(firstByte: number, body: Uint8Array, version: ProtocolVersion): Packet {
  const type = TYPE_NAMES[firstByte >> 4];
  const flags = firstByte & 0x0f;
  if (type === undefined) throw malformed("Reserved packet type 0");
  if (type === "auth" && version !== 5) throw malformed("Reserved packet type 15");
  if (type !== "publish" && flags !== (REQUIRED_FLAGS[type] ?? 0)) {
    throw malformed(`Invalid fixed header flags 0x${flags.toString(16)} for ${type}`);
  }
  const reader = new ByteReader(body);
  const packet = decodeBody(type, flags, reader, version);
  reader.expectEnd(type);
  return packet;
}

function decodeBody(
  type: Exclude<(typeof TYPE_NAMES)[number], undefined>,
  flags: number,
  r: ByteReader,
  v: ProtocolVersion,
): Packet {
  switch (type) {
    case "connect":
      return decodeConnect(r);
    case "connack": {
      const ackFlags = r.u8("connect acknowledge flags");
      if ((ackFlags & 0xfe) !== 0) throw malformed("Reserved bits set in CONNACK flags");
      const reasonCode = r.u8("CONNACK reason code");
      const properties = v === 5 ? readProperties(r, "connack") : undefined;
      return { type, sessionPresent: (ackFlags & 1) === 1, reasonCode, ...withProps(properties) };
    }
    case "publish":
      return decodePublish(flags, r, v);
    case "puback":
    case "pubrec":
    case "pubrel":
    case "pubcomp":
      return decodeAck(type, r, v);
    case "subscribe":
      return decodeSubscribe(r, v);
    case "suback": {
      const packetId = readPacketId(r);
      const properties = v === 5 ? readProperties(r, "suback") : undefined;
      const reasonCodes = readList(r, "SUBACK", () => r.u8("SUBACK reason code"));
      if (v === 4 && reasonCodes.some((c) => c > 2 && c !== 0x80)) throw malformed("Invalid SUBACK return code");
      return { type, packetId, reasonCodes, ...withProps(properties) };
    }
    case "unsubscribe": {
      const packetId = readPacketId(r);
      const properties = v === 5 ? readProperties(r, "unsubscribe") : undefined;
      const topicFilters = readList(r, "UNSUBSCRIBE", () => readTopicFilter(r));
      return { type, packetId, topicFilters, ...withProps(properties) };
    }
    case "unsuback": {
      const packetId = readPacketId(r);
      if (v === 4) return { type, packetId };
      const properties = readProperties(r, "unsuback");
      const reasonCodes = readList(r, "UNSUBACK", () => r.u8("UNSUBACK reason code"));
      return { type, packetId, reasonCodes, ...withProps(properties) };
    }
    case "pingreq":
    case "pingresp":
      return { type };
    case "disconnect":
    case "auth": {
      // MQTT 5 lets both end early: no reason code means 0, no properties means none.
      if (v === 4 || r.remaining === 0) return { type };
      const reasonCode = r.u8(`${type} reason code`);
      const properties = r.remaining > 0 ? readProperties(r, type) : undefined;
      return { type, reasonCode, ...withProps(properties) };
    }
  }
}

const withProps = <T>(properties: T | undefined) => (properties ? { properties } : {});

function readPacketId(r: ByteReader): number {
  const id = r.u16("packet identifier");
  if (id === 0) throw protocolError("Packet identifier 0");
  return id;
}

/** SUBSCRIBE, SUBACK, UNSUBSCRIBE and UNSUBACK carry at least one entry (MQTT-3.8.3-2, 3.10.3-2). */
function readList<T>(r: ByteReader, what: string, readOne: () => T): T[] {
  const list: T[] = [];
  while (r.remaining > 0) list.push(readOne());
  if (list.length === 0) throw protocolError(`${what} without any entry`);
  return list;
}

function readTopicFilter(r: ByteReader): string {
  const filter = r.utf8("topic filter");
  if (filter === "") throw protocolError("Empty topic filter");
  return filter;
}

function readQoS(bits: number, what: string): QoS {
  if (bits === 3) throw malformed(`QoS 3 in ${what}`);
  return bits as QoS;
}

function decodeConnect(r: ByteReader): ConnectPacket {
  const name = r.utf8("protocol name");
  const level = r.u8("protocol level");
  if (name !== "MQTT" && name !== "MQIsdp") throw protocolError(`Unknown protocol name ${JSON.stringify(name)}`);
  // MQIsdp is MQTT 3.1: known, so it is answered as an unsupported version rather than garbage.
  if (name !== "MQTT" || (level !== 4 && level !== 5)) {
    throw new MqttError(Reason.UnsupportedProtocolVersion, `Unsupported protocol level ${level}`);
  }
  const version = level as ProtocolVersion;
  const flags = r.u8("connect flags");
  if (flags & 0x01) throw malformed("Reserved connect flag set");
  const hasUsername = (flags & 0x80) !== 0;
  const hasPassword = (flags & 0x40) !== 0;
  const willRetain = (flags & 0x20) !== 0;
  const willQoS = (flags >> 3) & 0x03;
  const hasWill = (flags & 0x04) !== 0;
  const clean = (flags & 0x02) !== 0;
  if (!hasWill && (willQoS !== 0 || willRetain)) throw malformed("Will QoS or retain without a will");
  if (version === 4 && hasPassword && !hasUsername) throw malformed("Password without user name");
  const keepAlive = r.u16("keep alive");
  const properties = version === 5 ? readProperties(r, "connect") : undefined;
  const clientId = r.utf8("client identifier");
  let will: Will | undefined;
  if (hasWill) {
    const willProperties = version === 5 ? readProperties(r, "will") : undefined;
    const topic = readTopicName(r, "will topic");
    const payload = r.binary("will payload");
    will = { topic, payload, qos: readQoS(willQoS, "will"), retain: willRetain, ...withProps(willProperties) };
  }
  const username = hasUsername ? r.utf8("user name") : undefined;
  const password = hasPassword ? r.binary("password") : undefined;
  return {
    type: "connect",
    protocolVersion: version,
    clean,
    keepAlive,
    clientId,
    ...(will ? { will } : {}),
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    ...withProps(properties),
  };
}

/** A topic name (not a filter) never contains wildcards (MQTT-3.3.2-2). */
function readTopicName(r: ByteReader, what: string): string {
  const topic = r.utf8(what);
  if (topic.includes("+") || topic.includes("#")) throw malformed(`Wildcard in ${what}`);
  return topic;
}

function decodePublish(flags: number, r: ByteReader, v: ProtocolVersion): PublishPacket {
  const dup = (flags & 0x08) !== 0;
  const qos = readQoS((flags >> 1) & 0x03, "PUBLISH");
  const retain = (flags & 0x01) !== 0;
  if (qos === 0 && dup) throw malformed("DUP flag on a QoS 0 PUBLISH");
  const topic = readTopicName(r, "topic name");
  const packetId = qos > 0 ? readPacketId(r) : undefined;
  const properties = v === 5 ? readProperties(r, "publish") : undefined;
  if (topic === "" && properties?.topicAlias === undefined)
    throw protocolError("Empty topic name without a topic alias");
  const payload = r.rest();
  return {
    type: "publish",
    topic,
    payload,
    qos,
    retain,
    dup,
    ...(packetId !== undefined ? { packetId } : {}),
    ...withProps(properties),
  };
}

function decodeAck(type: AckPacket["type"], r: ByteReader, v: ProtocolVersion): AckPacket {
  const packetId = readPacketId(r);
  if (v === 4 || r.remaining === 0) return { type, packetId };
  const reasonCode = r.u8(`${type} reason code`);
  const properties = r.remaining > 0 ? readProperties(r, "ack" satisfies PropertyContext) : undefined;
  return { type, packetId, reasonCode, ...withProps(properties) };
}

function decodeSubscribe(r: ByteReader, v: ProtocolVersion): SubscribePacket {
  const packetId = readPacketId(r);
  const properties = v === 5 ? readProperties(r, "subscribe") : undefined;
  const subscriptions = readList(r, "SUBSCRIBE", (): Subscription => {
    const topicFilter = readTopicFilter(r);
    const options = r.u8("subscription options");
    const qos = readQoS(options & 0x03, "subscription");
    if (v === 4) {
      if (options & 0xfc) throw malformed("Reserved bits set in requested QoS");
      return { topicFilter, qos };
    }
    if (options & 0xc0) throw malformed("Reserved bits set in subscription options");
    const retainHandling = (options >> 4) & 0x03;
    if (retainHandling === 3) throw protocolError("Retain handling 3");
    return {
      topicFilter,
      qos,
      noLocal: (options & 0x04) !== 0,
      retainAsPublished: (options & 0x08) !== 0,
      retainHandling: retainHandling as 0 | 1 | 2,
    };
  });
  return { type: "subscribe", packetId, subscriptions, ...withProps(properties) };
}
