/** Limits of one Queue.sendBatch call: 100 messages and 256 KB (a little kept back for overhead). */
export const MAX_BATCH_MESSAGES = 100;
export const MAX_BATCH_BYTES = 250 * 1024;

/** Splits items into sendBatch-sized chunks, keeping their order. */
export function chunkForSendBatch<T>(items: T[], bytesOf: (item: T) => number, maxCount = MAX_BATCH_MESSAGES, maxBytes = MAX_BATCH_BYTES): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
