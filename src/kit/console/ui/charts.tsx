import { layoutBars, layoutShares, type Point } from "../core/charts";

const round = (n: number) => Math.round(n * 100) / 100;
const formatCount = (n: number) => n.toLocaleString("en-US");

/**
 * A bar chart as inline SVG (no script, no library); each bar names its label and value on hover.
 * Without any value it says so, and what would fill it.
 */
export function BarChart(props: { id: string; title: string; points: Point[]; unit: string; empty: string }) {
  const layout = layoutBars(props.points, 600, 120);
  const total = props.points.reduce((sum, p) => sum + p.value, 0);
  if (total === 0) {
    return (
      <figure class="chart">
        <figcaption>{props.title}</figcaption>
        <p class="chart-empty">{props.empty}</p>
      </figure>
    );
  }
  const first = props.points[0]?.label ?? "";
  const last = props.points[props.points.length - 1]?.label ?? "";
  return (
    <figure class="chart">
      <figcaption id={`${props.id}-title`}>
        {props.title} · {formatCount(total)} in total
      </figcaption>
      <svg
        viewBox={`0 -8 ${layout.width} ${layout.height + 8}`}
        role="img"
        aria-labelledby={`${props.id}-title`}
        preserveAspectRatio="none"
      >
        <line x1="0" y1={layout.height} x2={layout.width} y2={layout.height} class="axis" />
        <line x1="0" y1="0" x2={layout.width} y2="0" class="gridline" />
        {layout.bars.map((bar) => (
          <rect x={round(bar.x)} y={round(bar.y)} width={round(bar.width)} height={round(bar.height)} class="bar">
            <title>{`${bar.label}: ${formatCount(bar.value)} ${props.unit}`}</title>
          </rect>
        ))}
      </svg>
      <div class="chart-axis">
        <span>{first}</span>
        <span class="muted">max {formatCount(layout.scaleMax)}</span>
        <span>{last}</span>
      </div>
    </figure>
  );
}

/** Parts of a whole side by side in one bar, with a legend that gives the numbers. */
export function ShareBar(props: { title: string; parts: (Point & { tone: string })[] }) {
  const segments = layoutShares(props.parts, 600);
  const tones = new Map(props.parts.map((p) => [p.label, p.tone]));
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <svg
        viewBox="0 0 600 16"
        role="img"
        aria-label={props.parts.map((p) => `${p.label}: ${p.value}`).join(", ")}
        preserveAspectRatio="none"
      >
        <rect x="0" y="0" width="600" height="16" class="track" />
        {segments.map((s) => (
          <rect x={round(s.x)} y="0" width={round(s.width)} height="16" class={`share tone-${tones.get(s.label)}`}>
            <title>{`${s.label}: ${formatCount(s.value)}`}</title>
          </rect>
        ))}
      </svg>
      <ul class="legend">
        {props.parts.map((p) => (
          <li>
            <span class={`swatch tone-${p.tone}`} aria-hidden="true"></span>
            {p.label} <strong class="num">{formatCount(p.value)}</strong>
          </li>
        ))}
      </ul>
    </figure>
  );
}
