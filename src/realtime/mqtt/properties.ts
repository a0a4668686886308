import { type ByteReader, ByteWriter, MAX_VARINT } from "./bytes";
import { malformed, protocolError } from "./errors";
import type { Properties } from "./packets";

/** Where a property list sits: a packet type, or the will inside CONNECT. */
export type PropertyContext =
  | "connect"
  | "connack"
  | "publish"
  | "will"
  | "ack"
  | "subscribe"
  | "suback"
  | "unsubscribe"
  | "unsuback"
  | "disconnect"
  | "auth";

type ValueType = "byte" | "u16" | "u32" | "varint" | "utf8" | "binary" | "pair";

interface PropertyDef {
  id: number;
  name: keyof Properties;
  type: ValueType;
  contexts: PropertyContext[];
  /** Values outside are a protocol error (for example Receive Maximum 0). */
  valid?: (value: number) => boolean;
}

const boolean = (v: number) => v === 0 || v === 1;
const nonZero = (v: number) => v !== 0;
const ALL_WITH_PROPERTIES: PropertyContext[] = [
  "connect",
  "connack",
  "publish",
  "will",
  "ack",
  "subscribe",
  "suback",
  "unsubscribe",
  "unsuback",
  "disconnect",
  "auth",
];

/** MQTT 5.0 table 2-4: identifier, type and the packets each property may appear in. */
const DEFINITIONS: PropertyDef[] = [
  { id: 0x01, name: "payloadFormatIndicator", type: "byte", contexts: ["publish", "will"], valid: boolean },
  { id: 0x02, name: "messageExpiryInterval", type: "u32", contexts: ["publish", "will"] },
  { id: 0x03, name: "contentType", type: "utf8", contexts: ["publish", "will"] },
  { id: 0x08, name: "responseTopic", type: "utf8", contexts: ["publish", "will"] },
  { id: 0x09, name: "correlationData", type: "binary", contexts: ["publish", "will"] },
  { id: 0x0b, name: "subscriptionIdentifiers", type: "varint", contexts: ["publish", "subscribe"], valid: nonZero },
  { id: 0x11, name: "sessionExpiryInterval", type: "u32", contexts: ["connect", "connack", "disconnect"] },
  { id: 0x12, name: "assignedClientIdentifier", type: "utf8", contexts: ["connack"] },
  { id: 0x13, name: "serverKeepAlive", type: "u16", contexts: ["connack"] },
  { id: 0x15, name: "authenticationMethod", type: "utf8", contexts: ["connect", "connack", "auth"] },
  { id: 0x16, name: "authenticationData", type: "binary", contexts: ["connect", "connack", "auth"] },
  { id: 0x17, name: "requestProblemInformation", type: "byte", contexts: ["connect"], valid: boolean },
  { id: 0x18, name: "willDelayInterval", type: "u32", contexts: ["will"] },
  { id: 0x19, name: "requestResponseInformation", type: "byte", contexts: ["connect"], valid: boolean },
  { id: 0x1a, name: "responseInformation", type: "utf8", contexts: ["connack"] },
  { id: 0x1c, name: "serverReference", type: "utf8", contexts: ["connack", "disconnect"] },
  {
    id: 0x1f,
    name: "reasonString",
    type: "utf8",
    contexts: ["connack", "ack", "suback", "unsuback", "disconnect", "auth"],
  },
  { id: 0x21, name: "receiveMaximum", type: "u16", contexts: ["connect", "connack"], valid: nonZero },
  { id: 0x22, name: "topicAliasMaximum", type: "u16", contexts: ["connect", "connack"] },
  { id: 0x23, name: "topicAlias", type: "u16", contexts: ["publish"], valid: nonZero },
  { id: 0x24, name: "maximumQoS", type: "byte", contexts: ["connack"], valid: boolean },
  { id: 0x25, name: "retainAvailable", type: "byte", contexts: ["connack"], valid: boolean },
  { id: 0x26, name: "userProperties", type: "pair", contexts: ALL_WITH_PROPERTIES },
  { id: 0x27, name: "maximumPacketSize", type: "u32", contexts: ["connect", "connack"], valid: nonZero },
  { id: 0x28, name: "wildcardSubscriptionAvailable", type: "byte", contexts: ["connack"], valid: boolean },
  { id: 0x29, name: "subscriptionIdentifiersAvailable", type: "byte", contexts: ["connack"], valid: boolean },
  { id: 0x2a, name: "sharedSubscriptionAvailable", type: "byte", contexts: ["connack"], valid: boolean },
];

