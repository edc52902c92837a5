import { builtDays, coverage, coveredRows, dayTable, type Day, type Range } from './rollups';
import type { Reads, Sql } from './sql';
import { VISIT_DIMENSIONS, type VisitDimension, type VisitFilter } from './visits-dimensions';
import { readFilteredMonths } from './visits-filtered';

/**
 * The visits area's day totals (`stats_visits`): per day of the site's calendar, per metric and
 * label, `n` and `total`. Metrics: `page` (page views of a page, and their time on page in ms),
 * `visitors` (sessions with a page view that day), `visits` (visits begun that day, and how many
 * were bounces), the visits by each of VISIT_DIMENSIONS, and `hour` (page views and visitors per
 * hour of the day). Read from the totals where a day is built, counted from the rows for the rest.
 */

export { SCREEN_CLASSES, VISIT_DIMENSIONS } from './visits-dimensions';
export type { FilterDimension, VisitDimension, VisitFilter } from './visits-dimensions';

/** A quarter of an hour: the grain a filtered read on SQLite places page views in days by (see countDays). */
const SLOT_MS = 15 * 60 * 1000;

/**
 * SQLite's planner hints, which PostgreSQL's planner must not see. SQLite: a page view's page is the
 * one asked for as an expression, so that it does not build a throwaway index of every page view's
 * page for it (it did, without statistics: 15 s for 12 months at 1 M page views) but reads the
 * days' range of page_views_at (at, page); and a `+` keeps it off an index. On PostgreSQL both hid
 * the columns' statistics: it took the page views of a filtered month for one row and tested each
 * of their 3,054 against each of the month's 2,880 quarter hours (a nested loop: 0.53 s of a read
 * that takes 0.05 s with the plain columns).
 */
type EngineName = Sql['engine'];
const hintsOf = (engine: EngineName) =>
  engine === 'sqlite' ? { pageIs: "(p.page || '') = ?", plus: '+' } : { pageIs: 'p.page = ?', plus: '' };

/**
 * The fewest days of a part of a filtered read (countDays): a read of fewer days than two parts'
 * is one statement. A part's own cost (its tables of days and quarter hours, a scan of its matching
 * visits per dimension) is a few ms.
 */
const PART_DAYS = 14;

/**
 * `indices` (consecutive days) in at most `threads` parts of at least PART_DAYS days each, of about
 * as many days (not rows: a site whose traffic doubled over a year has a heavier second half).
 */
function partsOf(indices: readonly number[], threads: number): Array<readonly number[]> {
  const count = Math.max(1, Math.min(threads, Math.floor(indices.length / PART_DAYS)));
  const size = Math.ceil(indices.length / count);
  return Array.from({ length: count }, (_, k) => indices.slice(k * size, (k + 1) * size)).filter((part) => part.length > 0);
}

