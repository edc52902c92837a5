import type { Range } from './rollups';
import type { Sql } from './sql';
import { VISIT_DIMENSIONS, type VisitDimension, type VisitFilter } from './visits-dimensions';

/**
 * The SQL a count of the visits area's days from the stored rows is made of (visits-count-statement.ts
 * countSql): each engine's planner hints, the filter's conditions, the days' parts and buckets, the
 * grouping sets of the visit dimensions.
 */

/** A quarter of an hour: the grain a filtered read on SQLite places page views in days by (see countSql). */
export const SLOT_MS = 15 * 60 * 1000;

/**
 * SQLite's planner hints, which PostgreSQL's planner must not see. SQLite: a page view's page is the
 * one asked for as an expression, so that it does not build a throwaway index of every page view's
 * page for it (it did, without statistics: 15 s for 12 months at 1 M page views) but reads the
 * days' range of page_views_at (at, page); and a `+` keeps it off an index. On PostgreSQL both hid
 * the columns' statistics: it took the page views of a filtered month for one row and tested each
 * of their 3,054 against each of the month's 2,880 quarter hours (a nested loop: 0.53 s of a read
 * that takes 0.05 s with the plain columns).
 */
export type EngineName = Sql['engine'];
export const hintsOf = (engine: EngineName) =>
  engine === 'sqlite' ? { pageIs: "(p.page || '') = ?", plus: '+' } : { pageIs: 'p.page = ?', plus: '' };

/**
 * The fewest days of a part of a filtered read (countSql, answer): a read of fewer days than two parts'
 * is one statement. A part's own cost (its tables of days and quarter hours, a scan of its matching
 * visits per dimension) is a few ms.
 */
const PART_DAYS = 14;

/**
 * `indices` (consecutive days) in at most `threads` parts of at least PART_DAYS days each, of about
 * as many days (not rows: a site whose traffic doubled over a year has a heavier second half).
 */
export function partsOf(indices: readonly number[], threads: number): Array<readonly number[]> {
  const count = Math.max(1, Math.min(threads, Math.floor(indices.length / PART_DAYS)));
  const size = Math.ceil(indices.length / count);
  return Array.from({ length: count }, (_, k) => indices.slice(k * size, (k + 1) * size)).filter((part) => part.length > 0);
}

/** When the first visit kept began (by the index visits_started). */
export const FIRST_VISIT = 'SELECT MIN(started_at) AS at FROM visits';

const and = (conditions: string[]) => conditions.map((c) => ` AND ${c}`).join('');

/** The conditions of `filter`'s visit dimensions alone, on visits (`v`). */
function visitConditions(filter: VisitFilter) {
  const onVisits = filter.filter(([dimension]) => dimension !== 'page');
  return {
    sql: and(onVisits.map(([dimension]) => `${VISIT_DIMENSIONS[dimension as VisitDimension]} = ?`)),
    params: onVisits.map(([, value]) => value),
  };
}

/** The conditions of `filter` on visits (`v`) and on page views (`p`, joined to their visit `v` when `join`). */
export function filterSql(filter: VisitFilter, engine: EngineName) {
  const pages = filter.filter(([dimension]) => dimension === 'page').map(([, value]) => value);
  /** The visit dimensions' conditions alone (on `v`), and the page conditions alone (on `p`). */
  const visitsOnly = visitConditions(filter);
  const pagesOnly = { sql: and(pages.map(() => hintsOf(engine).pageIs)), params: pages };
  return {
    /** Page views: join their visit only when a visit dimension is filtered. */
    join: visitsOnly.params.length > 0 ? ' JOIN visits v ON v.id = p.visit_id' : '',
    pages: { sql: pagesOnly.sql + visitsOnly.sql, params: [...pagesOnly.params, ...visitsOnly.params] },
    onVisits: visitsOnly,
    onPages: pagesOnly,
    /** Visits: with a view of each filtered page, and of the filtered dimensions. */
    visits: {
      sql: and(pages.map(() => 'EXISTS (SELECT 1 FROM page_views fp WHERE fp.visit_id = v.id AND fp.page = ?)')) + visitsOnly.sql,
      params: [...pages, ...visitsOnly.params],
    },
  };
}

/**
 * For another area's rows of a session at a time (clicks): the condition that the session's visit
 * at that time (its latest visit begun at or before it, by visits_session) matches the visit
 * dimensions of `filter` (filterSql's own conditions); empty without any. The visits area owns
 * this SQL; the caller names its columns.
 */
export function inMatchingVisit(filter: VisitFilter, session: string, at: string): { sql: string; params: string[] } {
  const onVisits = visitConditions(filter);
  if (onVisits.params.length === 0) return { sql: '', params: [] };
  return {
    sql: ` AND EXISTS (SELECT 1 FROM visits v WHERE v.id = (SELECT v2.id FROM visits v2
       WHERE v2.session_id = ${session} AND v2.started_at <= ${at} ORDER BY v2.started_at DESC, v2.id DESC LIMIT 1)${onVisits.sql})`,
    params: onVisits.params,
  };
}

/**
 * PostgreSQL: the day a time falls in, by a search in the days' bounds (width_bucket) instead of a
 * join with the days: `sql(column)` is the day's index (`i`, as `d` has it), NULL outside every day.
 * A join with the days' quarter hours (`sm`, a table without statistics) was planned as a nested
 * loop whenever the planner guessed few visits (two visit dimensions: 1 row guessed, 5,352 read,
 * each tested against the month's 2,880 quarter hours: 1.4 s of a read of 30 days).
 */
export function dayBuckets(
  ranges: readonly Range[],
  indices: readonly number[],
): { sql: (column: string) => string; params: string[] } {
  const days = ranges.map((r, k) => ({ ...r, i: indices[k]! })).sort((a, b) => a.start - b.start);
  // bounds b1 < b2 < ...; width_bucket gives k for b(k) <= t < b(k+1), and the k-th entry of `map`
  // is that interval's day (NULL for a gap between days)
  const bounds: number[] = [];
  const map: Array<number | null> = [];
  for (const day of days) {
    const last = bounds.at(-1);
    if (last === undefined || last < day.start) {
      if (last !== undefined) map.push(null);
      bounds.push(day.start);
    }
    map.push(day.i);
    bounds.push(day.end);
  }
  const literal = (values: Array<number | null>) => `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;
  return {
    sql: (column) => `(CAST(? AS INTEGER[]))[width_bucket(${column}, CAST(? AS BIGINT[]))]`,
    params: [literal(map), literal(bounds)],
  };
}

/**
 * The matching visits (`fv`) by each visit dimension, summed over the days, in one statement of
 * grouping sets (PostgreSQL): one row per dimension and label, as countDays' per-dimension rows.
 */
export function groupedDimensions(): string {
  const dims = Object.entries(VISIT_DIMENSIONS);
  const which = (then: (k: number) => string) =>
    `CASE ${dims.map((_, k) => `WHEN GROUPING(l${k}) = 0 THEN ${then(k)}`).join(' ')} END`;
  return `SELECT 0 AS i, metric, label, n, 0 AS total FROM (
      SELECT ${which((k) => `'${dims[k]![0]}'`)} AS metric, ${which((k) => `l${k}`)} AS label, COUNT(*) AS n
      FROM (SELECT ${dims.map(([, label], k) => `${label} AS l${k}`).join(', ')} FROM fv v) x
      GROUP BY GROUPING SETS (${dims.map((_, k) => `(l${k})`).join(', ')})
    ) g WHERE label IS NOT NULL`;
}
