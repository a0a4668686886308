/** The protocol levels this codec speaks: 4 is MQTT 3.1.1, 5 is MQTT 5.0. */
export type ProtocolVersion = 4 | 5;
export type QoS = 0 | 1 | 2;

/** Control packet type numbers (the high nibble of the first byte). */
export const PacketTypeCode = {
  connect: 1,
  connack: 2,
  publish: 3,
  puback: 4,
  pubrec: 5,
  pubrel: 6,
  pubcomp: 7,
  subscribe: 8,
  suback: 9,
  unsubscribe: 10,
  unsuback: 11,
  pingreq: 12,
  pingresp: 13,
  disconnect: 14,
  auth: 15,
} as const;

/** MQTT 5 properties (section 2.2.2.2), named as in the specification. */
export interface Properties {
  payloadFormatIndicator?: number;
  messageExpiryInterval?: number;
  contentType?: string;
  responseTopic?: string;
  correlationData?: Uint8Array;
  /** One in SUBSCRIBE; a PUBLISH to a client carries one per matching subscription. */
  subscriptionIdentifiers?: number[];
  sessionExpiryInterval?: number;
  assignedClientIdentifier?: string;
  serverKeepAlive?: number;
  authenticationMethod?: string;
  authenticationData?: Uint8Array;
  requestProblemInformation?: number;
  willDelayInterval?: number;
  requestResponseInformation?: number;
  responseInformation?: string;
  serverReference?: string;
  reasonString?: string;
  receiveMaximum?: number;
  topicAliasMaximum?: number;
  topicAlias?: number;
  maximumQoS?: number;
  retainAvailable?: number;
  userProperties?: [string, string][];
  maximumPacketSize?: number;
  wildcardSubscriptionAvailable?: number;
  subscriptionIdentifiersAvailable?: number;
  sharedSubscriptionAvailable?: number;
}

export interface Will {
  topic: string;
  payload: Uint8Array;
  qos: QoS;
  retain: boolean;
  properties?: Properties;
}

export interface ConnectPacket {
  type: "connect";
  protocolVersion: ProtocolVersion;
  /** Clean Session (3.1.1) or Clean Start (5). */
  clean: boolean;
  keepAlive: number;
  clientId: string;
  will?: Will;
  username?: string;
  password?: Uint8Array;
  properties?: Properties;
}

export interface ConnackPacket {
  type: "connack";
  sessionPresent: boolean;
  /** The 3.1.1 return code or the MQTT 5 reason code. */
  reasonCode: number;
  properties?: Properties;
}

export interface PublishPacket {
  type: "publish";
  topic: string;
  payload: Uint8Array;
  qos: QoS;
  retain: boolean;
  dup: boolean;
  /** Present exactly when qos > 0. */
  packetId?: number;
  properties?: Properties;
}

/** PUBACK, PUBREC, PUBREL and PUBCOMP share one shape. */
export interface AckPacket {
  type: "puback" | "pubrec" | "pubrel" | "pubcomp";
  packetId: number;
  /** MQTT 5 only; absent means 0 (success). */
  reasonCode?: number;
  properties?: Properties;
}

export interface Subscription {
  topicFilter: string;
  qos: QoS;
  /** MQTT 5 subscription options. */
  noLocal?: boolean;
  retainAsPublished?: boolean;
  retainHandling?: 0 | 1 | 2;
}

export interface SubscribePacket {
  type: "subscribe";
  packetId: number;
  subscriptions: Subscription[];
  properties?: Properties;
}

export interface SubackPacket {
  type: "suback";
  packetId: number;
  /** Granted QoS or failure (0x80) in 3.1.1; MQTT 5 reason codes in 5. */
  reasonCodes: number[];
  properties?: Properties;
}

export interface UnsubscribePacket {
  type: "unsubscribe";
  packetId: number;
  topicFilters: string[];
  properties?: Properties;
}

export interface UnsubackPacket {
  type: "unsuback";
  packetId: number;
  /** MQTT 5 only: one per topic filter. */
  reasonCodes?: number[];
  properties?: Properties;
}

export interface PingPacket {
  type: "pingreq" | "pingresp";
}

export interface DisconnectPacket {
  type: "disconnect";
  /** MQTT 5 only; absent means 0 (normal disconnection). */
  reasonCode?: number;
  properties?: Properties;
}

/** MQTT 5 enhanced authentication. */
export interface AuthPacket {
  type: "auth";
  reasonCode?: number;
  properties?: Properties;
}

export type Packet =
  | ConnectPacket
  | ConnackPacket
  | PublishPacket
  | AckPacket
  | SubscribePacket
  | SubackPacket
  | UnsubscribePacket
  | UnsubackPacket
  | PingPacket
  | DisconnectPacket
  | AuthPacket;
