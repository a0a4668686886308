import { describe, expect, it } from "vitest";
import { chunkBy, chunkByJsonSize, jsonBytes } from "../../../src/shared/chunks";

describe("chunkBy", () => {
  it("keeps the order and at most maxItems per chunk", () => {
    const chunks = chunkBy(
      Array.from({ length: 250 }, (_, i) => i),
      () => 10,
      100,
      1e9,
    );
    expect(chunks.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(chunks.flat()).toEqual(Array.from({ length: 250 }, (_, i) => i));
  });

  it("starts a new chunk before the size would exceed maxSize", () => {
    expect(chunkBy(["a", "b", "c", "d", "e"], () => 100, 100, 250)).toEqual([["a", "b"], ["c", "d"], ["e"]]);
  });

  it("gives an oversized item a chunk of its own", () => {
    expect(chunkBy(["x".repeat(50), "y"], jsonBytes, 100, 10)).toEqual([["x".repeat(50)], ["y"]]);
  });

  it("answers no chunk for no items", () => {
    expect(chunkBy([], () => 1, 10, 10)).toEqual([]);
  });
});

describe("chunkByJsonSize", () => {
  it("answers JSON arrays within the byte limit, counting UTF-8 bytes", () => {
    expect(chunkByJsonSize([{ a: 1 }, { a: 2 }], 1000)).toEqual(['[{"a":1},{"a":2}]']);
    // "ü" is 2 bytes: each item is 5 bytes of JSON plus a separator.
    expect(chunkByJsonSize(["üü", "üü"], 10)).toEqual(['["üü"]', '["üü"]']);
  });
});
