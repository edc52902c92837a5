import { dayTable, indexTable, type Day, type Range } from './rollups';
import type { Reads, Sql } from './sql';
import { FIRST_VISIT, filterSql, type EngineName } from './visits-count';
import { countSql } from './visits-count-statement';
import type { VisitFilter } from './visits-dimensions';

/**
 * The visits area's figures counted from the stored rows on the readers' side (visits-totals.ts):
 * which days may hold rows at all, the builder's count of days, and the page views and visitors of
 * the chart's days and of a day's hours.
 */

/** The counts from the stored rows on an open database (its readers' side, and which engine it is). */
export function rowCounts(reads: Reads, engine: EngineName) {
  /**
   * Raw totals of the days (page views, visitors, visits) per day index: what a built day keeps (the
   * builder). A read takes countSql's statement into its own (readTotals): there the visits and
   * their breakdowns come summed over the days, on day index 0 (per day, a filtered month was 20,000
   * to 30,000 rows to add up), and filtered, the days in parts when there is more than one reader thread.
   */
  async function countDays(
    days: readonly Range[],
  ): Promise<Array<{ i: number; metric: string; label: string; n: number; total: number }>> {
    const indices = await countable(days);
    return indices.length === 0 ? [] : countPart(days, indices, [], true);
  }

  /** countDays of the days at `indices` of `days` (each row's `i` is its day's index in `days`). */
  function countPart(
    days: readonly Range[],
    indices: readonly number[],
    filter: VisitFilter,
    byDay: boolean,
  ): Promise<Array<{ i: number; metric: string; label: string; n: number; total: number }>> {
    const count = countSql(days, indices, filter, byDay, engine);
    return reads.all(`${count.head}\n       ${count.body}`, [...count.headParams, ...count.bodyParams]);
  }

  /** The indices of those of `days` that may hold rows: none that ends before the first visit began. */
  async function countable(days: readonly Range[]): Promise<number[]> {
    // (a year's days of a site younger than that, or a previous period before its first visitor:
    // 35,000 quarter hours of a filtered year made for nothing, 40 ms at 10,000 page views)
    if (days.length === 0) return [];
    const first = (await reads.get<{ at: number | null }>(FIRST_VISIT))?.at ?? null;
    return first === null ? [] : days.flatMap((r, i) => (r.end > Number(first) ? [i] : []));
  }

  /** Page views and visitors of each of `raw` (days counted from the rows), unfiltered. */
  async function chartOf(raw: readonly Range[]): Promise<Array<{ i: number; views: number; visitors: number }>> {
    const indices = await countable(raw);
    if (indices.length === 0) return [];
    const d = dayTable(
      indices.map((i) => raw[i]!),
      indices,
    );
    return reads.all(
      `WITH ${d.sql} SELECT d.i AS i, COUNT(*) AS views, COUNT(DISTINCT p.session_id) AS visitors
       FROM d CROSS JOIN page_views p WHERE p.at >= d.s AND p.at < d.e AND ${d.within('p.at')} GROUP BY d.i`,
      [...d.params, ...d.span],
    );
  }

  /** Page views and visitors per hour of a day, counted from the stored rows. */
  async function countHours(
    hours: readonly Range[],
    filter: VisitFilter = [],
  ): Promise<Array<{ views: number; visitors: number }>> {
    if (hours.length === 0) return [];
    const count = hoursSql(hours, filter, engine);
    const rows = await reads.all<{ i: number; views: number; visitors: number }>(`${count.head} ${count.body}`, [
      ...count.headParams,
      ...count.bodyParams,
    ]);
    const byIndex = new Map(rows.map((r) => [r.i, r]));
    return hours.map((_, i) => ({ views: byIndex.get(i)?.views ?? 0, visitors: byIndex.get(i)?.visitors ?? 0 }));
  }

  return { countable, countDays, chartOf, countHours };
}

/**
 * countHours' statement (`hours` not empty): its `WITH` list and its query (a row per hour with page
 * views: `i` its index in `hours`, `views`, `visitors`), each with its parameters.
 */
function hoursSql(hours: readonly Range[], filter: VisitFilter, engine: EngineName) {
  const d = dayTable(hours);
  const f = filterSql(filter, engine);
  return {
    head: `WITH ${d.sql}`,
    body: `SELECT d.i AS i, COUNT(*) AS views, COUNT(DISTINCT p.session_id) AS visitors
       FROM d JOIN page_views p ON p.at >= d.s AND p.at < d.e${f.join} WHERE ${d.within('p.at')}${f.pages.sql} GROUP BY d.i`,
    headParams: d.params,
    bodyParams: [...d.span, ...f.pages.params],
  };
}

/**
 * PostgreSQL, inside the builder's transaction: count the totals of `days` (`hoursOf`: a day's hours)
 * from the stored rows and insert them into `stats_visits` in the database server, the rows
 * countDays and countHours give (the visits area's countForTotals), none of them crossing to the
 * collector. Read back and written 200 a statement, a day of 10,000 distinct pages was 30,000 rows
 * parsed and turned into statements on the collector's thread, the heartbeats due meanwhile waiting
 * behind it.
 */
export async function keepDaysInServer(tx: Sql, days: readonly Day[], hoursOf: (day: Day) => Range[]): Promise<void> {
  if (days.length === 0) return;
  const into = 'INSERT INTO stats_visits (day, metric, label, n, total)';
  // countDays' rows, of the days that may hold rows (countable: those that end after the first visit began)
  const count = countSql(
    days,
    days.map((_, i) => i),
    [],
    true,
    'postgres',
  );
  const named = indexTable(
    'n',
    days.map((day, i) => [i, day.day, day.end]),
  );
  await tx.run(
    `${count.head}, ${named.sql}
     ${into} SELECT n.day, c.metric, c.label, c.n, COALESCE(c.total, 0) FROM (${count.body}) c JOIN n ON n.i = c.i
     WHERE n.k > (${FIRST_VISIT})`,
    [...count.headParams, ...named.params, ...count.bodyParams],
  );
  // the hours with page views: labelled by the hour's index in its day, `n` its page views, `total` its visitors
  const hours = days.flatMap((day) => hoursOf(day).map((range, hour) => ({ range, day: day.day, hour })));
  if (hours.length === 0) return;
  const perHour = hoursSql(
    hours.map((h) => h.range),
    [],
    'postgres',
  );
  const hourNamed = indexTable(
    'm',
    hours.map((h, i) => [i, h.day, h.hour]),
  );
  await tx.run(
    `${perHour.head}, ${hourNamed.sql}
     ${into} SELECT m.day, 'hour', CAST(m.k AS TEXT), h.views, h.visitors FROM (${perHour.body}) h JOIN m ON m.i = h.i`,
    [...perHour.headParams, ...hourNamed.params, ...perHour.bodyParams],
  );
}
