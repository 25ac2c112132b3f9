export interface Bar {
  label: string;
  value: number | null;
  /** A second series beside the first (e.g. p95 beside p50). */
  value2?: number | null;
}

const W = 300;
const H = 100;
const PAD = 14;

/**
 * A bar per day, drawn by SVG attributes only (the console's policy refuses style attributes), no
 * chart library: a few hundred bytes instead of tens of kilobytes. The figure's caption says what
 * it shows and its latest value; the numbers themselves are in the table below the charts, which
 * is what a screen reader reads (the drawing is hidden from it).
 */
export function BarChart(props: {
  title: string;
  summary: string;
  bars: Bar[];
  /** A dashed line across (e.g. the daily budget), drawn when it is within the chart's scale. */
  limit?: number;
  format: (v: number) => string;
  /** A fixed top of the scale (100 for shares); otherwise the largest value's. */
  max?: number;
}) {
  const values = props.bars.flatMap((b) => [b.value ?? 0, b.value2 ?? 0]);
  const max = props.max ?? Math.max(1, ...values) * 1.1;
  const scaleMax = props.limit !== undefined && props.limit <= max * 2 ? Math.max(max, props.limit * 1.05) : max;
  const y = (v: number) => H - PAD - (v / scaleMax) * (H - PAD * 2);
  const slot = (W - PAD) / Math.max(1, props.bars.length);
  const two = props.bars.some((b) => b.value2 !== undefined);
  const barW = Math.max(1, slot * (two ? 0.38 : 0.7));
  const every = Math.ceil(props.bars.length / 7);
  return (
    <figure class="chart">
      <figcaption>
        {props.title} <span class="latest">{props.summary}</span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} aria-hidden="true" preserveAspectRatio="none">
        <line class="axis" x1={PAD} x2={W} y1={H - PAD} y2={H - PAD} />
        <text x="0" y={PAD}>
          {props.format(scaleMax)}
        </text>
        {props.bars.map((b, i) => {
          const x = PAD + i * slot + slot * 0.1;
          return (
            <g key={b.label}>
              {b.value !== null && (
                <rect class="series" x={x} y={y(b.value)} width={barW} height={H - PAD - y(b.value)} />
              )}
              {two && b.value2 !== null && b.value2 !== undefined && (
                <rect class="series2" x={x + barW} y={y(b.value2)} width={barW} height={H - PAD - y(b.value2)} />
              )}
              {i % every === 0 && (
                <text x={x} y={H - 2}>
                  {b.label.slice(5)}
                </text>
              )}
            </g>
          );
        })}
        {props.limit !== undefined && props.limit <= scaleMax && (
          <line class="limit" x1={PAD} x2={W} y1={y(props.limit)} y2={y(props.limit)} />
        )}
      </svg>
    </figure>
  );
}
