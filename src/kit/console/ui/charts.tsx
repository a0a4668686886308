import { layoutShares, layoutStackedBars, scaleTicks, type Point, type StackPoint } from "../core/charts";

const round = (n: number) => Math.round(n * 100) / 100;
const formatCount = (n: number) => n.toLocaleString("en-US");

const WIDTH = 600;
const HEIGHT = 120;

export interface Series {
  /** What one unit of the series is, in the plural: "new players". */
  label: string;
  /** The colour class (console.css): accent, good, warn, bad. */
  tone: string;
}

/**
 * A chart of stacked bars as inline SVG built on the server (no script, no library): a value axis
 * labelled with its unit, its scale from 0 to the top marked beside gridlines, the category axis
 * named under it, each bar's numbers on hover, and a table of the same numbers (for screen readers
 * and for copying). Without any value it says so, and what would fill it.
 */
export function StackedBarChart(props: {
  id: string;
  title: string;
  points: StackPoint[];
  series: Series[];
  /** The value axis: what the bars count, "players". */
  unit: string;
  /** The category axis: "UTC day". */
  axis: string;
  empty: string;
  /** What a bar's hover says; by default its label and each series' value. */
  describe?: (point: StackPoint) => string;
}) {
  const total = props.points.reduce((sum, p) => sum + p.values.reduce((s, v) => s + v, 0), 0);
  if (total === 0) {
    return (
      <figure class="chart" id={props.id}>
        <figcaption>{props.title}</figcaption>
        <p class="chart-empty">{props.empty}</p>
      </figure>
    );
  }
  const layout = layoutStackedBars(props.points, WIDTH, HEIGHT);
  const describe =
    props.describe ??
    ((p: StackPoint) =>
      `${p.label}: ${p.values.map((v, i) => `${formatCount(v)} ${props.series[i]?.label ?? props.unit}`).join(", ")}`);
  const ticks = scaleTicks(layout.scaleMax);
  const first = props.points[0]?.label ?? "";
  const last = props.points[props.points.length - 1]?.label ?? "";
  return (
    <figure class="chart" id={props.id}>
      <figcaption id={`${props.id}-title`}>
        {props.title} · {formatCount(total)} {props.unit} in total
      </figcaption>
      {props.series.length > 1 && (
        <ul class="legend chart-legend">
          {props.series.map((s) => (
            <li>
              <span class={`swatch tone-${s.tone}`} aria-hidden="true"></span>
              {s.label}
            </li>
          ))}
        </ul>
      )}
      <div class="chart-y-title" aria-hidden="true">
        {props.unit}
      </div>
      <div class="chart-frame">
        <div class="chart-y" aria-hidden="true">
          <div class="chart-ticks">
            {ticks.map((t) => (
              <span class="num">{formatCount(t)}</span>
            ))}
          </div>
        </div>
        {/* biome-ignore lint/a11y/noSvgWithoutTitle: labelled by the figure's caption through aria-labelledby */}
        <svg
          viewBox={`0 0 ${layout.width} ${layout.height}`}
          role="img"
          aria-labelledby={`${props.id}-title`}
          preserveAspectRatio="none"
        >
          {ticks.map((t) => (
            <line
              x1="0"
              y1={round(layout.height - (t / layout.scaleMax) * layout.height)}
              x2={layout.width}
              y2={round(layout.height - (t / layout.scaleMax) * layout.height)}
              class={t === 0 ? "axis" : "gridline"}
            />
          ))}
          {layout.bars.map((bar, i) => {
            const text = describe(props.points[i]);
            // A bar of nothing keeps one empty segment: the table and the hover list every point.
            return bar.segments.map((s, k) =>
              s.height > 0 || (k === 0 && bar.total === 0) ? (
                <rect
                  x={round(bar.x)}
                  y={round(s.y)}
                  width={round(bar.width)}
                  height={round(s.height)}
                  class={
                    props.series[k]?.tone && props.series[k].tone !== "accent"
                      ? `bar tone-${props.series[k].tone}`
                      : "bar"
                  }
                >
                  <title>{text}</title>
                </rect>
              ) : null,
            );
          })}
        </svg>
        <div class="chart-axis" aria-hidden="true">
          <span>{first}</span>
          <span class="chart-x-title">{props.axis}</span>
          <span>{last}</span>
        </div>
      </div>
      <details class="chart-data">
        <summary>The numbers as a table</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{props.axis}</th>
              {props.series.map((s) => (
                <th scope="col" class="num">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {props.points.map((p) => (
              <tr>
                <th scope="row">{p.label}</th>
                {p.values.map((v) => (
                  <td class="num">{formatCount(v)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}

/**
 * A bar chart of one series (see StackedBarChart); each bar names its label, value and unit on
 * hover.
 */
export function BarChart(props: {
  id: string;
  title: string;
  points: Point[];
  unit: string;
  axis: string;
  empty: string;
}) {
  return (
    <StackedBarChart
      id={props.id}
      title={props.title}
      points={props.points.map((p) => ({ label: p.label, values: [p.value] }))}
      series={[{ label: props.unit, tone: "accent" }]}
      unit={props.unit}
      axis={props.axis}
      empty={props.empty}
      describe={(p) => `${p.label}: ${formatCount(p.values[0])} ${props.unit}`}
    />
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
