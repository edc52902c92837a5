import { dayTable, type Day } from './rollups';
import type { Reads, Sql } from './sql';
import { VISIT_DIMENSIONS, type FilterDimension, type VisitFilter } from './visits-totals';

/**
 * Filtered month totals (`stats_visits_by`): for each whole month of the site's calendar, and for
 * every single filter that month's rows give (each filter dimension with each of its values), the
 * figures the filtered read counts from the rows (visits-totals.ts countDays): page views and
 * time per page, visitors (per day, summed), visits and bounces, and the visits by each visit
 * dimension. A dashboard read with one filter (a click on a row) takes a whole month from here
 * instead of its rows; `stats_visits_by_built` lists the months whose filtered totals are complete.
 * Combinations of filters are counted from the rows. Built after the month's totals from the rows
 * still kept; a month is counted again when one of its days is (a late write) or when an erasure
 * took rows of it, and its filtered totals go with the visits' retention (see docs/collector.md).
 */

/** Rows written per statement, and statements per SQLite transaction (a few ms each: heartbeats go between). */
const ROWS_PER_INSERT = 200;
const INSERTS_PER_TX = 10;
/** Rows deleted per SQLite transaction. */
const DELETE_CHUNK = 2000;

/** One filtered total: filter dimension and value, metric and label, `n` and `total`. */
export type FilteredRow = readonly [string, string, string, string, number, number];

/** The visit dimensions and their SQL (read when counting: the two modules import each other). */
const dimensions = () => Object.entries(VISIT_DIMENSIONS) as Array<[FilterDimension, string]>;

/** The filtered totals of the whole month `days` (its days, in order), counted from the rows on the readers' side. */
export async function countFilteredMonth(reads: Reads, days: readonly Day[]): Promise<FilteredRow[]> {
  const d = dayTable(days);
  const [start, end] = d.span;
  const bounds = () => [start, end];
  // `mv`: the visits begun in the month or with page views in it (visits_last_view); `vf`: each one's
  // filter values (one row per visit dimension); `pm`: the month's page views with their day;
  // `af`: the filter values of the visits begun in the month, a page filter's being every page the
  // visit viewed (whenever: as the read's EXISTS asks it)
  const vf = dimensions()
    .map(
      ([dimension, label]) =>
        `SELECT v.id AS id, '${dimension}' AS dimension, ${label} AS value FROM mv v WHERE ${label} IS NOT NULL`,
    )
    .join(' UNION ALL ');
  const metrics = dimensions()
    .map(
      ([metric, label]) =>
        `SELECT f.dimension, f.value, '${metric}' AS metric, ${label} AS label, COUNT(*) AS n, 0 AS total
       FROM af f JOIN mv v ON v.id = f.id WHERE ${label} IS NOT NULL GROUP BY f.dimension, f.value, ${label}`,
    )
    .join(' UNION ALL ');
  const rows = await reads.all<{ dimension: string; value: string; metric: string; label: string; n: number; total: number }>(
    `WITH ${d.sql},
     mv AS MATERIALIZED (SELECT v.* FROM visits v WHERE v.last_view_at >= CAST(? AS BIGINT) AND +v.started_at < CAST(? AS BIGINT)),
     vf AS MATERIALIZED (${vf}),
     pm AS MATERIALIZED (
       SELECT d.i AS i, p.visit_id AS visit_id, p.session_id AS session_id, p.page AS page, p.last_at - p.at AS t
       FROM d CROSS JOIN page_views p WHERE p.at >= d.s AND p.at < d.e AND ${d.within('p.at')}
     ),
     af AS MATERIALIZED (
       SELECT f.id AS id, f.dimension AS dimension, f.value AS value FROM vf f JOIN mv v ON v.id = f.id
       WHERE v.started_at >= CAST(? AS BIGINT) AND v.started_at < CAST(? AS BIGINT)
       UNION ALL
       SELECT DISTINCT p.visit_id, 'page', p.page FROM mv v JOIN page_views p ON p.visit_id = v.id
       WHERE v.started_at >= CAST(? AS BIGINT) AND v.started_at < CAST(? AS BIGINT)
     )
     SELECT f.dimension, f.value, 'page' AS metric, pm.page AS label, COUNT(*) AS n, SUM(pm.t) AS total
     FROM pm JOIN vf f ON f.id = pm.visit_id GROUP BY f.dimension, f.value, pm.page
     UNION ALL
     SELECT dimension, value, 'visitors', '', SUM(n), 0 FROM (
       SELECT f.dimension AS dimension, f.value AS value, pm.i AS i, COUNT(DISTINCT pm.session_id) AS n
       FROM pm JOIN vf f ON f.id = pm.visit_id GROUP BY f.dimension, f.value, pm.i
     ) x GROUP BY dimension, value
     UNION ALL
     SELECT 'page', page, 'page', page, COUNT(*), SUM(t) FROM pm GROUP BY page
     UNION ALL
     SELECT 'page', page, 'visitors', '', SUM(n), 0 FROM (
       SELECT page, i, COUNT(DISTINCT session_id) AS n FROM pm GROUP BY page, i
     ) y GROUP BY page
     UNION ALL
     SELECT f.dimension, f.value, 'visits', '', COUNT(*), SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END)
     FROM af f JOIN mv v ON v.id = f.id GROUP BY f.dimension, f.value
     UNION ALL ${metrics}`,
    [...d.params, ...bounds(), ...bounds(), ...bounds(), ...bounds()],
  );
  return rows.map((r) => [r.dimension, r.value, r.metric, r.label, Number(r.n), Number(r.total)] as const);
}

