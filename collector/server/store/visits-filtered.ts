import { deleteInChunks } from './retention';
import { dayTable, type Day } from './rollups';
import type { Reads, Sql } from './sql';
import { boundedTotals } from './totals-timeout';
import { VISIT_DIMENSIONS, type FilterDimension, type VisitFilter } from './visits-dimensions';

/**
 * Filtered month totals (`stats_visits_by`): for each whole month of the site's calendar, and for
 * every single filter that month's rows give (each filter dimension with each of its values), the
 * figures the filtered read counts from the rows (visits-row-counts.ts countDays): page views and
 * time per page, visitors (per day, summed), visits and bounces, and the visits by each visit
 * dimension. A dashboard read with one filter (a click on a row) takes a whole month from here
 * instead of its rows; `stats_visits_by_built` lists the months whose filtered totals are complete.
 * Combinations of filters are counted from the rows. Built after the month's totals from the rows
 * still kept; a month is counted again when one of its days is (a late write) or when an erasure
 * took rows of it, and its filtered totals go with the visits' retention (see docs/collector.md).
 */

/** Rows written per statement, and statements per SQLite transaction (a few ms each: heartbeats go between). */
const ROWS_PER_INSERT = 100;
const INSERTS_PER_TX = 5;
/** Rows deleted per SQLite transaction. */
const DELETE_CHUNK = 500;

/** The primary key of `stats_visits_by` (a table without rowid on SQLite): what names a row. */
export const FILTERED_KEY = 'start_at, dimension, value, metric, label';

/**
 * One filtered total: filter dimension and value, metric and label, `n` and `total` (as the driver
 * gives them: PostgreSQL's sums of BIGINT come as text). Kept as read: converting a month's 200,000
 * rows held the collector's thread for tens of ms.
 */
export interface FilteredRow {
  readonly dimension: string;
  readonly value: string;
  readonly metric: string;
  readonly label: string;
  readonly n: number | string;
  readonly total: number | string;
}

/** The visit dimensions and their SQL. */
const dimensions = () => Object.entries(VISIT_DIMENSIONS) as Array<[FilterDimension, string]>;

/**
 * The statements that count the filtered totals of the whole month `days` (its days, in order) from
 * the rows, one per filter dimension, each answering rows of `FilteredRow`'s columns; all take `params`.
 */