/** When the first visit kept began (by the index visits_started). */
const FIRST_VISIT = 'SELECT MIN(started_at) AS at FROM visits';

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
function filterSql(filter: VisitFilter, engine: EngineName) {
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
function dayBuckets(ranges: readonly Range[], indices: readonly number[]): { sql: (column: string) => string; params: string[] } {
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
function groupedDimensions(): string {
  const dims = Object.entries(VISIT_DIMENSIONS);
  const which = (then: (k: number) => string) =>
    `CASE ${dims.map((_, k) => `WHEN GROUPING(l${k}) = 0 THEN ${then(k)}`).join(' ')} END`;
  return `SELECT 0 AS i, metric, label, n, 0 AS total FROM (
      SELECT ${which((k) => `'${dims[k]![0]}'`)} AS metric, ${which((k) => `l${k}`)} AS label, COUNT(*) AS n
      FROM (SELECT ${dims.map(([, label], k) => `${label} AS l${k}`).join(', ')} FROM fv v) x
      GROUP BY GROUPING SETS (${dims.map((_, k) => `(l${k})`).join(', ')})
    ) g WHERE label IS NOT NULL`;
}

/** The visits area's totals on an open database (its readers' side, and which engine it is). */
export function visitTotals(reads: Reads, engine: EngineName) {
  const { plus } = hintsOf(engine);
  /**
   * Raw totals of the days (page views, visitors, visits) per day index: what a built day keeps
   * (`byDay`, the builder). For a read (not `byDay`) only page views and visitors come per day (the
   * chart's figures); the visits and their breakdowns come summed over the days, on day index 0: a
   * read adds them up anyway, and per day a filtered month was 20,000 to 30,000 rows for the
   * collector's one thread to take in and add (20 to 30 ms in which no heartbeat was answered),
   * summed a few hundred.
   */
  async function countDays(
    days: readonly Range[],
    filter: VisitFilter = [],
    byDay = false,
  ): Promise<Array<{ i: number; metric: string; label: string; n: number; total: number }>> {
    // the days that end before the first visit began hold no page view and no visit: not counted
    // (a year's days of a site younger than that, or a previous period before its first visitor:
    // 35,000 quarter hours of a filtered year made for nothing, 40 ms at 10,000 page views)
    if (days.length === 0) return [];
    const first = (await reads.get<{ at: number | null }>(FIRST_VISIT))?.at ?? null;
    const indices = first === null ? [] : days.flatMap((r, i) => (r.end > Number(first) ? [i] : []));
    if (indices.length === 0) return [];
    // filtered (a read), with more than one reader thread: the days in parts of consecutive days,
    // a statement for each, run at once; a read's figures add up over its days, as they do over the
    // filtered month totals' months
    const parts = filter.length > 0 && !byDay ? partsOf(indices, reads.parallel ?? 1) : [indices];
    return (await Promise.all(parts.map((part) => countPart(days, part, filter, byDay)))).flat();
  }

  /** countDays of the days at `indices` of `days` (each row's `i` is its day's index in `days`). */
  async function countPart(
    days: readonly Range[],
    indices: readonly number[],
    filter: VisitFilter,
    byDay: boolean,
  ): Promise<Array<{ i: number; metric: string; label: string; n: number; total: number }>> {
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
    return reads.all(
      `WITH${quarterHours ? ' RECURSIVE' : ''} ${d.sql}${withSlots}${withVisits}${withPages}
       ${pageRows}
       UNION ALL
       SELECT ${day}, 'visits', '', COUNT(*), COALESCE(SUM(CASE WHEN v.views = 1 THEN 1 ELSE 0 END), 0)
       FROM ${visits}${byDay ? ' GROUP BY d.i' : ''}
       UNION ALL ${byDimension}`,
      // the span's bounds (and the filter's values) once per subquery: filtered, the two tables made
      // once; else two on page views, then one per subquery on visits
      filtered
        ? [...d.params, ...(buckets?.params ?? []), ...d.span, ...f.visits.params, ...pagesParams]
        : [...d.params, ...Array.from({ length: 3 + dimensions.length }, () => d.span).flat()],
    );
  }

  /**
   * A filtered count of `days` shared by the reads asking for it at the same time (the overview's
   * totals and its chart ask for the same days and filter at once): counted once, not twice.
   */
  const inFlight = new Map<string, ReturnType<typeof countDays>>();
  function countShared(days: readonly Range[], filter: VisitFilter): ReturnType<typeof countDays> {
    const key = JSON.stringify([days.map((d) => [d.start, d.end]), filter]);
    let counting = inFlight.get(key);
    if (!counting) {
      counting = countDays(days, filter).finally(() => inFlight.delete(key));
      inFlight.set(key, counting);
    }
    return counting;
  }

  /**
   * A filtered read of `days`: with one filter, the whole months that have filtered month totals
   * from those (`rows`, per month), the other days from the stored rows (`raw`); with more, every
   * day from the rows.
   */
  async function filteredCoverage(days: readonly Day[], filter: VisitFilter) {
    const { months } = filter.length === 1 ? await coverage(reads, days) : { months: [] };
    const kept = await readFilteredMonths(reads, filter, months);
    return { rows: kept.rows, perMonth: kept.perMonth, raw: days.filter((d) => !kept.months.has(d.day.slice(0, 7))) };
  }

  /** Page views and visitors per hour of a day, counted from the stored rows. */
  async function countHours(
    hours: readonly Range[],
    filter: VisitFilter = [],
  ): Promise<Array<{ views: number; visitors: number }>> {
    if (hours.length === 0) return [];
    const d = dayTable(hours);
    const f = filterSql(filter, engine);
    const rows = await reads.all<{ i: number; views: number; visitors: number }>(
      `WITH ${d.sql} SELECT d.i AS i, COUNT(*) AS views, COUNT(DISTINCT p.session_id) AS visitors
       FROM d JOIN page_views p ON p.at >= d.s AND p.at < d.e${f.join} WHERE ${d.within('p.at')}${f.pages.sql} GROUP BY d.i`,
      [...d.params, ...d.span, ...f.pages.params],
    );
    const byIndex = new Map(rows.map((r) => [r.i, r]));
    return hours.map((_, i) => ({ views: byIndex.get(i)?.views ?? 0, visitors: byIndex.get(i)?.visitors ?? 0 }));
  }

  return {
    /**
     * The totals of `days` (whole days of the site's calendar): from the day totals where built,
     * counted from the stored rows for the others. Per metric and label: `n` (page views, visitors,
     * visits or visits by label) and `total` (time on page in ms for page views, bounces for visits).
     */
    async totals(
      days: readonly Day[],
      filter: VisitFilter = [],
    ): Promise<Map<string, Map<string, { n: number; total: number }>>> {
      // filtered: the filtered month totals for one filter, else the rows of the days (by the time index)
      const filtered = filter.length > 0 ? await filteredCoverage(days, filter) : null;
      const { months, days: built, raw } = filtered ? { months: [], days: [], raw: filtered.raw } : await coverage(reads, days);
      const out = new Map<string, Map<string, { n: number; total: number }>>();
      const add = (metric: string, label: string, n: number, total: number) => {
        const labels = out.get(metric) ?? new Map<string, { n: number; total: number }>();
        out.set(metric, labels);
        const sum = labels.get(label) ?? { n: 0, total: 0 };
        labels.set(label, { n: sum.n + Number(n), total: sum.total + Number(total) });
      };
      if (months.length + built.length > 0) {
        // whole months from their month totals, the other built days from theirs
        const covered = coveredRows(months, built);
        const rows = await reads.all<{ metric: string; label: string; n: number; total: number }>(
          `SELECT metric, label, SUM(n) AS n, SUM(total) AS total FROM stats_visits
           WHERE ${covered.sql} AND metric <> 'hour' GROUP BY metric, label`,
          covered.params,
        );
        for (const r of rows) add(r.metric, r.label, r.n, r.total);
      }
      for (const r of filtered?.rows ?? []) add(r.metric, r.label, r.n, r.total);
      for (const r of await (filter.length > 0 ? countShared(raw, filter) : countDays(raw)))
        if (r.metric !== 'views') add(r.metric, r.label, r.n, r.total);
      return out;
    },
    /**
     * Page views and visitors of each day. `months` (for buckets of whole months): a whole month with
     * month totals is read from those, its figures on its first day (its bucket sums its days), so
     * that 12 months read eleven month rows per metric, not a row per page and day.
     */
    async perDay(
      days: readonly Day[],
      months = false,
      filter: VisitFilter = [],
    ): Promise<Map<string, { views: number; visitors: number }>> {
      const filtered = filter.length > 0 ? await (months ? filteredCoverage(days, filter) : { perMonth: [], raw: days }) : null;
      const {
        months: whole,
        days: built,
        raw,
      } = filtered
        ? { months: [] as string[], days: [] as Day[], raw: filtered.raw }
        : months
          ? await coverage(reads, days)
          : await builtDays(reads, days).then((b) => ({ months: [] as string[], days: b.built, raw: b.raw }));
      const out = new Map<string, { views: number; visitors: number }>(days.map((d) => [d.day, { views: 0, visitors: 0 }]));
      if (whole.length + built.length > 0) {
        // the rows of the built days (and months) only: one range per run of days, not the year between
        const where = coveredRows(whole, built);
        const rows = await reads.all<{ day: string; metric: string; n: number }>(
          `SELECT day, metric, SUM(n) AS n FROM stats_visits WHERE ${where.sql} AND metric IN ('page', 'visitors') GROUP BY day, metric`,
          where.params,
        );
        for (const r of rows) {
          const entry = out.get(r.day.length === 7 ? `${r.day}-01` : r.day);
          if (entry) entry[r.metric === 'page' ? 'views' : 'visitors'] = Number(r.n);
        }
      }
      for (const r of filtered?.perMonth ?? []) {
        const entry = out.get(`${r.month}-01`);
        if (entry) {
          entry.views += r.views;
          entry.visitors += r.visitors;
        }
      }
      // a filtered count has each day's views as one row (`views`), an unfiltered one per page and day
      const views = filter.length > 0 ? 'views' : 'page';
      for (const r of await (filter.length > 0 ? countShared(raw, filter) : countDays(raw))) {
        const entry = out.get(raw[r.i]!.day)!;
        if (r.metric === views) entry.views += Number(r.n);
        if (r.metric === 'visitors') entry.visitors = Number(r.n);
      }
      return out;
    },
    /** Page views and visitors per hour of one day (`hours`: the day's hours, 23 to 25). */
    async perHour(
      day: Day,
      hours: readonly Range[],
      filter: VisitFilter = [],
    ): Promise<Array<{ views: number; visitors: number }>> {
      if (filter.length > 0) return countHours(hours, filter);
      const { built } = await builtDays(reads, [day]);
      if (built.length === 0) return countHours(hours);
      const rows = await reads.all<{ label: string; n: number; total: number }>(
        "SELECT label, n, total FROM stats_visits WHERE day = ? AND metric = 'hour'",
        [day.day],
      );
      const byHour = new Map(rows.map((r) => [Number(r.label), r]));
      return hours.map((_, i) => ({ views: Number(byHour.get(i)?.n ?? 0), visitors: Number(byHour.get(i)?.total ?? 0) }));
    },

    /** The day totals of `days`, counted from the stored rows (the builder reads these, then `keepTotals`). */
    async countForTotals(days: readonly Day[], hoursOf: (day: Day) => Range[]) {
      const rows = await countDays(days, [], true);
      const perDay = days.map((day) => ({ day: day.day, rows: [] as Array<[string, string, number, number]> }));
      for (const r of rows) perDay[r.i]!.rows.push([r.metric, r.label, Number(r.n), Number(r.total)]);
      for (const [i, day] of days.entries()) {
        const hours = await countHours(hoursOf(day));
        hours.forEach((h, hour) => {
          if (h.views > 0) perDay[i]!.rows.push(['hour', String(hour), h.views, h.visitors]);
        });
      }
      return perDay;
    },
    /** Replace the day totals of one day (inside the builder's transaction). */
    async keepTotals(tx: Sql, day: string, rows: ReadonlyArray<readonly [string, string, number, number]>): Promise<void> {
      await tx.run('DELETE FROM stats_visits WHERE day = ?', [day]);
      for (let i = 0; i < rows.length; i += 200) {
        const part = rows.slice(i, i + 200);
        await tx.run(
          `INSERT INTO stats_visits (day, metric, label, n, total) VALUES ${part.map(() => '(?, ?, ?, ?, ?)').join(', ')}`,
          part.flatMap((r) => [day, ...r]),
        );
      }
    },
    /** The earliest page view kept, if any (where the builder starts). */
    earliest: async () => (await reads.get<{ at: number | null }>('SELECT MIN(at) AS at FROM page_views'))?.at ?? null,

    /** The month totals of `month` (`YYYY-MM`) from its days' (inside the builder's transaction). */
    async monthTotals(tx: Sql, month: string): Promise<void> {
      await tx.run('DELETE FROM stats_visits WHERE day = ?', [month]);
      await tx.run(
        `INSERT INTO stats_visits (day, metric, label, n, total)
         SELECT CAST(? AS TEXT), metric, label, SUM(n), SUM(total) FROM stats_visits
         WHERE day >= ? AND day <= ? AND length(day) = 10 AND metric <> 'hour' GROUP BY metric, label`,
        [month, `${month}-01`, `${month}-31`],
      );
    },
    /**
     * Drop the month totals of `month` (a day of it is counted again), and the marker of its filtered
     * month totals, which are counted again with them (visits-filtered.ts).
     */
    async dropTotals(tx: Sql, month: string): Promise<void> {
      await tx.run('DELETE FROM stats_visits WHERE day = ?', [month]);
      await tx.run('DELETE FROM stats_visits_by_built WHERE month = ?', [month]);
    },
    /** Drop every day total and filtered month total (the time zone changed: days are counted again). */
    async clearTotals(tx: Sql): Promise<void> {
      await tx.run('DELETE FROM stats_visits');
      await tx.run('DELETE FROM stats_visits_by_built');
      await tx.run('DELETE FROM stats_visits_by');
    },
  };
}