/**
 * The sums of the filtered totals of `filter` (one filter) in those of `months` that have them, per
 * month, and which months those are (the marker and the rows in one statement: one snapshot).
 */
export async function readFilteredMonths(
  reads: Reads,
  filter: VisitFilter,
  months: readonly string[],
): Promise<{ months: Set<string>; rows: Array<{ month: string; metric: string; label: string; n: number; total: number }> }> {
  if (months.length === 0 || filter.length !== 1) return { months: new Set(), rows: [] };
  const list = months.map(() => '?').join(', ');
  const rows = await reads.all<{ month: string; metric: string | null; label: string | null; n: number; total: number }>(
    `SELECT b.month AS month, s.metric AS metric, s.label AS label, s.n AS n, s.total AS total
     FROM stats_visits_by_built b LEFT JOIN stats_visits_by s ON s.start_at = b.start_at AND s.dimension = ? AND s.value = ?
     WHERE b.month IN (${list})`,
    [filter[0]![0], filter[0]![1], ...months],
  );
  return {
    months: new Set(rows.map((r) => r.month)),
    rows: rows
      .filter((r) => r.metric !== null)
      .map((r) => ({ month: r.month, metric: r.metric!, label: r.label!, n: Number(r.n), total: Number(r.total) })),
  };
}

/** The months with filtered totals. */
export async function filteredMonths(reads: Reads): Promise<Set<string>> {
  return new Set((await reads.all<{ month: string }>('SELECT month FROM stats_visits_by_built')).map((r) => r.month));
}

/**
 * Replace the filtered totals of `month` by `rows`. The month's marker goes first (reads count it
 * from the rows meanwhile), then its old rows, the new ones and the marker. PostgreSQL: one
 * transaction under the totals' lock (other writers are not held by it); SQLite: in short
 * transactions of a few thousand rows, so heartbeats are answered between them.
 */
export async function keepFilteredMonth(sql: Sql, month: Day, rows: readonly FilteredRow[], builtAt: number): Promise<void> {
  const steps: Array<(tx: Sql) => Promise<number>> = [];
  steps.push((tx) => tx.run('DELETE FROM stats_visits_by_built WHERE month = ?', [month.day]));
  const insert = (tx: Sql, part: readonly FilteredRow[]) =>
    tx.run(
      `INSERT INTO stats_visits_by (start_at, dimension, value, metric, label, n, total)
       VALUES ${part.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      part.flatMap((r) => [month.start, ...r]),
    );
  const marker = (tx: Sql) =>
    tx.run('INSERT INTO stats_visits_by_built (month, start_at, end_at, built_at) VALUES (?, ?, ?, ?)', [
      month.day,
      month.start,
      month.end,
      builtAt,
    ]);
  if (sql.engine === 'postgres') {
    await sql.transaction(async (tx) => {
      for (const step of steps) await step(tx);
      await tx.run('DELETE FROM stats_visits_by WHERE start_at = ?', [month.start]);
      for (let i = 0; i < rows.length; i += ROWS_PER_INSERT * 5) await insert(tx, rows.slice(i, i + ROWS_PER_INSERT * 5));
      await marker(tx);
    }, 'stats');
    return;
  }
  const pause = () => new Promise((resolve) => setImmediate(resolve));
  await sql.transaction((tx) => steps[0]!(tx));
  for (;;) {
    const deleted = await sql.transaction((tx) =>
      tx.run(
        `DELETE FROM stats_visits_by WHERE rowid IN (SELECT rowid FROM stats_visits_by WHERE start_at = ? LIMIT ${DELETE_CHUNK})`,
        [month.start],
      ),
    );
    if (deleted < DELETE_CHUNK) break;
    await pause();
  }
  const perTx = ROWS_PER_INSERT * INSERTS_PER_TX;
  for (let i = 0; i < rows.length; i += perTx) {
    await sql.transaction(async (tx) => {
      const chunk = rows.slice(i, i + perTx);
      for (let j = 0; j < chunk.length; j += ROWS_PER_INSERT) await insert(tx, chunk.slice(j, j + ROWS_PER_INSERT));
    });
    await pause();
  }
  await sql.transaction(marker);
}
