import { describe, expect, it } from "vitest";
import { editDistance, similarNames } from "../../../src/players/core/similar-names";

describe("edit distance", () => {
  it("counts insertions, deletions, substitutions and swaps of neighbours", () => {
    expect(editDistance("kill-enemy", "kill-enemy")).toBe(0);
    expect(editDistance("kil-enemy", "kill-enemy")).toBe(1);
    expect(editDistance("kill-enemyy", "kill-enemy")).toBe(1);
    expect(editDistance("kill-enemu", "kill-enemy")).toBe(1);
    expect(editDistance("kill-eneym", "kill-enemy")).toBe(1);
    expect(editDistance("kil-enem", "kill-enemy")).toBe(2);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("jump", "kill")).toBe(4);
  });

  it("stops past the maximum asked for, answering one more than it", () => {
    expect(editDistance("level-up", "kill-enemy", 2)).toBe(3);
    expect(editDistance("a", "abcdef", 2)).toBe(3);
    expect(editDistance("kil-enemy", "kill-enemy", 2)).toBe(1);
  });
});

describe("similar names", () => {
  const configured = ["kill-enemy", "collect-item", "achieve-score", "kill-enemies", "level-up"];

  it("suggests configured names within 2 edits, closest first, leaving the name itself out", () => {
    expect(similarNames("kil-enemy", configured)).toEqual(["kill-enemy"]);
    expect(similarNames("kill-enemie", configured)).toEqual(["kill-enemies", "kill-enemy"]);
    expect(similarNames("kill-enemy", configured)).toEqual([]);
    expect(similarNames("Kill-Enemy", configured)).toEqual(["kill-enemy"]);
    expect(similarNames("colect-itme", configured)).toEqual(["collect-item"]);
    expect(similarNames("jump", configured)).toEqual([]);
    expect(similarNames("kil-enemy", [])).toEqual([]);
  });

  it("orders equally close names by name, and takes another maximum", () => {
    expect(similarNames("cat", ["bat", "act", "hat", "cart"])).toEqual(["act", "bat", "cart", "hat"]);
    expect(similarNames("kil-enemy", configured, 0)).toEqual([]);
  });
});
