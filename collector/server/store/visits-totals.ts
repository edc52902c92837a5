import { builtDays, coverage, coveredRows, dayTable, type Day, type Range } from './rollups';
import type { Reads, Sql } from './sql';
import { VISIT_DIMENSIONS, type VisitFilter } from './visits-dimensions';
import { readFilteredMonths } from './visits-filtered';
import {
  dayBuckets,
  FIRST_VISIT,
  filterSql,
  groupedDimensions,
  hintsOf,
  partsOf,
  SLOT_MS,
  type EngineName,
} from './visits-count';
import {
  mergeLabels,
  mergeTop,
  PART_TOP,
  sumOf,
  TOP_LABELS,
  totalsOf,
  type Answer,
  type Totals,
  type Wanted,
} from './visits-top';

/**
 * The visits area's day totals (`stats_visits`): per day of the site's calendar, per metric and
 * label, `n` and `total`. Metrics: `page` (page views of a page, and their time on page in ms),
 * `visitors` (sessions with a page view that day), `visits` (visits begun that day, and how many
 * were bounces), the visits by each of VISIT_DIMENSIONS, and `hour` (page views and visitors per
 * hour of the day). Read from the totals where a day is built, counted from the rows for the rest.
 */

export { SCREEN_CLASSES, VISIT_DIMENSIONS } from './visits-dimensions';
export type { FilterDimension, VisitDimension, VisitFilter } from './visits-dimensions';
export type { LabelTotal, Summary, Totals, Wanted } from './visits-top';
export { inMatchingVisit } from './visits-count';

/** The sources of a totals read: days counted from the rows, day (and month) totals, filtered month totals. */
interface Sources {
  count: {
    head: string;
    body: string;
    headParams: readonly unknown[];
    bodyParams: readonly unknown[];
    filtered: boolean;
  } | null;
  covered: { sql: string; params: readonly string[] } | null;
  monthly: { filter: readonly [string, string]; months: readonly string[] } | null;
}

/** The days a totals read counts from the rows: `indices` of `days`, with the read's filter. */
interface Counted {
  days: readonly Range[];
  indices: readonly number[];
  filter: VisitFilter;
}

/** A row of a totals statement (`kind`: top, count, sum or chart; PostgreSQL's sums come as text). */
interface TotalsRow {
  kind: string;
  i: number | string;
  metric: string;
  label: string;
  n: number | string;
  total: number | string;
  visitors: number | string;
  visits: number | string;
  bounces: number | string;
  marked: number | string;
}

/** A totals read, the days it counted from the rows and their chart figures. */
interface TotalsRead {
  totals: Totals;
  raw: readonly Range[];
  chart: Answer['chart'];
}

