import type { Migration } from './migrate';
import { typed } from './migrate';
import type { Reads, Sql } from './sql';

/**
 * Day totals ("rollups"): for each day of the site's calendar that has ended, each data area keeps
 * its figures of that day in a `stats_*` table (counts per page, source, category, selector: nothing
 * per visitor), so that a dashboard of 12 months reads a few hundred rows per day instead of every
 * page view. `stats_built` lists the days whose totals are complete (in the time zone `zone`);
 * everything else (today, a day not built yet) is counted from the stored rows. A write that lands
 * on a day already built (a page view still open at midnight, a visit going on past it) leaves its
 * time in `stats_dirty`, and the builder counts that day again.
 */

/** One day of the site's calendar: `YYYY-MM-DD` and its half-open range of times (23, 24 or 25 hours). */
export interface Day {
  day: string;
  start: number;
  end: number;
}

/** A half-open range of times, in ms since the epoch. */
export interface Range {
  start: number;
  end: number;
}

export const ROLLUP_MIGRATIONS: readonly Migration[] = [
  {
    version: 4,
    name: 'day totals: built days, late writes',
    sql: typed(`
      CREATE TABLE stats_built (
        day TEXT PRIMARY KEY,
        zone TEXT NOT NULL,
        start_at \${TIME} NOT NULL,
        end_at \${TIME} NOT NULL,
        built_at \${TIME} NOT NULL
      );
      CREATE TABLE stats_dirty (id \${ID}, at \${TIME} NOT NULL, noted_at \${TIME} NOT NULL);
      CREATE INDEX stats_dirty_at ON stats_dirty (at);
    `),
  },
  {
    version: 10,
    name: 'day totals: how far their address labels are gone',
    // per table (`stats_visits`, `stats_clicks`): the first day (or month) that retention's collapse
    // of address labels still looks at; everything before it has none (retention.ts CollapseStep)
    sql: () => 'CREATE TABLE stats_unlabelled (tbl TEXT PRIMARY KEY, through TEXT NOT NULL);',
  },
];

/**
 * The days among `days` whose totals are built, and the others, to be counted from the stored rows.
 * The `stats_*` tables hold rows only for built days. The builder goes from the earliest stored row
 * on, day by day, so a day before the first built one holds nothing: it is in neither list (a
 * period of 12 months before the site's first visitor costs nothing).
 */
export async function builtDays(reads: Reads, days: readonly Day[]): Promise<{ built: Day[]; raw: Day[] }> {
  if (days.length === 0) return { built: [], raw: [] };
  const [rows, first] = await Promise.all([
    reads.all<{ day: string }>('SELECT day FROM stats_built WHERE day >= ? AND day <= ?', [
      days[0]!.day,
      days[days.length - 1]!.day,
    ]),
    reads.get<{ day: string | null }>('SELECT MIN(day) AS day FROM stats_built'),
  ]);
  const done = new Set(rows.map((r) => r.day));
  const from = first?.day ?? null;
  return {
    built: days.filter((d) => done.has(d.day)),
    raw: days.filter((d) => !done.has(d.day) && (from === null || d.day > from)),
  };
}

/** The days of a month `YYYY-MM`. */
const daysInMonth = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate();

/**
 * How to read `days` (consecutive days of the site's calendar): the whole months among them that
 * have month totals (`stats_built` holds `YYYY-MM` for those, the `stats_*` tables rows with that
 * `day`), the other built days, and the days to count from the rows. A period of 12 months then
 * reads eleven months and the days of this one.
 */
export async function coverage(reads: Reads, days: readonly Day[]): Promise<{ months: string[]; days: Day[]; raw: Day[] }> {
  const { built, raw } = await builtDays(reads, days);
  const perMonth = new Map<string, number>();
  for (const d of built) perMonth.set(d.day.slice(0, 7), (perMonth.get(d.day.slice(0, 7)) ?? 0) + 1);
  const whole = [...perMonth].filter(([month, n]) => n === daysInMonth(month)).map(([month]) => month);
  let months: string[] = [];
  if (whole.length > 0) {
    const markers = await reads.all<{ day: string }>(
      `SELECT day FROM stats_built WHERE day IN (${whole.map(() => '?').join(', ')})`,
      whole,
    );
    months = markers.map((m) => m.day).sort();
  }
  const inMonths = new Set(months);
  return { months, days: built.filter((d) => !inMonths.has(d.day.slice(0, 7))), raw };
}

/**
 * The condition that selects the rows of `months` and `days` in a `stats_*` table (column `day`),
 * and its parameters: `day IN (months)` or one range per run of consecutive days.
 */