function filteredStatements(days: readonly Day[]): { statements: string[]; params: number[] } {
  const d = dayTable(days);
  const span = d.span;
  const dims = dimensions();
  // `mv`: the visits begun in the month or with page views in it (visits_last_view), with the label of
  // each dimension (`l0`, `l1`...); `pm`: the month's page views with their day
  const labels = dims.map(([, label], i) => `${label} AS l${i}`).join(', ');
  const common = `${d.sql},
     mv AS MATERIALIZED (
       SELECT v.id AS id, v.started_at AS started_at, v.views AS views, ${labels} FROM visits v
       WHERE v.last_view_at >= CAST(? AS BIGINT) AND +v.started_at < CAST(? AS BIGINT)
     ),
     pm AS MATERIALIZED (
       SELECT d.i AS i, p.visit_id AS visit_id, p.session_id AS session_id, p.page AS page, p.last_at - p.at AS t
       FROM d CROSS JOIN page_views p WHERE p.at >= d.s AND p.at < d.e AND ${d.within('p.at')}
     )`;
  const params = [...d.params, ...span, ...span, ...span];
  const begun = 'v.started_at >= CAST(? AS BIGINT) AND v.started_at < CAST(? AS BIGINT)';
  // the visits begun in the month by the filter's value (`fv` in `f`, beside each of the visit's labels)
  const visitRows = (dimension: string) =>
    `SELECT '${dimension}', fv, 'visits', '', COUNT(*), SUM(CASE WHEN views = 1 THEN 1 ELSE 0 END) FROM f GROUP BY fv
     UNION ALL ${dims
       .map(
         ([metric], i) =>
           `SELECT '${dimension}', fv, '${metric}', l${i}, COUNT(*), 0 FROM f WHERE l${i} IS NOT NULL GROUP BY fv, l${i}`,
       )
       .join(' UNION ALL ')}`;
  const statements = dims.map(
    ([dimension], k) =>
      // a visit dimension: the page views of the visits with the value, and the visits begun in the month with it
      `WITH ${common},
       pf AS MATERIALIZED (SELECT pm.*, v.l${k} AS fv FROM pm CROSS JOIN mv v WHERE v.id = pm.visit_id AND v.l${k} IS NOT NULL),
       f AS MATERIALIZED (SELECT v.*, v.l${k} AS fv FROM mv v WHERE v.l${k} IS NOT NULL AND ${begun})
       SELECT '${dimension}' AS dimension, fv AS value, 'page' AS metric, page AS label, COUNT(*) AS n, SUM(t) AS total
       FROM pf GROUP BY fv, page
       UNION ALL
       SELECT '${dimension}', fv, 'visitors', '', SUM(n), 0 FROM (
         SELECT fv, i, COUNT(DISTINCT session_id) AS n FROM pf GROUP BY fv, i
       ) x GROUP BY fv
       UNION ALL ${visitRows(dimension)}`,
  );
  // a page: its page views, and the visits begun in the month with a view of it (whenever, as the read's EXISTS asks)
  statements.push(
    `WITH ${common},
     f AS MATERIALIZED (SELECT DISTINCT v.*, p.page AS fv FROM mv v CROSS JOIN page_views p WHERE p.visit_id = v.id AND ${begun})
     SELECT 'page' AS dimension, page AS value, 'page' AS metric, page AS label, COUNT(*) AS n, SUM(t) AS total
     FROM pm GROUP BY page
     UNION ALL
     SELECT 'page', page, 'visitors', '', SUM(n), 0 FROM (
       SELECT page, i, COUNT(DISTINCT session_id) AS n FROM pm GROUP BY page, i
     ) y GROUP BY page
     UNION ALL ${visitRows('page')}`,
  );
  return { statements, params };
}

/**
 * SQLite: the filtered totals of the whole month `days` (its days, in order), counted from the rows on
 * the readers' side, one statement per filter dimension (about a second each at 1 M page views a
 * year, so that the dashboard's reads on the same side get in between). PostgreSQL counts and keeps
 * them in the database server instead (keepFilteredMonthInServer).
 */
export async function countFilteredMonth(reads: Reads, days: readonly Day[]): Promise<FilteredRow[]> {
  const { statements, params } = filteredStatements(days);
  // one statement at a time (the readers' side runs them so anyway), joined once at the end
  const answers: FilteredRow[][] = [];
  for (const statement of statements) answers.push(await reads.all<FilteredRow>(statement, params));
  return answers.flat();
}

/**
 * Which of `months` have filtered totals of `filter` (one filter), and each one's page views and
 * visitors (`perMonth`, the chart's figures). The figures by metric and label are summed and ranked
 * by the totals' read itself (visits-totals-read.ts), with the other sources of its days, so that only
 * the top labels reach the collector's thread.
 */
export async function readFilteredMonths(
  reads: Reads,
  filter: VisitFilter,
  months: readonly string[],
): Promise<{ months: Set<string>; perMonth: Array<{ month: string; views: number; visitors: number }> }> {
  if (months.length === 0 || filter.length !== 1) return { months: new Set(), perMonth: [] };
  const list = months.map(() => '?').join(', ');
  const kept = await reads.all<{ month: string; n: number | null; total: number | null }>(
    `SELECT b.month AS month,
       SUM(CASE WHEN s.metric = 'page' THEN s.n ELSE 0 END) AS n, SUM(CASE WHEN s.metric = 'visitors' THEN s.n ELSE 0 END) AS total
     FROM stats_visits_by_built b LEFT JOIN stats_visits_by s ON s.start_at = b.start_at AND s.dimension = ? AND s.value = ?
       AND s.metric IN ('page', 'visitors')
     WHERE b.month IN (${list}) GROUP BY b.month`,
    [filter[0]![0], filter[0]![1], ...months],
  );
  return {
    months: new Set(kept.map((r) => r.month)),
    perMonth: kept.map((r) => ({ month: r.month, views: Number(r.n ?? 0), visitors: Number(r.total ?? 0) })),
  };
}

