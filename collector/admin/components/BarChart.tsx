/** Chart geometry in SVG units; the SVG scales to its box, so these are proportions. */
const WIDTH = 720;
const HEIGHT = 220;
const PAD = { top: 24, right: 8, bottom: 34, left: 52 };
/** Horizontal guide lines (and their labels) at these fractions of the largest value. */
const GRID = [0, 0.5, 1];

/**
 * A bar chart of values per hour, day or month as SVG. Hand-written: 30 bars need no library (a chart library
 * would add 50 to 150 KB to the admin app and usually inline styles the CSP forbids). The SVG is
 * decoration for sighted users (aria-hidden); the same values are in the table the caller renders.
 */
export function BarChart({
  values,
  labels,
  caption,
  short = (label) => label,
  long = (label) => label,
  format = String,
  previous,
  legend,
}: {
  values: number[];
  labels: string[];
  caption: string;
  /** The axis text of a label (the full label is in each bar's title and in the table). */
  short?: (label: string) => string;
  /** A label in full, for each bar's title. */
  long?: (label: string) => string;
  /** A value as text in the admin's language (1.504). */
  format?: (value: number) => string;
  /** The previous period's values, bar for bar: drawn as a mark across each bar's slot. */
  previous?: number[];
  /** A visible line under the chart saying what bars and marks are. */
  legend?: string;
}) {
  const most = Math.max(1, ...values, ...(previous ?? []));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const step = plotW / Math.max(1, values.length);
  const barW = Math.max(2, step * 0.7);
  // about five axis labels, counted back from the newest bar: more would overlap on a phone
  const every = values.length <= 7 ? 1 : Math.ceil(values.length / 5);
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
        {GRID.map((f) => {
          const y = PAD.top + plotH * (1 - f);
          return (
            <g key={f} className="grid">
              <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y} y2={y} />
              {/* only whole numbers: a count of 1 has no half-way label */}
              {Number.isInteger(most * f) && (
                <text x={PAD.left - 6} y={y + 4} textAnchor="end">
                  {format(most * f)}
                </text>
              )}
            </g>
          );
        })}
        {values.map((v, i) => {
          const h = (v / most) * plotH;
          const x = PAD.left + i * step + (step - barW) / 2;
          return (
            <rect key={i} className="bar" x={x} y={PAD.top + plotH - h} width={barW} height={h}>
              <title>{`${long(labels[i]!)}: ${format(v)}`}</title>
            </rect>
          );
        })}
        {previous?.map((v, i) => {
          // a zero would sit on the axis line: the table has it
          if (v === 0) return null;
          const y = PAD.top + plotH - (v / most) * plotH;
          const x = PAD.left + i * step + (step - barW) / 2;
          return <line key={i} className="prev-mark" x1={x - 2} x2={x + barW + 2} y1={y} y2={y} />;
        })}
        {labels.map((label, i) =>
          (labels.length - 1 - i) % every === 0 ? (
            // the last (today's) label ends at its bar, so it is not cut at the edge
            <text
              key={i}
              className="axis"
              x={PAD.left + i * step + step / 2 + (i === labels.length - 1 ? step / 2 : 0)}
              y={HEIGHT - 10}
              textAnchor={i === labels.length - 1 ? 'end' : 'middle'}
            >
              {short(label)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>{caption}</figcaption>
      {legend && (
        <p className="legend" aria-hidden="true">
          {legend}
        </p>
      )}
    </figure>
  );
}
