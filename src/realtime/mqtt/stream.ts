import { decodeVarint } from "./bytes";
import { MqttError, Reason, protocolError } from "./errors";
import { decodePacket } from "./decode";
import type { Packet, ProtocolVersion } from "./packets";

/**
 * Cuts a byte stream into packets. WebSocket frames and MQTT packets are independent: one frame
 * may carry several packets or a piece of one, so bytes are appended with `push` and whole packets
 * taken with `next`. The first packet must be a CONNECT, which fixes the protocol version for the
 * rest of the stream (a client decoding server packets passes the version it connected with).
 */
export class PacketStream {
  private buffer: Uint8Array = new Uint8Array(0);
  private version: ProtocolVersion | undefined;

  constructor(
    private readonly maxPacketSize: number,
    options: { version?: ProtocolVersion; pending?: Uint8Array } = {},
  ) {
    this.version = options.version;
    if (options.pending) this.buffer = new Uint8Array(options.pending);
  }

  get protocolVersion(): ProtocolVersion | undefined {
    return this.version;
  }

  /** Bytes received but not yet a whole packet. */
  get pending(): Uint8Array {
    return this.buffer;
  }

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    if (this.buffer.length === 0) {
      // A copy, and a plain Uint8Array even when given a Node Buffer (whose slice() is a view).
      this.buffer = new Uint8Array(chunk);
      return;
    }
    const joined = new Uint8Array(this.buffer.length + chunk.length);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.length);
    this.buffer = joined;
  }

  /**
   * The next whole packet, or null when more bytes are needed. A packet over the size limit is
   * refused as soon as its length is known, before its bytes arrive.
   */
  next(): Packet | null {
    if (this.buffer.length < 2) return null;
    const length = decodeVarint(this.buffer, 1);
    if (length === null) return null;
    const total = 1 + length.length + length.value;
    if (total > this.maxPacketSize) {
      throw new MqttError(Reason.PacketTooLarge, `Packet of ${total} bytes exceeds the limit of ${this.maxPacketSize}`);
    }
    if (this.buffer.length < total) return null;
    const firstByte = this.buffer[0];
    const body = this.buffer.subarray(1 + length.length, total);
    const isConnect = firstByte >> 4 === 1;
    if (this.version === undefined && !isConnect) throw protocolError("The first packet must be CONNECT");
    if (this.version !== undefined && isConnect) throw protocolError("A second CONNECT");
    const packet = decodePacket(firstByte, body, this.version ?? 4);
    this.buffer = this.buffer.slice(total);
    if (packet.type === "connect") this.version = packet.protocolVersion;
    return packet;
  }
}
