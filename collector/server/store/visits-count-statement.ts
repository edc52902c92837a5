import { dayTable, type Range } from './rollups';
import { dayBuckets, filterSql, groupedDimensions, hintsOf, SLOT_MS, type EngineName } from './visits-count';
import { VISIT_DIMENSIONS, type VisitFilter } from './visits-dimensions';

/**
 * The statement that counts the visits area's days from the stored rows (countSql), put together
 * from the SQL of visits-count.ts: the builder's count of each day, and the count of a totals read
 * (visits-totals-read.ts), whose statement takes this one's body into its own.
 */

/**
 * The statement of countPart in two: `head`, its `WITH` list (the days, and filtered, the matching
 * visits and page views), and `body`, the counting query on those (each with its parameters), so
 * that the totals' read can take the body as one more entry of its own `WITH` list (readTotals).
 */
export function countSql(
  days: readonly Range[],
  indices: readonly number[],
  filter: VisitFilter,
  byDay: boolean,
  engine: EngineName,
) {
  const { plus } = hintsOf(engine);
  const kept = indices.map((i) => days[i]!);
  const d = dayTable(kept, indices);
  const f = filterSql(filter, engine);
  const filtered = filter.length > 0;
  // the days first, then each day's page views (visits) by the time index (CROSS JOIN: SQLite keeps
  // this order; without statistics it may otherwise read the rows and test each against every day)
  const pages = `d CROSS JOIN page_views p${f.join} WHERE p.at >= d.s AND p.at < d.e AND ${d.within('p.at')}${f.pages.sql}`;
  const range = `d CROSS JOIN visits v WHERE v.started_at >= d.s AND v.started_at < d.e AND ${d.within('v.started_at')}`;
  // filtered, on PostgreSQL: a visit or page view finds its day by a search in the days' bounds
  // (dayBuckets). A range join with the days let its planner test every matching visit of a year
  // against each of its 365 days (a nested loop over them all: 10.8 M tests, 2.2 s of 3 at 1 M
  // page views), and an equality join with their quarter hours (`sm`, below) one of 30 days (1.4 s).
  const searched = filtered && engine === 'postgres';
  const buckets = searched ? dayBuckets(kept, indices) : null;
  // filtered, on SQLite, the days on quarter hours (every time zone's midnight is on one): the
  // matching visits' page views find their day by an equality join with each day's quarter hours
  // (`sm`); the visits by each day's range of the time index (CROSS JOIN: the days first), which
  // SQLite plans well, and which was quicker for a small site (12 months page + browser at 10,000
  // page views: 90 ms cold and 51 warm, by quarter hour 104 and 61)
  const slots = filtered && engine === 'sqlite' && days.every((r) => r.start % SLOT_MS === 0 && r.end % SLOT_MS === 0);
  const byVisits = f.onVisits.params.length > 0 && (searched || slots);
  const quarterHours = slots && byVisits;
  // each day's quarter hours as its first one plus 0, 1, 2... (`q`: as many as the longest day has,
  // 100 in a day of 25 hours), made once: counting them up one by one in a recursive table was
  // most of a small site's read (12 months page + browser at 10,000 page views: 41 ms, now 24)
  const most = Math.max(...days.map((r) => Math.ceil((r.end - r.start) / SLOT_MS)));
  const withSlots = quarterHours
    ? `, q (k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM q WHERE k < ${most - 1}),
         sm (i, slot) AS MATERIALIZED (
           SELECT d.i, d.s / ${SLOT_MS} + q.k FROM d CROSS JOIN q WHERE (d.s / ${SLOT_MS} + q.k) * ${SLOT_MS} < d.e
         )`
    : '';
  // filtered: the matching visits once (a table of their own), not once per dimension
  // (each of its rows is of one of the days: no join with them)
  const visits = filtered ? 'fv v WHERE 1 = 1' : range;
  const withVisits = !filtered
    ? ''
    : buckets
      ? `, fv AS MATERIALIZED (
           SELECT * FROM (
             SELECT ${buckets.sql('v.started_at')} AS i, v.* FROM visits v WHERE ${d.within('v.started_at')}${f.visits.sql}
           ) x WHERE i IS NOT NULL
         )`
      : `, fv AS MATERIALIZED (SELECT d.i AS i, v.* FROM ${range}${f.visits.sql})`;
  // the visits' rows per day (the builder) or summed over the days (a read)
  const [day, perDay] = byDay ? ['d.i', 'd.i, '] : ['0', ''];
  const dimensions = Object.entries(VISIT_DIMENSIONS).map(
    ([metric, label]) =>
      `SELECT ${day} AS i, '${metric}' AS metric, ${label} AS label, COUNT(*) AS n, 0 AS total
       FROM ${visits} AND ${label} IS NOT NULL GROUP BY ${perDay}${label}`,
  );
  // filtered on PostgreSQL: the matching visits by every dimension in one pass (grouping sets),
  // not one scan of them per dimension (15: at 1 M page views, 12 months of page + country were
  // 81,000 matching visits, read 15 times from a table spilled to disk, about 0.45 s)
  const byDimension = filtered && engine === 'postgres' ? groupedDimensions() : dimensions.join(' UNION ALL ');
  // filtered: the matching page views once too, for the pages and the visitors. With a visit
  // dimension, from the matching visits (`pv`) by the page views' visit index, not a visit looked
  // up for each page view of the days: the visits begun in the span (`fv`; with a page filter too,
  // those with a view of the page, which hold all its views), and those begun before it that went
  // on into it (visits_last_view; the `+` keeps SQLite off the other index). Their page views find
  // their day as the visits do (PostgreSQL) or by the quarter hour they fall in (`sm`, SQLite).
  // CROSS JOIN: SQLite reads the matching visits' page views by the visit index; left to itself it
  // read every page view of the file against a Bloom filter of the visits (30 days page + browser at
  // 1 M page views: 0.3 s, now 0.05).
  const withPages = !filtered
    ? ''
    : byVisits
      ? `, pv AS MATERIALIZED (
           SELECT id FROM fv
           UNION ALL
           SELECT v.id FROM visits v
           WHERE v.last_view_at >= CAST(? AS BIGINT) AND ${plus}v.started_at < CAST(? AS BIGINT)${f.onVisits.sql}
         ),
         fp AS MATERIALIZED (${
           buckets
             ? `
           SELECT * FROM (
             SELECT ${buckets.sql('p.at')} AS i, p.page AS page, p.session_id AS session_id, p.last_at - p.at AS t
             FROM pv CROSS JOIN page_views p WHERE p.visit_id = pv.id AND ${d.within('p.at')}${f.onPages.sql}
           ) x WHERE i IS NOT NULL`
             : `
           SELECT sm.i AS i, p.page AS page, p.session_id AS session_id, p.last_at - p.at AS t
           FROM pv CROSS JOIN page_views p CROSS JOIN sm
           WHERE p.visit_id = pv.id AND sm.slot = p.at / ${SLOT_MS} AND ${d.within(`${plus}p.at`)}${f.onPages.sql}`
         }
         )`
      : `, fp AS MATERIALIZED (SELECT d.i AS i, p.page AS page, p.session_id AS session_id, p.last_at - p.at AS t FROM ${pages})`;
  const pagesParams = byVisits
    ? [d.span[0], d.span[0], ...f.onVisits.params, ...(buckets?.params ?? []), ...d.span, ...f.onPages.params]
    : [...d.span, ...f.pages.params];
  // filtered (always a read): each page's views summed over the days, and the day's views of every
  // page (`views`, for the chart) instead of a row per page and day
  const pageRows = filtered
    ? `SELECT 0 AS i, 'page' AS metric, page AS label, COUNT(*) AS n, SUM(t) AS total FROM fp GROUP BY page
       UNION ALL
       SELECT i, 'views', '', COUNT(*), 0 FROM fp GROUP BY i
       UNION ALL
       SELECT i, 'visitors', '', COUNT(DISTINCT session_id), 0 FROM fp GROUP BY i`
    : `SELECT d.i AS i, 'page' AS metric, p.page AS label, COUNT(*) AS n, SUM(p.last_at - p.at) AS total
       FROM ${pages} GROUP BY d.i, p.page
       UNION ALL
       SELECT d.i, 'visitors', '', COUNT(DISTINCT p.session_id), 0 FROM ${pages} GROUP BY d.i`;
  return {
    head: `WITH${quarterHours ? ' RECURSIVE' : ''} ${d.sql}${withSlots}${withVisits}${withPages}`,
    body: `${pageRows}
     UNION ALL
     SELECT ${day}, 'visits', '', COUNT(*), COALESCE(SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), 0)
     FROM ${visits}${byDay ? ' GROUP BY d.i' : ''}
     UNION ALL ${byDimension}`,
    // the span's bounds (and the filter's values) once per subquery: filtered, the two tables made
    // once (all of them in `head`); else two on page views, then one per subquery on visits
    headParams: filtered ? [...d.params, ...(buckets?.params ?? []), ...d.span, ...f.visits.params, ...pagesParams] : d.params,
    bodyParams: filtered ? [] : Array.from({ length: 3 + dimensions.length }, () => d.span).flat(),
    filtered,
  };
}
