import { describe, expect, it } from "vitest";
import { layoutStackedBars, scaleTicks } from "../../../src/kit/console/core/charts";

describe("stacked bar charts", () => {
  it("stacks each point's values bottom up on a readable scale, a value above zero never invisible", () => {
    const layout = layoutStackedBars(
      [
        { label: "a", values: [0, 5] },
        { label: "b", values: [2, 0] },
        { label: "c", values: [0, 0] },
        { label: "d", values: [1, 0.01] },
      ],
      400,
      100,
      2,
    );
    expect(layout.scaleMax).toBe(5);
    expect(layout.bars.map((b) => [b.x, b.width, b.total])).toEqual([
      [1, 98, 5],
      [101, 98, 2],
      [201, 98, 0],
      [301, 98, 1.01],
    ]);
    expect(layout.bars.map((b) => b.segments)).toEqual([
      [
        { y: 100, height: 0 },
        { y: 0, height: 100 },
      ],
      [
        { y: 60, height: 40 },
        { y: 60, height: 0 },
      ],
      [
        { y: 100, height: 0 },
        { y: 100, height: 0 },
      ],
      [
        { y: 80, height: 20 },
        { y: 79, height: 1 },
      ],
    ]);
  });

  it("marks the scale at its top, its middle when a whole number, and 0", () => {
    expect(scaleTicks(10)).toEqual([10, 5, 0]);
    expect(scaleTicks(5)).toEqual([5, 0]);
    expect(scaleTicks(1)).toEqual([1, 0]);
    expect(scaleTicks(200)).toEqual([200, 100, 0]);
  });
});