/** The months with filtered totals. */
export async function filteredMonths(reads: Reads): Promise<Set<string>> {
  return new Set((await reads.all<{ month: string }>('SELECT month FROM stats_visits_by_built')).map((r) => r.month));
}

/** The month's marker out (reads count the month from the rows meanwhile), and back in. */
const unmarkMonth = (tx: Sql, month: Day) => tx.run('DELETE FROM stats_visits_by_built WHERE month = ?', [month.day]);
const markMonth = (tx: Sql, month: Day, builtAt: number) =>
  tx.run('INSERT INTO stats_visits_by_built (month, start_at, end_at, built_at) VALUES (?, ?, ?, ?)', [
    month.day,
    month.start,
    month.end,
    builtAt,
  ]);

/**
 * PostgreSQL: count the filtered totals of the whole month `days` and replace the month's with them
 * in the database server (an `INSERT ... SELECT` per filter dimension, in one transaction under the
 * totals' lock, the marker out first and back in last), so that none of their rows crosses to the
 * collector. Counted on the readers' side and written back 500 rows a statement (as SQLite does),
 * a month of 10,000 distinct pages a day was 450,000 rows parsed on the collector's thread and 900
 * statements built there (3 s of that thread and 1 s of garbage collection per build): the
 * heartbeats due meanwhile waited behind it (BENCHMARKS.md, "Heartbeats during the day-totals build
 * on PostgreSQL"). The counts now run on the writers' connection of the build, beside the readers'
 * one, each bounded to `timeoutMs` as a reader's is (totals-timeout.ts: past it, nothing is kept).
 */
export async function keepFilteredMonthInServer(
  sql: Sql,
  month: Day,
  days: readonly Day[],
  builtAt: number,
  timeoutMs: number,
): Promise<void> {
  const { statements, params } = filteredStatements(days);
  await boundedTotals(sql, timeoutMs, `the filtered month totals of ${month.day}`, async (tx) => {
    await unmarkMonth(tx, month);
    await tx.run('DELETE FROM stats_visits_by WHERE start_at = ?', [month.start]);
    for (const statement of statements)
      await tx.run(
        `INSERT INTO stats_visits_by (start_at, dimension, value, metric, label, n, total)
         SELECT CAST(? AS BIGINT), dimension, value, metric, label, n, total FROM (${statement}) counted`,
        [month.start, ...params],
      );
    await markMonth(tx, month, builtAt);
  });
}

/**
 * SQLite: replace the filtered totals of `month` by `rows`. The month's marker goes first (reads
 * count it from the rows meanwhile), then its old rows, the new ones and the marker, in short
 * transactions of a few thousand rows, so heartbeats are answered between them.
 */
export async function keepFilteredMonth(sql: Sql, month: Day, rows: readonly FilteredRow[], builtAt: number): Promise<void> {
  const unmark = (tx: Sql) => unmarkMonth(tx, month);
  const insert = (tx: Sql, part: readonly FilteredRow[]) =>
    tx.run(
      `INSERT INTO stats_visits_by (start_at, dimension, value, metric, label, n, total)
       VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      part.flatMap((r) => [month.start, r.dimension, r.value, r.metric, r.label, r.n, r.total]),
    );
  const marker = (tx: Sql) => markMonth(tx, month, builtAt);
  const perTx = ROWS_PER_INSERT * INSERTS_PER_TX;
  const pause = () => new Promise((resolve) => setImmediate(resolve));
  await sql.transaction(unmark);
  await deleteInChunks(
    sql,
    { table: 'stats_visits_by', where: 'start_at = ?', params: [month.start], key: FILTERED_KEY },
    DELETE_CHUNK,
  );
  for (let i = 0; i < rows.length; i += perTx) {
    await sql.transaction(async (tx) => {
      const chunk = rows.slice(i, i + perTx);
      for (let j = 0; j < chunk.length; j += ROWS_PER_INSERT) await insert(tx, chunk.slice(j, j + ROWS_PER_INSERT));
    });
    await pause();
  }
  await sql.transaction(marker);
}
