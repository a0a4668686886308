import { malformed } from "./errors";

/** Largest value of a Variable Byte Integer (four bytes of seven bits). */
export const MAX_VARINT = 268_435_455;

// ignoreBOM keeps a leading U+FEFF, which MQTT forbids stripping (MQTT-1.5.4-3).
const utf8Decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

/**
 * Reads the data types of MQTT (section 1.5) from one packet's bytes. Every read past the end is
 * a malformed packet, so a truncated string or a length that lies is never read as garbage.
 */
export class ByteReader {
  private pos: number;

  constructor(
    private readonly bytes: Uint8Array,
    start = 0,
    private readonly end = bytes.length,
  ) {
    this.pos = start;
  }

  get remaining(): number {
    return this.end - this.pos;
  }

  private take(count: number, what: string): number {
    if (count > this.remaining) throw malformed(`Truncated ${what}`);
    const at = this.pos;
    this.pos += count;
    return at;
  }

  u8(what = "byte"): number {
    return this.bytes[this.take(1, what)];
  }

  u16(what = "two-byte integer"): number {
    const at = this.take(2, what);
    return (this.bytes[at] << 8) | this.bytes[at + 1];
  }

  u32(what = "four-byte integer"): number {
    const at = this.take(4, what);
    return ((this.bytes[at] << 24) >>> 0) + (this.bytes[at + 1] << 16) + (this.bytes[at + 2] << 8) + this.bytes[at + 3];
  }

  varint(what = "variable byte integer"): number {
    const result = decodeVarint(this.bytes, this.pos, this.end);
    if (result === null) throw malformed(`Truncated ${what}`);
    this.pos += result.length;
    return result.value;
  }

  binary(what = "binary data"): Uint8Array {
    const length = this.u16(`length of ${what}`);
    const at = this.take(length, what);
    return this.bytes.slice(at, at + length);
  }

  utf8(what = "string"): string {
    const length = this.u16(`length of ${what}`);
    const at = this.take(length, what);
    return decodeUtf8(this.bytes.subarray(at, at + length), what);
  }

  rest(): Uint8Array {
    const at = this.take(this.remaining, "payload");
    return this.bytes.slice(at, this.end);
  }

  /** Moves on to a bounded section (a property list): reads inside it cannot spill past its end. */
  section(length: number, what: string): ByteReader {
    const at = this.take(length, what);
    return new ByteReader(this.bytes, at, at + length);
  }

  expectEnd(what: string): void {
    if (this.remaining !== 0) throw malformed(`${this.remaining} unexpected bytes at the end of ${what}`);
  }
}

/**
 * A Variable Byte Integer at `start`, or null when the bytes end before it does. More than four
 * bytes, or a longer encoding than necessary (MQTT-1.5.5-1), is malformed.
 */
export function decodeVarint(
  bytes: Uint8Array,
  start: number,
  end = bytes.length,
): { value: number; length: number } | null {
  let value = 0;
  let multiplier = 1;
  for (let i = 0; i < 4; i++) {
    if (start + i >= end) return null;
    const byte = bytes[start + i];
    value += (byte & 0x7f) * multiplier;
    if ((byte & 0x80) === 0) {
      if (i > 0 && byte === 0) throw malformed("Variable byte integer is not minimally encoded");
      return { value, length: i + 1 };
    }
    multiplier *= 128;
  }
  throw malformed("Variable byte integer longer than four bytes");
}

/** MQTT strings are well-formed UTF-8 without U+0000 (MQTT-1.5.4-1, MQTT-1.5.4-2). */
export function decodeUtf8(bytes: Uint8Array, what = "string"): string {
  let text: string;
  try {
    text = utf8Decoder.decode(bytes);
  } catch {
    throw malformed(`Invalid UTF-8 in ${what}`);
  }
  if (text.includes("\u0000")) throw malformed(`Null character in ${what}`);
  return text;
}

export const encodeUtf8 = (text: string) => utf8Encoder.encode(text);

/** Collects the bytes of one packet; sizes are checked so that nothing is silently truncated. */
export class ByteWriter {
  private chunks: number[] = [];
  private parts: Uint8Array[] = [];
  private size = 0;

  get length(): number {
    return this.size;
  }

  private flush() {
    if (this.chunks.length === 0) return;
    this.parts.push(Uint8Array.from(this.chunks));
    this.chunks = [];
  }

  u8(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xff) throw new RangeError(`Byte out of range: ${value}`);
    this.chunks.push(value);
    this.size += 1;
    return this;
  }

  u16(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffff)
      throw new RangeError(`Two-byte integer out of range: ${value}`);
    this.chunks.push(value >> 8, value & 0xff);
    this.size += 2;
    return this;
  }

  u32(value: number): this {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
      throw new RangeError(`Four-byte integer out of range: ${value}`);
    this.chunks.push((value >>> 24) & 0xff, (value >>> 16) & 0xff, (value >>> 8) & 0xff, value & 0xff);
    this.size += 4;
    return this;
  }

  varint(value: number): this {
    for (const byte of encodeVarint(value)) this.chunks.push(byte);
    this.size += varintLength(value);
    return this;
  }

  bytes(data: Uint8Array): this {
    this.flush();
    this.parts.push(data);
    this.size += data.length;
    return this;
  }

  binary(data: Uint8Array): this {
    return this.u16(data.length).bytes(data);
  }

  utf8(text: string): this {
    const data = encodeUtf8(text);
    if (data.length > 0xffff) throw new RangeError("String longer than 65535 bytes");
    return this.binary(data);
  }

  toBytes(): Uint8Array {
    this.flush();
    if (this.parts.length === 1) return this.parts[0];
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const part of this.parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

export function encodeVarint(value: number): number[] {
  if (!Number.isInteger(value) || value < 0 || value > MAX_VARINT)
    throw new RangeError(`Variable byte integer out of range: ${value}`);
  const out: number[] = [];
  do {
    let byte = value % 128;
    value = Math.floor(value / 128);
    if (value > 0) byte |= 0x80;
    out.push(byte);
  } while (value > 0);
  return out;
}

export const varintLength = (value: number) => (value < 128 ? 1 : value < 16_384 ? 2 : value < 2_097_152 ? 3 : 4);
