import { describe, expect, it } from "vitest";
import { chunkByJsonSize, chunkBySize } from "../../../src/events/core/chunks";

describe("chunkBySize", () => {
  it("keeps the order and at most maxItems per chunk", () => {
    expect(chunkBySize([1, 2, 3, 4, 5], 2, 1000)).toEqual([[1, 2], [3, 4], [5]]);
  });

  it("starts a new chunk before the size would exceed maxChars", () => {
    const items = ["aaaa", "bbbb", "cccc"]; // 6 characters of JSON each, plus a separator
    expect(chunkBySize(items, 100, 14)).toEqual([["aaaa", "bbbb"], ["cccc"]]);
  });

  it("gives an oversized item a chunk of its own", () => {
    expect(chunkBySize(["x".repeat(50), "y"], 100, 10)).toEqual([["x".repeat(50)], ["y"]]);
  });

  it("answers no chunk for no items", () => {
    expect(chunkBySize([], 10, 10)).toEqual([]);
  });
});

describe("chunkByJsonSize", () => {
  it("answers JSON arrays", () => {
    expect(chunkByJsonSize([{ a: 1 }, { a: 2 }], 1000)).toEqual(['[{"a":1},{"a":2}]']);
  });
});
