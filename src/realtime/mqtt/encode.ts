import { ByteWriter, MAX_VARINT } from "./bytes";
import { PacketTypeCode, type Packet, type ProtocolVersion, type PublishPacket, type Subscription } from "./packets";
import { writeProperties } from "./properties";

/**
 * Encodes one packet for a connection of protocol `version` (a CONNECT uses its own). Invalid
 * input (a packet id of 0, a string over 65535 bytes, a property in the wrong packet) throws:
 * the broker only encodes what it built itself, so that is a bug, not a client's fault.
 */
export function encodePacket(packet: Packet, version: ProtocolVersion): Uint8Array {
  const body = new ByteWriter();
  let flags = 0;
  switch (packet.type) {
    case "connect": {
      const v = packet.protocolVersion;
      const will = packet.will;
      const connectFlags =
        (packet.username !== undefined ? 0x80 : 0) |
        (packet.password !== undefined ? 0x40 : 0) |
        (will?.retain ? 0x20 : 0) |
        ((will?.qos ?? 0) << 3) |
        (will ? 0x04 : 0) |
        (packet.clean ? 0x02 : 0);
      body.utf8("MQTT").u8(v).u8(connectFlags).u16(packet.keepAlive);
      if (v === 5) writeProperties(body, packet.properties, "connect");
      body.utf8(packet.clientId);
      if (will) {
        if (v === 5) writeProperties(body, will.properties, "will");
        body.utf8(will.topic).binary(will.payload);
      }
      if (packet.username !== undefined) body.utf8(packet.username);
      if (packet.password !== undefined) body.binary(packet.password);
      break;
    }
    case "connack":
      body.u8(packet.sessionPresent ? 1 : 0).u8(packet.reasonCode);
      if (version === 5) writeProperties(body, packet.properties, "connack");
      break;
    case "publish":
      flags = publishFlags(packet);
      writePublishBody(body, packet, version);
      break;
    case "puback":
    case "pubrec":
    case "pubrel":
    case "pubcomp":
      if (packet.type === "pubrel") flags = 0b0010;
      body.u16(nonZeroId(packet.packetId));
      if (version === 5 && (packet.reasonCode || packet.properties)) {
        body.u8(packet.reasonCode ?? 0);
        if (packet.properties) writeProperties(body, packet.properties, "ack");
      }
      break;
    case "subscribe":
      flags = 0b0010;
      body.u16(nonZeroId(packet.packetId));
      if (version === 5) writeProperties(body, packet.properties, "subscribe");
      for (const sub of nonEmpty(packet.subscriptions, "SUBSCRIBE"))
        body.utf8(sub.topicFilter).u8(subscriptionOptions(sub, version));
      break;
    case "suback":
      body.u16(nonZeroId(packet.packetId));
      if (version === 5) writeProperties(body, packet.properties, "suback");
      for (const code of nonEmpty(packet.reasonCodes, "SUBACK")) body.u8(code);
      break;
    case "unsubscribe":
      flags = 0b0010;
      body.u16(nonZeroId(packet.packetId));
      if (version === 5) writeProperties(body, packet.properties, "unsubscribe");
      for (const filter of nonEmpty(packet.topicFilters, "UNSUBSCRIBE")) body.utf8(filter);
      break;
    case "unsuback":
      body.u16(nonZeroId(packet.packetId));
      if (version === 5) {
        writeProperties(body, packet.properties, "unsuback");
        for (const code of nonEmpty(packet.reasonCodes ?? [], "UNSUBACK")) body.u8(code);
      }
      break;
    case "pingreq":
    case "pingresp":
      break;
    case "disconnect":
    case "auth":
      if (packet.type === "auth" && version !== 5) throw new TypeError("AUTH exists only in MQTT 5");
      if (version === 5 && (packet.reasonCode || packet.properties)) {
        body.u8(packet.reasonCode ?? 0);
        if (packet.properties) writeProperties(body, packet.properties, packet.type);
      }
      break;
  }
  return frame(PacketTypeCode[packet.type], flags, body);
}