export function coveredRows(months: readonly string[], days: readonly Day[]): { sql: string; params: string[] } {
  const runs: Array<[string, string]> = [];
  for (const [i, d] of days.entries()) {
    const previous = days[i - 1];
    if (previous && d.start === previous.end) runs[runs.length - 1]![1] = d.day;
    else runs.push([d.day, d.day]);
  }
  const parts = [
    ...(months.length ? [`day IN (${months.map(() => '?').join(', ')})`] : []),
    ...runs.map(() => '(day >= ? AND day <= ? AND length(day) = 10)'),
  ];
  return { sql: parts.length ? `(${parts.join(' OR ')})` : '1 = 0', params: [...months, ...runs.flat()] };
}

/**
 * The times whose days have no totals: from the end of the last built day on (the builder builds
 * days in order, so what comes before it has day totals, minus the days with nothing stored), and
 * the days between built ones (a day the builder is writing again: it is unmarked meanwhile,
 * totals-slices.ts). As ranges, the last without an end.
 */
export async function unbuiltRanges(reads: Reads): Promise<Array<{ start: number; end: number | null }>> {
  const built = await reads.all<{ start_at: number; end_at: number }>(
    'SELECT start_at, end_at FROM stats_built WHERE length(day) = 10 ORDER BY start_at',
  );
  const ranges: Array<{ start: number; end: number | null }> = [];
  for (const [i, day] of built.entries()) {
    const next = built[i + 1];
    if (next && Number(next.start_at) > Number(day.end_at))
      ranges.push({ start: Number(day.end_at), end: Number(next.start_at) });
  }
  ranges.push({ start: built.length ? Number(built[built.length - 1]!.end_at) : Number.MIN_SAFE_INTEGER, end: null });
  return ranges;
}

/**
 * noteLate as a part of one statement (a data-modifying `WITH` entry): notes the `column` of the
 * rows of `rows` (another entry of the same statement); parameters: the time noted, and the start of
 * the site's today (only a time before it is noted).
 */
export const noteLateOf = (rows: string, column: string): string =>
  `INSERT INTO stats_dirty (at, noted_at) SELECT ${rows}.${column}, CAST(? AS BIGINT) FROM ${rows}
   WHERE ${rows}.${column} < ? AND NOT EXISTS (SELECT 1 FROM stats_dirty WHERE stats_dirty.at = ${rows}.${column})`;

/** Note a write at `at` on a day that may be built already (the builder counts it again). */
export async function noteLate(tx: Sql, at: number, now: number): Promise<void> {
  // once per row until the builder took it: a page view open past midnight is noted once, not per beat
  await tx.run(
    'INSERT INTO stats_dirty (at, noted_at) SELECT CAST(? AS BIGINT), CAST(? AS BIGINT) WHERE NOT EXISTS (SELECT 1 FROM stats_dirty WHERE at = ?)',
    [at, now, at],
  );
}

/**
 * The days as a table of parameters `d (i, s, e)` for a `WITH` clause (typed: PostgreSQL cannot guess
 * a VALUES column's type), and its parameters. `within(column)` is a condition on the span of all the
 * ranges (its two parameters `span`, to be given once per use, in the order of the text): a join on
 * `d` alone leaves PostgreSQL no estimate of how many rows fall in the ranges, and for more than one
 * range it scans the whole table (a million page views for the rest of this month's days), where
 * the span's bounds let it read the rows of the span from the index.
 */
export function dayTable(
  ranges: readonly Range[],
  /** Each range's `i` (when the ranges are some of a longer list, their places in it); else 0, 1, 2... */
  indices?: readonly number[],
): {
  sql: string;
  params: number[];
  within: (column: string) => string;
  span: [number, number];
} {
  const values = ranges.map(() => '(CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS BIGINT))').join(', ');
  return {
    sql: `d (i, s, e) AS (VALUES ${values})`,
    params: ranges.flatMap((r, i) => [indices?.[i] ?? i, r.start, r.end]),
    within: (column) => `${column} >= CAST(? AS BIGINT) AND ${column} < CAST(? AS BIGINT)`,
    span: [ranges.reduce((m, r) => Math.min(m, r.start), Infinity), ranges.reduce((m, r) => Math.max(m, r.end), -Infinity)],
  };
}

/**
 * What each index of a dayTable (or of its hours') stands for, as a table `name (i, day, k)` for a
 * `WITH` clause, and its parameters: each row's index, its day (`YYYY-MM-DD`) and a number (an end,
 * an hour). PostgreSQL's builder names the days of its `INSERT ... SELECT`s' rows by it.
 */
export function indexTable(
  name: string,
  rows: ReadonlyArray<readonly [number, string, number]>,
): { sql: string; params: unknown[] } {
  const values = rows.map(() => '(CAST(? AS INTEGER), CAST(? AS TEXT), CAST(? AS BIGINT))').join(', ');
  return { sql: `${name} (i, day, k) AS (VALUES ${values})`, params: rows.flat() };
}
