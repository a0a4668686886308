import { type MqttError, Reason } from "../mqtt/errors";
import type {
  ConnackPacket,
  ConnectPacket,
  Packet,
  ProtocolVersion,
  SubscribePacket,
  UnsubscribePacket,
} from "../mqtt/packets";

/** The broker's limits; CONNACK announces the ones MQTT 5 clients can see. */
export const LIMITS = {
  /** Clients only send small control packets; anything bigger is refused before it is buffered. */
  maxIncomingPacket: 64 * 1024,
  /**
   * Subscriptions of one connection (the SCILL SDK uses one per connection). Bounded because they
   * live in the socket's attachment, which the runtime caps at 16 KB: 32 issued topics and a full
   * window of packet ids take about 3 KB.
   */
  maxSubscriptions: 32,
  /** QoS 1 messages awaiting PUBACK per connection (MQTT 5 clients may ask for fewer). */
  maxInflight: 32,
  /** QoS 1 messages waiting for room in the window, per connection (in memory only). */
  maxQueued: 100,
  /** A socket that sends no CONNECT within this time is closed. */
  connectTimeoutMs: 10_000,
  maxClientIdLength: 128,
} as const;

/** WebSocket close codes: a normal end, a broken protocol, a forbidden action. */
export const CloseCode = { Normal: 1000, ProtocolError: 1002, PolicyViolation: 1008, TooBig: 1009 } as const;

export interface SubscriptionState {
  topic: string;
  qos: 0 | 1;
  /** MQTT 5 subscription identifier, echoed in each PUBLISH it causes. */
  id?: number;
}

/**
 * Everything a connection must remember across hibernation; it is the socket's attachment, which
 * the runtime caps at 16 KB, hence the caps on subscriptions, in-flight messages and client ids.
 */
export interface SessionState {
  connId: string;
  phase: "awaiting-connect" | "connected";
  version?: ProtocolVersion;
  clientId?: string;
  /** Seconds; 0 disables keep-alive. */
  keepAlive: number;
  /** Wall-clock ms of the last packet received: keep-alive is transport time, not business time. */
  lastSeen: number;
  subs: SubscriptionState[];
  /** The client's limit on packets sent to it (MQTT 5 Maximum Packet Size). */
  maxPacketSize?: number;
  /** QoS 1 messages that may await PUBACK at once. */
  window: number;
  nextPacketId: number;
  inflight: number[];
  /** A piece of a packet is stored, waiting for the rest. */
  partial?: boolean;
}

export function newSession(connId: string, now: number): SessionState {
  return {
    connId,
    phase: "awaiting-connect",
    keepAlive: 0,
    lastSeen: now,
    subs: [],
    window: LIMITS.maxInflight,
    nextPacketId: 1,
    inflight: [],
  };
}

/** When the connection must be closed for silence, or null when it may stay silent. */
export function keepAliveDeadline(session: SessionState): number | null {
  if (session.phase === "awaiting-connect") return session.lastSeen + LIMITS.connectTimeoutMs;
  if (session.keepAlive === 0) return null;
  // MQTT-3.1.2-24: one and a half times the keep-alive.
  return session.lastSeen + session.keepAlive * 1500;
}

export interface Close {
  /** MQTT 5 reason of the DISCONNECT sent before closing (only once connected as MQTT 5). */
  reason: number;
  message: string;
  code: number;
}

/** What the broker does after a packet: send these, maybe close, maybe update its indexes. */
export interface Outcome {
  send: Packet[];
  close?: Close;
  /** The connection's subscriptions changed. */
  resubscribed?: boolean;
  /** A CONNECT took this client id: an older connection holding it must go (session takeover). */
  clientIdTaken?: string;
  /** A PUBACK made room for queued QoS 1 messages. */
  windowFreed?: boolean;
}

export interface PacketDeps {
  now: number;
  /** Whether the CONNECT password is a valid access token. */
  verifyToken(token: string): Promise<boolean>;
  /** Whether this service handed out the topic and its player is not banned. */
  maySubscribe(topic: string): Promise<boolean>;
  newClientId(): string;
}