function frame(typeCode: number, flags: number, body: ByteWriter): Uint8Array {
  if (body.length > MAX_VARINT) throw new RangeError("Packet larger than the protocol allows");
  return new ByteWriter()
    .u8((typeCode << 4) | flags)
    .varint(body.length)
    .bytes(body.toBytes())
    .toBytes();
}

const publishFlags = (p: PublishPacket) => (p.dup ? 0x08 : 0) | (p.qos << 1) | (p.retain ? 0x01 : 0);

function writePublishBody(body: ByteWriter, packet: PublishPacket, version: ProtocolVersion) {
  body.utf8(packet.topic);
  if (packet.qos > 0) body.u16(nonZeroId(packet.packetId));
  else if (packet.packetId !== undefined) throw new TypeError("A QoS 0 PUBLISH has no packet identifier");
  if (version === 5) writeProperties(body, packet.properties, "publish");
  body.bytes(packet.payload);
}

function subscriptionOptions(sub: Subscription, version: ProtocolVersion): number {
  if (version === 4) return sub.qos;
  return sub.qos | (sub.noLocal ? 0x04 : 0) | (sub.retainAsPublished ? 0x08 : 0) | ((sub.retainHandling ?? 0) << 4);
}

function nonZeroId(id: number | undefined): number {
  if (!id) throw new TypeError("Packet identifier must be 1..65535");
  return id;
}

function nonEmpty<T>(list: T[], what: string): T[] {
  if (list.length === 0) throw new TypeError(`${what} needs at least one entry`);
  return list;
}

/**
 * A PUBLISH to many subscribers: the bytes are built once per protocol version and QoS, and a
 * QoS 1 copy only has its packet identifier patched, so fanning a leaderboard change out to
 * thousands of sockets costs one encoding, not thousands.
 */
export class PublishTemplate {
  private cache = new Map<string, { bytes: Uint8Array; idOffset: number }>();

  constructor(
    readonly topic: string,
    readonly payload: Uint8Array,
    private readonly v5Properties: PublishPacket["properties"],
  ) {}

  /** The packet for one subscriber; a subscription identifier makes it unique to that subscriber. */
  bytesFor(version: ProtocolVersion, qos: 0 | 1, packetId?: number, subscriptionIdentifier?: number): Uint8Array {
    if (subscriptionIdentifier !== undefined && version === 5) {
      return encodePacket(this.packet(version, qos, packetId, [subscriptionIdentifier]), version);
    }
    const key = `${version}:${qos}`;
    let entry = this.cache.get(key);
    if (!entry) {
      const bytes = encodePacket(this.packet(version, qos, qos === 1 ? 1 : undefined), version);
      entry = { bytes, idOffset: qos === 1 ? idOffset(bytes) : -1 };
      this.cache.set(key, entry);
    }
    if (qos === 0) return entry.bytes;
    const copy = entry.bytes.slice();
    copy[entry.idOffset] = packetId! >> 8;
    copy[entry.idOffset + 1] = packetId! & 0xff;
    return copy;
  }

  private packet(
    version: ProtocolVersion,
    qos: 0 | 1,
    packetId?: number,
    subscriptionIdentifiers?: number[],
  ): PublishPacket {
    const properties =
      version === 5
        ? { ...this.v5Properties, ...(subscriptionIdentifiers ? { subscriptionIdentifiers } : {}) }
        : undefined;
    return {
      type: "publish",
      topic: this.topic,
      payload: this.payload,
      qos,
      retain: false,
      dup: false,
      ...(packetId !== undefined ? { packetId } : {}),
      ...(properties ? { properties } : {}),
    };
  }
}

/** Where the packet id sits in an encoded QoS 1 PUBLISH: after the fixed header and the topic. */
function idOffset(bytes: Uint8Array): number {
  let at = 1;
  while (bytes[at] & 0x80) at++;
  at++;
  const topicLength = (bytes[at] << 8) | bytes[at + 1];
  return at + 2 + topicLength;
}