const BY_ID = new Map(DEFINITIONS.map((d) => [d.id, d]));
const BY_NAME = new Map(DEFINITIONS.map((d) => [d.name, d]));

/** Properties that may occur more than once in one list. */
const repeatable = (def: PropertyDef, context: PropertyContext) =>
  def.name === "userProperties" || (def.name === "subscriptionIdentifiers" && context === "publish");

/** Reads a property list (its length first); unknown, misplaced or repeated properties are errors. */
export function readProperties(reader: ByteReader, context: PropertyContext): Properties | undefined {
  const length = reader.varint("property length");
  if (length === 0) return undefined;
  const section = reader.section(length, "properties");
  const props: Record<string, unknown> = {};
  while (section.remaining > 0) {
    const id = section.varint("property identifier");
    const def = BY_ID.get(id);
    if (!def) throw malformed(`Unknown property 0x${id.toString(16)}`);
    if (!def.contexts.includes(context)) throw protocolError(`Property ${def.name} is not allowed in ${context}`);
    const value = readValue(section, def);
    if (typeof value === "number" && def.valid && !def.valid(value)) {
      throw protocolError(`Invalid value ${value} of property ${def.name}`);
    }
    if (def.type === "pair" || def.name === "subscriptionIdentifiers") {
      const list = (props[def.name] as unknown[] | undefined) ?? [];
      if (list.length > 0 && !repeatable(def, context)) throw protocolError(`Property ${def.name} appears twice`);
      list.push(value);
      props[def.name] = list;
    } else {
      if (def.name in props) throw protocolError(`Property ${def.name} appears twice`);
      props[def.name] = value;
    }
  }
  return props as Properties;
}

function readValue(reader: ByteReader, def: PropertyDef): unknown {
  const what = `property ${def.name}`;
  switch (def.type) {
    case "byte":
      return reader.u8(what);
    case "u16":
      return reader.u16(what);
    case "u32":
      return reader.u32(what);
    case "varint":
      return reader.varint(what);
    case "utf8":
      return reader.utf8(what);
    case "binary":
      return reader.binary(what);
    case "pair":
      return [reader.utf8(`${what} name`), reader.utf8(`${what} value`)];
  }
}

/** Writes a property list with its length; an absent or empty list is the single byte 0. */
export function writeProperties(writer: ByteWriter, props: Properties | undefined, context: PropertyContext): void {
  const body = new ByteWriter();
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined) continue;
    const def = BY_NAME.get(name as keyof Properties);
    if (!def) throw new TypeError(`Unknown property ${name}`);
    if (!def.contexts.includes(context)) throw new TypeError(`Property ${name} is not allowed in ${context}`);
    const values: unknown[] =
      def.type === "pair" || def.name === "subscriptionIdentifiers" ? (value as unknown[]) : [value];
    if (values.length > 1 && !repeatable(def, context))
      throw new TypeError(`Property ${name} may appear only once in ${context}`);
    for (const v of values) {
      body.varint(def.id);
      writeValue(body, def, v);
    }
  }
  writer.varint(body.length).bytes(body.toBytes());
}

function writeValue(writer: ByteWriter, def: PropertyDef, value: unknown): void {
  switch (def.type) {
    case "byte":
      writer.u8(value as number);
      return;
    case "u16":
      writer.u16(value as number);
      return;
    case "u32":
      writer.u32(value as number);
      return;
    case "varint":
      if ((value as number) > MAX_VARINT) throw new RangeError(`Property ${def.name} out of range`);
      writer.varint(value as number);
      return;
    case "utf8":
      writer.utf8(value as string);
      return;
    case "binary":
      writer.binary(value as Uint8Array);
      return;
    case "pair": {
      const [key, val] = value as [string, string];
      writer.utf8(key).utf8(val);
      return;
    }
  }
}
