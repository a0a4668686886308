/** Geometry of the small bar charts the console draws as inline SVG on the server. */

export interface Point {
  label: string;
  value: number;
}

export interface Bar extends Point {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface BarChartLayout {
  width: number;
  height: number;
  bars: Bar[];
  /** The value the full height stands for: the largest value, rounded up to a readable number. */
  scaleMax: number;
}

/** 1, 2 or 5 times a power of ten, at least `value`: an axis maximum people read at a glance. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return [1, 2, 5, 10].map((step) => step * magnitude).find((candidate) => candidate >= value)!;
}

/** Bars side by side across `width`, bottom-aligned in `height`; a value above zero is never invisible. */
export function layoutBars(points: readonly Point[], width: number, height: number, gap = 2): BarChartLayout {
  const scaleMax = niceCeiling(Math.max(0, ...points.map((p) => p.value)));
  const slot = points.length > 0 ? width / points.length : width;
  const barWidth = Math.max(1, slot - gap);
  const bars = points.map((p, i) => {
    const barHeight = p.value <= 0 ? 0 : Math.max(1, (p.value / scaleMax) * height);
    return { ...p, x: i * slot + gap / 2, y: height - barHeight, width: barWidth, height: barHeight };
  });
  return { width, height, bars, scaleMax };
}

/** Shares of a whole as consecutive segments of `width` (a stacked bar). */
export function layoutShares(parts: readonly Point[], width: number): (Point & { x: number; width: number })[] {
  const total = parts.reduce((sum, p) => sum + Math.max(0, p.value), 0);
  let x = 0;
  return parts.map((p) => {
    const w = total === 0 ? 0 : (Math.max(0, p.value) / total) * width;
    const segment = { ...p, x, width: w };
    x += w;
    return segment;
  });
}

export interface StackPoint {
  label: string;
  /** One value per series, stacked bottom up in the series' order. */
  values: number[];
}

export interface StackedBar {
  label: string;
  values: number[];
  total: number;
  x: number;
  width: number;
  /** One segment per series, bottom up; a segment of a value above zero is never invisible. */
  segments: { y: number; height: number }[];
}

/** Stacked bars side by side across `width`, bottom-aligned in `height`, on a scale read at a glance. */
export function layoutStackedBars(
  points: readonly StackPoint[],
  width: number,
  height: number,
  gap = 2,
): { width: number; height: number; bars: StackedBar[]; scaleMax: number } {
  const totals = points.map((p) => p.values.reduce((sum, v) => sum + Math.max(0, v), 0));
  const scaleMax = niceCeiling(Math.max(0, ...totals));
  const slot = points.length > 0 ? width / points.length : width;
  const barWidth = Math.max(1, slot - gap);
  const bars = points.map((p, i) => {
    let top = height;
    const segments = p.values.map((v) => {
      const h = v <= 0 ? 0 : Math.max(1, (v / scaleMax) * height);
      top -= h;
      return { y: top, height: h };
    });
    return { label: p.label, values: p.values, total: totals[i], x: i * slot + gap / 2, width: barWidth, segments };
  });
  return { width, height, bars, scaleMax };
}

/** The labels of a value axis from 0 to `scaleMax`: top, middle (when a whole number) and bottom. */
export function scaleTicks(scaleMax: number): number[] {
  const middle = scaleMax / 2;
  return Number.isInteger(middle) ? [scaleMax, middle, 0] : [scaleMax, 0];
}
