/** MQTT 5 reason codes the codec and the broker use (MQTT 5.0 section 2.4). */
export const Reason = {
  Success: 0x00,
  NoSubscriptionExisted: 0x11,
  UnspecifiedError: 0x80,
  MalformedPacket: 0x81,
  ProtocolError: 0x82,
  UnsupportedProtocolVersion: 0x84,
  ClientIdentifierNotValid: 0x85,
  BadUserNameOrPassword: 0x86,
  NotAuthorized: 0x87,
  BadAuthenticationMethod: 0x8c,
  KeepAliveTimeout: 0x8d,
  SessionTakenOver: 0x8e,
  PacketTooLarge: 0x95,
  QuotaExceeded: 0x97,
} as const;

/**
 * A packet that breaks the protocol. `reason` is the MQTT 5 reason code a server sends in its
 * DISCONNECT before closing: 0x81 malformed, 0x82 protocol error, 0x84 unsupported version,
 * 0x95 too large. Whatever the code, the connection that sent it is closed.
 */
export class MqttError extends Error {
  constructor(
    readonly reason: number,
    message: string,
  ) {
    super(message);
  }
}

export const malformed = (message: string) => new MqttError(Reason.MalformedPacket, message);
export const protocolError = (message: string) => new MqttError(Reason.ProtocolError, message);
