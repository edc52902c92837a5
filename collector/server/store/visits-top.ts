/**
 * The visits area's totals reads, their shapes and how the parts of one read add up: the first
 * labels of each list over the parts (each part's first labels and how many it has), the figures of
 * the asked labels, the summary. Plain data: the SQL is visits-totals-statement.ts's.
 */

/** A label's figures: `n` (page views, visits...) and `total` (time on page in ms for pages). */
export interface LabelTotal {
  n: number;
  total: number;
}

/**
 * The figures of a range summed over every label (the unlabelled rows that retention's collapse
 * leaves too, which no list shows): page views, time on page (ms), visitors (per day, summed),
 * visits and bounces.
 */
export interface Summary {
  views: number;
  time: number;
  visitors: number;
  visits: number;
  bounces: number;
}

/**
 * A totals read (`totals`): per metric the labels asked for, in order (the first: most first, ties
 * in code-point order), with their figures; `visits` and `visitors` under the label ''; and the
 * summary of every label.
 */
export type Totals = Map<string, Map<string, LabelTotal>> & { summary: Summary };

/** What a totals read answers per metric: its `top` first labels, or the figures of the given `labels` (metric → labels). */
export type Wanted = { top: number } | { labels: ReadonlyMap<string, readonly string[]> };

/** Labels of each list of the dashboard's overview (`totals` by default). */
export const TOP_LABELS = 20;

/** Most first, ties in code-point order: as SQLite and PostgreSQL's "C" collation compare text (their UTF-8 bytes). */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** What the statement(s) of a totals read answered. */
export interface Answer {
  labels: Map<string, Array<{ label: string; n: number; total: number }>>;
  summary: Summary;
  /** Filtered, counted from the rows: each day's page views (`views`) and visitors (`i`: its index in the days counted). */
  chart: Array<{ i: number; metric: string; n: number }>;
  /** The months of the filtered month totals read that were still marked built. */
  marked: number;
}

export const sumOf = (summaries: readonly Summary[]): Summary =>
  summaries.reduce(
    (a, b) => ({
      views: a.views + b.views,
      time: a.time + b.time,
      visitors: a.visitors + b.visitors,
      visits: a.visits + b.visits,
      bounces: a.bounces + b.bounces,
    }),
    { views: 0, time: 0, visitors: 0, visits: 0, bounces: 0 },
  );

/**
 * The `top` first labels of each metric over the parts of a read (each part's first labels, and
 * how many it has: `counts`), or null when those do not show them for certain. A label missing from
 * a part that has more than it answered has at most that part's last answered count there: the
 * labels taken must each be known in full, and no other label may reach the last of them.
 */
export function mergeTop(parts: ReadonlyArray<Answer & { counts: Map<string, number> }>, top: number): Answer['labels'] | null {
  const out: Answer['labels'] = new Map();
  for (const metric of new Set(parts.flatMap((p) => [...p.counts.keys()]))) {
    // the most a label not among a part's answered labels has in it (0: the part answered all of them)
    const cut = parts.map((p) => {
      const rows = p.labels.get(metric) ?? [];
      return (p.counts.get(metric) ?? 0) > rows.length ? Math.min(...rows.map((r) => r.n)) : 0;
    });
    const seen = new Map<string, { n: number; total: number; in: Set<number> }>();
    for (const [k, part] of parts.entries())
      for (const r of part.labels.get(metric) ?? []) {
        const s = seen.get(r.label) ?? { n: 0, total: 0, in: new Set<number>() };
        seen.set(r.label, { n: s.n + r.n, total: s.total + r.total, in: s.in.add(k) });
      }
    const most = (s: { n: number; in: Set<number> }) => s.n + cut.reduce((sum, c, k) => sum + (s.in.has(k) ? 0 : c), 0);
    const unseen = cut.reduce((a, b) => a + b, 0);
    const ranked = [...seen].sort(([a, x], [b, y]) => y.n - x.n || byCodePoint(a, b));
    const taken = ranked.slice(0, top);
    if (taken.some(([, s]) => most(s) !== s.n)) return null;
    const last = taken.at(-1);
    if (taken.length < top ? unseen > 0 : unseen >= last![1].n) return null;
    if (
      last &&
      ranked.slice(top).some(([label, s]) => most(s) > last[1].n || (most(s) === last[1].n && byCodePoint(label, last[0]) < 0))
    )
      return null;
    out.set(
      metric,
      taken.map(([label, s]) => ({ label, n: s.n, total: s.total })),
    );
  }
  return out;
}

/** The figures of the asked labels over the parts of a read: their sums. */
export function mergeLabels(parts: readonly Answer[]): Answer['labels'] {
  const sums = new Map<string, Map<string, { n: number; total: number }>>();
  for (const part of parts)
    for (const [metric, rows] of part.labels) {
      const labels = sums.get(metric) ?? new Map<string, { n: number; total: number }>();
      sums.set(metric, labels);
      for (const r of rows) {
        const s = labels.get(r.label) ?? { n: 0, total: 0 };
        labels.set(r.label, { n: s.n + r.n, total: s.total + r.total });
      }
    }
  return new Map([...sums].map(([metric, labels]) => [metric, [...labels].map(([label, s]) => ({ label, ...s }))]));
}

/** The Totals of an answer. */
export function totalsOf(answer: Answer): Totals {
  const out = new Map<string, Map<string, LabelTotal>>(
    [...answer.labels].map(([metric, rows]) => [metric, new Map(rows.map((r) => [r.label, { n: r.n, total: r.total }]))]),
  );
  out.set('visitors', new Map([['', { n: answer.summary.visitors, total: 0 }]]));
  out.set('visits', new Map([['', { n: answer.summary.visits, total: answer.summary.bounces }]]));
  return Object.assign(out, { summary: answer.summary });
}

/**
 * How many times a list's labels a part of a read counted in parts answers (mergeTop): enough that
 * the first labels over all the days are known for certain on most sites (at 2 times, one of the
 * bench's countries seen in one part could still pass the 20th, and the days were counted again).
 */
export const PART_TOP = 5;
