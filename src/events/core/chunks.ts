/**
 * Splits items, in order, into chunks of at most `maxItems` items whose JSON sizes add up to at
 * most `maxChars`; an item larger than `maxChars` on its own gets a chunk of its own.
 */
export function chunkBySize<T>(items: T[], maxItems: number, maxChars: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length + 1;
    if (current.length > 0 && (current.length >= maxItems || chars + size > maxChars)) {
      chunks.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** The items as JSON arrays of at most about `maxChars` characters each. */
export const chunkByJsonSize = <T>(items: T[], maxChars: number): string[] =>
  chunkBySize(items, Number.POSITIVE_INFINITY, maxChars).map((chunk) => JSON.stringify(chunk));
