/**
 * Splits items, in order, into chunks of at most `maxItems` items whose sizes add up to at most
 * `maxSize`; an item larger than `maxSize` on its own gets a chunk of its own.
 */
export function chunkBy<T>(items: T[], sizeOf: (item: T) => number, maxItems: number, maxSize: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let size = 0;
  for (const item of items) {
    const itemSize = sizeOf(item);
    if (current.length > 0 && (current.length >= maxItems || size + itemSize > maxSize)) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(item);
    size += itemSize;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

const encoder = new TextEncoder();
/** UTF-8 bytes of an item's JSON, plus one for the separator between items. */
export const jsonBytes = (item: unknown) => encoder.encode(JSON.stringify(item)).length + 1;

/** The items as JSON arrays of at most about `maxBytes` bytes each (D1 binds them as one parameter). */
export const chunkByJsonSize = <T>(items: T[], maxBytes: number): string[] =>
  chunkBy(items, jsonBytes, Number.POSITIVE_INFINITY, maxBytes).map((chunk) => JSON.stringify(chunk));

/** Limits of one Queue.sendBatch call: 100 messages and 256 KB (some kept back for overhead). */
export const SEND_BATCH_MESSAGES = 100;
export const SEND_BATCH_BYTES = 250 * 1024;

/** Sends bodies, in order, in as few sendBatch calls as the queue's limits allow. */
export async function sendAll<T>(queue: Queue<T>, bodies: T[]): Promise<void> {
  if (bodies.length === 0) return;
  // The common case, a few small bodies, without measuring each: a UTF-16 unit is at most 3 bytes of UTF-8.
  const fitsOneBatch = bodies.length <= SEND_BATCH_MESSAGES && JSON.stringify(bodies).length * 3 <= SEND_BATCH_BYTES;
  const chunks = fitsOneBatch ? [bodies] : chunkBy(bodies, jsonBytes, SEND_BATCH_MESSAGES, SEND_BATCH_BYTES);
  for (const chunk of chunks) {
    await queue.sendBatch(chunk.map((body) => ({ body, contentType: "json" as const })));
  }
}