/** The visits area's totals on an open database (its readers' side, and which engine it is). */
export function visitTotals(reads: Reads, engine: EngineName) {
  const { plus } = hintsOf(engine);
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
    const count = countSql(days, indices, filter, byDay);
    return reads.all(`${count.head}\n       ${count.body}`, [...count.headParams, ...count.bodyParams]);
  }

  /**
   * The statement of countPart in two: `head`, its `WITH` list (the days, and filtered, the matching
   * visits and page views), and `body`, the counting query on those (each with its parameters), so
   * that the totals' read can take the body as one more entry of its own `WITH` list (readTotals).
   */
  function countSql(days: readonly Range[], indices: readonly number[], filter: VisitFilter, byDay: boolean) {
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

  /** The indices of those of `days` that may hold rows: none that ends before the first visit began. */
  async function countable(days: readonly Range[]): Promise<number[]> {
    // (a year's days of a site younger than that, or a previous period before its first visitor:
    // 35,000 quarter hours of a filtered year made for nothing, 40 ms at 10,000 page views)
    if (days.length === 0) return [];
    const first = (await reads.get<{ at: number | null }>(FIRST_VISIT))?.at ?? null;
    return first === null ? [] : days.flatMap((r, i) => (r.end > Number(first) ? [i] : []));
  }

  /**
   * A filtered read of `days`: with one filter, the whole months that have filtered month totals
   * (`months`, and each one's page views and visitors, `perMonth`), the other days to count from
   * the stored rows (`raw`); with more, every day from the rows.
   */
  async function filteredCoverage(days: readonly Day[], filter: VisitFilter) {
    const { months } = filter.length === 1 ? await coverage(reads, days) : { months: [] };
    const kept = await readFilteredMonths(reads, filter, months);
    return { months: kept.months, perMonth: kept.perMonth, raw: days.filter((d) => !kept.months.has(d.day.slice(0, 7))) };
  }

  /**
   * The statement of a totals read (readTotals) on `sources`: their rows added up per metric and
   * label by the database, and only what is asked for answered. `top`: each metric's `limit` first
   * labels (most first, ties in code-point order: PostgreSQL's text order is its collation's, so
   * "C", which compares bytes as SQLite does), and with `counts` how many labels each metric has;
   * `labels`: the sums of those labels. Always the summary (`sum`, over every label, the unlabelled
   * rows of retention's collapse too, which no list shows) and, counted filtered, the chart's figures
   * of each day (`chart`).
   */
  function totalsStatement(sources: Sources, wanted: Wanted, limit: number, counts: boolean) {
    const { count, covered, monthly } = sources;
    const labelled = 'labels' in wanted;
    const params: unknown[] = [];
    const entries: string[] = [];
    if (count) {
      params.push(...count.headParams, ...count.bodyParams);
      // read more than once (the chart's figures, or the labels and the summary): counted once
      entries.push(`c AS ${count.filtered || labelled ? 'MATERIALIZED ' : ''}(${count.body})`);
    }
    const pairs = labelled ? [...wanted.labels].flatMap(([metric, labels]) => labels.map((label) => [metric, label])) : [];
    if (pairs.length > 0) {
      entries.push(`w (metric, label) AS (VALUES ${pairs.map(() => '(CAST(? AS TEXT), CAST(? AS TEXT))').join(', ')})`);
      params.push(...pairs.flat());
    }
    const list = (monthly?.months ?? []).map(() => '?').join(', ');
    /** The sources' rows that `where` keeps (a condition on `metric` and `label`). */
    const arms = (where: string) => {
      const text: string[] = [];
      if (count) text.push(`SELECT metric, label, n, total FROM c WHERE metric <> 'views'${where}`);
      if (covered) {
        text.push(`SELECT metric, label, n, total FROM stats_visits WHERE ${covered.sql} AND metric <> 'hour'${where}`);
        params.push(...covered.params);
      }
      if (monthly) {
        text.push(`SELECT s.metric AS metric, s.label AS label, s.n AS n, s.total AS total
           FROM stats_visits_by_built b JOIN stats_visits_by s ON s.start_at = b.start_at AND s.dimension = ? AND s.value = ?
           WHERE b.month IN (${list})${where}`);
        params.push(...monthly.filter, ...monthly.months);
      }
      return text.join(' UNION ALL ');
    };
    const byLabel = engine === 'postgres' ? 'label COLLATE "C"' : 'label';
    // every select names its columns: the first of a compound names them, and any may be first
    const sums = `COALESCE(SUM(CASE WHEN metric = 'page' THEN n ELSE 0 END), 0) AS n,
         COALESCE(SUM(CASE WHEN metric = 'page' THEN total ELSE 0 END), 0) AS total,
         COALESCE(SUM(CASE WHEN metric = 'visitors' THEN n ELSE 0 END), 0) AS visitors,
         COALESCE(SUM(CASE WHEN metric = 'visits' THEN n ELSE 0 END), 0) AS visits,
         COALESCE(SUM(CASE WHEN metric = 'visits' THEN total ELSE 0 END), 0) AS bounces`;
    const zeros = '0 AS total, 0 AS visitors, 0 AS visits, 0 AS bounces, 0 AS marked';
    const selects: string[] = [];
    if (!labelled) {
      entries.push(`src (metric, label, n, total) AS (${arms('')})`);
      entries.push('g AS (SELECT metric, label, SUM(n) AS n, SUM(total) AS total FROM src GROUP BY metric, label)');
      selects.push(
        `SELECT 'top' AS kind, k AS i, metric, label, n, total, 0 AS visitors, 0 AS visits, 0 AS bounces, 0 AS marked FROM (
           SELECT metric, label, n, total, ROW_NUMBER() OVER (PARTITION BY metric ORDER BY n DESC, ${byLabel}) AS k
           FROM g WHERE label <> ''
         ) r WHERE k <= ${limit}`,
      );
      if (counts)
        selects.push(
          `SELECT 'count' AS kind, 0 AS i, metric, '' AS label, COUNT(*) AS n, ${zeros} FROM g WHERE label <> '' GROUP BY metric`,
        );
    } else {
      if (pairs.length > 0)
        entries.push(`src (metric, label, n, total) AS (${arms(' AND (metric, label) IN (SELECT metric, label FROM w)')})`);
      entries.push(`g AS (${arms(" AND metric IN ('page', 'visitors', 'visits')")})`);
      if (pairs.length > 0)
        selects.push(
          `SELECT 'top' AS kind, 0 AS i, metric, label, SUM(n) AS n, SUM(total) AS total, 0 AS visitors, 0 AS visits, 0 AS bounces,
             0 AS marked
           FROM src GROUP BY metric, label`,
        );
    }
    // the summary; with filtered month totals, how many of their months are still marked (readTotals)
    selects.push(
      `SELECT 'sum' AS kind, 0 AS i, '' AS metric, '' AS label, ${sums},
         ${monthly ? `(SELECT COUNT(*) FROM stats_visits_by_built WHERE month IN (${list}))` : '0'} AS marked FROM g`,
    );
    if (monthly) params.push(...monthly.months);
    if (count?.filtered)
      selects.push(`SELECT 'chart' AS kind, i, metric, '' AS label, n, ${zeros} FROM c WHERE metric IN ('views', 'visitors')`);
    const head = count ? `${count.head}, ` : 'WITH ';
    return { text: `${head}${entries.join(',\n       ')}\n       ${selects.join('\n       UNION ALL ')}`, params };
  }

  /** Answer the statement(s) of a totals read of `sources` (readTotals). */
  async function answer(sources: Sources, wanted: Wanted, counted: Counted | null): Promise<Answer> {
    // filtered, with more than one reader thread: the days in parts of consecutive days, a statement
    // for each, run at once (countSql); each answers its PART_TOP × top first labels and how many it has,
    // and the first also the other sources' rows
    const parts = counted && counted.filter.length > 0 ? partsOf(counted.indices, reads.parallel ?? 1) : [];
    if (parts.length > 1 && counted) {
      const top = 'top' in wanted ? wanted.top : 0;
      const answers = await Promise.all(
        parts.map((part, k) =>
          run(
            {
              count: countSql(counted.days, part, counted.filter, false),
              covered: k === 0 ? sources.covered : null,
              monthly: k === 0 ? sources.monthly : null,
            },
            wanted,
            PART_TOP * top,
            true,
          ),
        ),
      );
      const summary = sumOf(answers.map((a) => a.summary));
      const chart = answers.flatMap((a) => a.chart);
      const marked = answers.reduce((sum, a) => sum + a.marked, 0);
      const merged = 'top' in wanted ? mergeTop(answers, top) : mergeLabels(answers);
      // the parts' first labels did not show which labels are first over all the days (many labels
      // of about equal counts): the days in one statement
      if (merged) return { labels: merged, summary, chart, marked };
    }
    const count = counted && counted.indices.length > 0 ? countSql(counted.days, counted.indices, counted.filter, false) : null;
    return run({ ...sources, count }, wanted, 'top' in wanted ? wanted.top : 0, false);
  }

  /** One statement of a totals read, its rows taken apart. */
  async function run(
    sources: Sources,
    wanted: Wanted,
    limit: number,
    counts: boolean,
  ): Promise<Answer & { counts: Map<string, number> }> {
    const out: Answer & { counts: Map<string, number> } = {
      labels: new Map(),
      summary: { views: 0, time: 0, visitors: 0, visits: 0, bounces: 0 },
      chart: [],
      marked: 0,
      counts: new Map(),
    };
    if (!sources.count && !sources.covered && !sources.monthly) return out;
    const statement = totalsStatement(sources, wanted, limit, counts);
    const rows = await reads.all<TotalsRow>(statement.text, statement.params);
    const ranked = new Map<string, Array<{ k: number; label: string; n: number; total: number }>>();
    for (const r of rows) {
      const kind = r.kind;
      if (kind === 'top') {
        const list = ranked.get(r.metric) ?? [];
        ranked.set(r.metric, list);
        list.push({ k: Number(r.i), label: r.label, n: Number(r.n), total: Number(r.total) });
      } else if (kind === 'count') out.counts.set(r.metric, Number(r.n));
      else if (kind === 'chart') out.chart.push({ i: Number(r.i), metric: r.metric, n: Number(r.n) });
      else if (kind === 'sum') {
        out.summary = {
          views: Number(r.n),
          time: Number(r.total),
          visitors: Number(r.visitors),
          visits: Number(r.visits),
          bounces: Number(r.bounces),
        };
        out.marked = Number(r.marked);
      }
    }
    for (const [metric, list] of ranked)
      out.labels.set(
        metric,
        list.sort((a, b) => a.k - b.k).map(({ label, n, total }) => ({ label, n, total })),
      );
    return out;
  }

  /**
   * The totals of `days` (whole days of the site's calendar): from the day totals where built (and
   * filtered by one filter, the filtered month totals of whole months), counted from the stored rows
   * for the others; all of it added up and ranked by the database, so that the collector's thread
   * takes in the labels asked for, not every label of the period (200,000 distinct pages held it for
   * 0.45 s). A filtered month's totals counted again meanwhile (their marker gone): read again.
   */
  async function readTotals(days: readonly Day[], filter: VisitFilter, wanted: Wanted): Promise<TotalsRead> {
    for (let attempt = 1; ; attempt++) {
      const filtered = filter.length > 0 ? await filteredCoverage(days, filter) : null;
      const { months, days: built, raw } = filtered ? { months: [], days: [], raw: filtered.raw } : await coverage(reads, days);
      const kept = [...(filtered?.months ?? [])].sort();
      const indices = await countable(raw);
      const got = await answer(
        {
          count: null,
          covered: months.length + built.length > 0 ? coveredRows(months, built) : null,
          monthly: kept.length > 0 ? { filter: [filter[0]![0], filter[0]![1]], months: kept } : null,
        },
        wanted,
        indices.length > 0 ? { days: raw, indices, filter } : null,
      );
      if (got.marked === kept.length || attempt === 3) return { totals: totalsOf(got), raw, chart: got.chart };
    }
  }

  /**
   * The totals reads in progress, by their days and filter: a filtered chart of the same days asked
   * meanwhile (the overview asks for both at once) takes its figures from the read's count instead
   * of counting the days again.
   */
  const pending = new Map<string, Promise<TotalsRead>>();
  const keyOf = (days: readonly Range[], filter: VisitFilter) => JSON.stringify([days.map((d) => [d.start, d.end]), filter]);
  const sameDays = (a: readonly Range[], b: readonly Range[]) =>
    a.length === b.length && a.every((d, i) => d.start === b[i]!.start && d.end === b[i]!.end);

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
     * The totals of `days` (whole days of the site's calendar), see readTotals: per metric its `top`
     * labels (TOP_LABELS by default) or the given `labels`, and the summary. `n` is page views,
     * visitors, visits or visits by label, `total` time on page in ms for pages, bounces for visits.
     */
    totals(days: readonly Day[], filter: VisitFilter = [], wanted: Wanted = { top: TOP_LABELS }): Promise<Totals> {
      const reading = readTotals(days, filter, wanted);
      const key = keyOf(days, filter);
      if (filter.length > 0 && !pending.has(key)) {
        pending.set(key, reading);
        reading
          .finally(() => {
            if (pending.get(key) === reading) pending.delete(key);
          })
          .catch(() => {});
      }
      return reading.then((read) => read.totals);
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
      // a totals read of the same days and filter asked before this one: its count of the days
      // (looked up now, before it ends)
      const shared = filter.length > 0 ? pending.get(keyOf(days, filter)) : undefined;
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
      if (!filtered) {
        for (const r of await chartOf(raw)) {
          const entry = out.get(raw[r.i]!.day)!;
          entry.views += Number(r.views);
          entry.visitors = Number(r.visitors);
        }
        return out;
      }
      // filtered: the days' figures from the totals read's count when it counted these days, else a count of them
      const read = await shared?.catch(() => undefined);
      const indices = read && sameDays(read.raw, raw) ? [] : await countable(raw);
      const chart =
        read && sameDays(read.raw, raw)
          ? read.chart
          : indices.length === 0
            ? []
            : (await answer({ count: null, covered: null, monthly: null }, { labels: new Map() }, { days: raw, indices, filter }))
                .chart;
      for (const r of chart) {
        const entry = out.get(raw[r.i]!.day)!;
        if (r.metric === 'views') entry.views += r.n;
        if (r.metric === 'visitors') entry.visitors = r.n;
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
      const rows = await countDays(days);
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