/** Handles one decoded packet from a client; `session` is updated in place. */
export async function handlePacket(session: SessionState, packet: Packet, deps: PacketDeps): Promise<Outcome> {
  session.lastSeen = deps.now;
  switch (packet.type) {
    case "connect":
      return connect(session, packet, deps);
    case "subscribe":
      return subscribe(session, packet, deps);
    case "unsubscribe":
      return unsubscribe(session, packet);
    case "puback":
      return acknowledge(session, packet.packetId);
    case "pingreq":
      return { send: [{ type: "pingresp" }] };
    case "disconnect":
      return { send: [], close: { reason: Reason.Success, message: "client disconnected", code: CloseCode.Normal } };
    case "publish":
      // Topics carry the service's own messages; a client that publishes is shown the door.
      return refuse(session, Reason.NotAuthorized, "clients may not publish", CloseCode.PolicyViolation);
    default:
      // PUBREC, PUBREL and PUBCOMP answer QoS 2 messages, which this broker never sends; the
      // rest are packets only a server sends.
      return refuse(session, Reason.ProtocolError, `unexpected ${packet.type.toUpperCase()}`, CloseCode.ProtocolError);
  }
}

/** The end of a connection for a packet that broke the protocol. */
export function protocolFailure(session: SessionState, error: MqttError): Outcome {
  if (error.reason === Reason.UnsupportedProtocolVersion) {
    // MQTT-3.1.2-2: answer with the 3.1.1 return code 1, which every version can read.
    return {
      send: [{ type: "connack", sessionPresent: false, reasonCode: 0x01 }],
      close: closeFor(error.reason, error.message),
    };
  }
  return refuse(
    session,
    error.reason,
    error.message,
    error.reason === Reason.PacketTooLarge ? CloseCode.TooBig : CloseCode.ProtocolError,
  );
}

/** Silence past the deadline: before CONNECT it is the wait for CONNECT that ran out, not a keep-alive. */
export function keepAliveExpired(session: SessionState): Outcome {
  const message =
    session.phase === "awaiting-connect"
      ? `no CONNECT within ${LIMITS.connectTimeoutMs / 1000} s`
      : "keep-alive timeout";
  return refuse(session, Reason.KeepAliveTimeout, message, CloseCode.Normal);
}

export function takenOver(session: SessionState): Outcome {
  return refuse(session, Reason.SessionTakenOver, "another connection took this client id", CloseCode.Normal);
}

const closeFor = (reason: number, message: string, code: number = CloseCode.ProtocolError): Close => ({
  reason,
  message,
  code,
});

/** An MQTT 5 client that completed CONNECT hears why in a DISCONNECT; others are just closed. */
function refuse(session: SessionState, reason: number, message: string, code: number): Outcome {
  const tellsWhy = session.phase === "connected" && session.version === 5;
  return {
    send: tellsWhy ? [{ type: "disconnect", reasonCode: reason, properties: { reasonString: message } }] : [],
    close: closeFor(reason, message, code),
  };
}

/** CONNACK codes of 3.1.1 for the MQTT 5 reasons a CONNECT can be refused with. */
const V4_CONNACK: Record<number, number> = {
  [Reason.ClientIdentifierNotValid]: 0x02,
  [Reason.BadUserNameOrPassword]: 0x04,
  [Reason.NotAuthorized]: 0x05,
  [Reason.BadAuthenticationMethod]: 0x05,
};

function refuseConnect(version: ProtocolVersion, reason: number, message: string): Outcome {
  const connack: ConnackPacket =
    version === 5
      ? { type: "connack", sessionPresent: false, reasonCode: reason, properties: { reasonString: message } }
      : { type: "connack", sessionPresent: false, reasonCode: V4_CONNACK[reason] };
  return { send: [connack], close: closeFor(reason, message, CloseCode.PolicyViolation) };
}

async function connect(session: SessionState, packet: ConnectPacket, deps: PacketDeps): Promise<Outcome> {
  const v = packet.protocolVersion;
  const props = packet.properties ?? {};
  if (props.authenticationMethod !== undefined) {
    return refuseConnect(v, Reason.BadAuthenticationMethod, "enhanced authentication is not supported");
  }
  // A will is a message the client would publish through the broker, which clients may not do.
  if (packet.will) return refuseConnect(v, Reason.NotAuthorized, "wills are not supported: clients may not publish");
  if (packet.clientId.length > LIMITS.maxClientIdLength) {
    return refuseConnect(v, Reason.ClientIdentifierNotValid, `client id longer than ${LIMITS.maxClientIdLength}`);
  }
  // MQTT-3.1.3-8: an empty 3.1.1 client id needs a clean session.
  if (packet.clientId === "" && v === 4 && !packet.clean) {
    return refuseConnect(v, Reason.ClientIdentifierNotValid, "an empty client id needs a clean session");
  }
  if (packet.password !== undefined) {
    const token = new TextDecoder().decode(packet.password);
    if (!(await deps.verifyToken(token))) return refuseConnect(v, Reason.BadUserNameOrPassword, "invalid access token");
  }
  const assigned = packet.clientId === "" ? deps.newClientId() : undefined;
  const clientId = assigned ?? packet.clientId;
  session.phase = "connected";
  session.version = v;
  session.clientId = clientId;
  session.keepAlive = packet.keepAlive;
  session.window = Math.min(LIMITS.maxInflight, props.receiveMaximum ?? LIMITS.maxInflight);
  if (props.maximumPacketSize !== undefined) session.maxPacketSize = props.maximumPacketSize;
  // No session outlives its connection (topics are reloaded with the REST API on reconnect), so
  // the session is never present and MQTT 5 clients are told their expiry is 0.
  const connack: ConnackPacket =
    v === 5
      ? {
          type: "connack",
          sessionPresent: false,
          reasonCode: Reason.Success,
          properties: {
            maximumQoS: 1,
            retainAvailable: 0,
            maximumPacketSize: LIMITS.maxIncomingPacket,
            ...(props.sessionExpiryInterval ? { sessionExpiryInterval: 0 } : {}),
            ...(assigned ? { assignedClientIdentifier: assigned } : {}),
          },
        }
      : { type: "connack", sessionPresent: false, reasonCode: 0 };
  return { send: [connack], clientIdTaken: clientId };
}

/** The only failure code a 3.1.1 SUBACK has. */
const V4_SUBACK_FAILURE = 0x80;

async function subscribe(session: SessionState, packet: SubscribePacket, deps: PacketDeps): Promise<Outcome> {
  const v = session.version!;
  const ids = packet.properties?.subscriptionIdentifiers;
  const id = ids?.[0];
  const refused = v === 5 ? Reason.NotAuthorized : V4_SUBACK_FAILURE;
  const reasonCodes: number[] = [];
  for (const sub of packet.subscriptions) {
    if (!(await deps.maySubscribe(sub.topicFilter))) {
      reasonCodes.push(refused);
      continue;
    }
    const qos: 0 | 1 = sub.qos === 0 ? 0 : 1;
    const existing = session.subs.find((s) => s.topic === sub.topicFilter);
    if (!existing && session.subs.length >= LIMITS.maxSubscriptions) {
      reasonCodes.push(v === 5 ? Reason.QuotaExceeded : V4_SUBACK_FAILURE);
      continue;
    }
    // MQTT-3.8.4-3: a subscription to the same filter replaces the old one.
    const state: SubscriptionState = { topic: sub.topicFilter, qos, ...(id !== undefined ? { id } : {}) };
    if (existing) session.subs[session.subs.indexOf(existing)] = state;
    else session.subs.push(state);
    reasonCodes.push(qos);
  }
  return { send: [{ type: "suback", packetId: packet.packetId, reasonCodes }], resubscribed: true };
}

function unsubscribe(session: SessionState, packet: UnsubscribePacket): Outcome {
  const reasonCodes = packet.topicFilters.map((filter) => {
    const before = session.subs.length;
    session.subs = session.subs.filter((s) => s.topic !== filter);
    return session.subs.length < before ? Reason.Success : Reason.NoSubscriptionExisted;
  });
  const unsuback =
    session.version === 5
      ? { type: "unsuback" as const, packetId: packet.packetId, reasonCodes }
      : { type: "unsuback" as const, packetId: packet.packetId };
  return { send: [unsuback], resubscribed: true };
}

/** A PUBACK for an id not in flight (one from before a reconnect) is ignored, as MQTT allows. */
function acknowledge(session: SessionState, packetId: number): Outcome {
  const at = session.inflight.indexOf(packetId);
  if (at < 0) return { send: [] };
  session.inflight.splice(at, 1);
  return { send: [], windowFreed: true };
}

/**
 * The packet id of the next QoS 1 message, or null when the window is full. Ids cycle through
 * 1..65535 and skip those still awaiting PUBACK.
 */
export function takePacketId(session: SessionState): number | null {
  if (session.inflight.length >= session.window) return null;
  let id = session.nextPacketId;
  while (session.inflight.includes(id)) id = (id % 0xffff) + 1;
  session.nextPacketId = (id % 0xffff) + 1;
  session.inflight.push(id);
  return id;
}
