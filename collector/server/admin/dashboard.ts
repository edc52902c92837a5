import type { Sql } from '../sql';
import type { Bucket, Period, Range } from './period';

/**
 * The dashboard's figures for a period and the one before it, all in SQL on either engine. Who is
 * counted: sessions that sent heartbeats, so visitors who allowed statistics (the bundle tracks
 * only then). A visit is one session's page views within the period; an entry page is its first,
 * an exit page its last, a bounce a visit of one page view. Time on page runs from a page view's
 * first heartbeat to its latest (`last_at`): the heartbeat interval is its resolution.
 */

/** One figure now and in the previous period. */
export interface Compared {
  current: number;
  previous: number;
}

/** One row of a breakdown: its label and its figure now and before. */
export interface Row extends Compared {
  label: string;
}

/** The summary figures of one range. */
interface Summary {
  views: number;
  visitors: number;
  visits: number;
  bounces: number;
  /** Average time on page in ms (0 without page views). */
  timeOnPage: number;
}

/** Rows of each breakdown: a dashboard, not a report. */
const TOP = 20;
/** Screen size classes by the window's outer width (device_width), in CSS px; the last has no upper end. */
export const SCREEN_CLASSES = [
  { label: '< 600', below: 600 },
  { label: '600–1023', below: 1024 },
  { label: '1024–1439', below: 1440 },
  { label: '≥ 1440', below: null },
] as const;

const VIEWS = 'h.initialize = 1 AND h.at >= ? AND h.at < ?';
/** No earlier page view of the same session in the range: `h` is its visit's entry. */
const FIRST_OF_VISIT = `NOT EXISTS (SELECT 1 FROM heartbeats o WHERE o.session_id = h.session_id AND o.initialize = 1
  AND o.at >= ? AND o.at < ? AND (o.at < h.at OR (o.at = h.at AND o.id < h.id)))`;
/** No later page view of the same session in the range: `h` is its visit's exit. */
const LAST_OF_VISIT = `NOT EXISTS (SELECT 1 FROM heartbeats o WHERE o.session_id = h.session_id AND o.initialize = 1
  AND o.at >= ? AND o.at < ? AND (o.at > h.at OR (o.at = h.at AND o.id > h.id)))`;
const SCREEN = `CASE ${SCREEN_CLASSES.map((c) => (c.below === null ? `ELSE '${c.label}'` : `WHEN s.device_width < ${c.below} THEN '${c.label}'`)).join(' ')} END`;

/** What a breakdown groups by, how it counts, and which page views it looks at. */
interface Breakdown {
  label: string;
  /** `visitors`: distinct sessions; `views`: page views. */
  count: 'visitors' | 'views';
  /** Extra condition on `h` (and `s`), with `?` for the range given twice (entry and exit pages). */
  where?: string;
  rangeTwice?: boolean;
}

const BREAKDOWNS = {
  pages: { label: 'h.page', count: 'views' },
  entryPages: { label: 'h.page', count: 'views', where: FIRST_OF_VISIT, rangeTwice: true },
  exitPages: { label: 'h.page', count: 'views', where: LAST_OF_VISIT, rangeTwice: true },
  referrers: { label: 'h.referrer', count: 'visitors', where: 'h.referrer IS NOT NULL' },
  utmSource: { label: 'h.utm_source', count: 'visitors', where: 'h.utm_source IS NOT NULL' },
  utmMedium: { label: 'h.utm_medium', count: 'visitors', where: 'h.utm_medium IS NOT NULL' },
  utmCampaign: { label: 'h.utm_campaign', count: 'visitors', where: 'h.utm_campaign IS NOT NULL' },
  utmTerm: { label: 'h.utm_term', count: 'visitors', where: 'h.utm_term IS NOT NULL' },
  utmContent: { label: 'h.utm_content', count: 'visitors', where: 'h.utm_content IS NOT NULL' },
  devices: { label: "COALESCE(s.device, 'unknown')", count: 'visitors' },
  browsers: { label: "COALESCE(s.browser, 'unknown')", count: 'visitors' },
  screens: { label: `CASE WHEN s.device_width IS NULL THEN 'unknown' ELSE ${SCREEN} END`, count: 'visitors' },
} satisfies Record<string, Breakdown>;

/** The dashboard's queries on one database. */
export function createDashboard(sql: Sql) {
  // ties in code-point order on both engines (PostgreSQL would otherwise sort by the database's locale)
  const byCodePoint = sql.engine === 'postgres' ? ' COLLATE "C"' : '';
  async function summary({ start, end }: Range): Promise<Summary> {
    const [views, visits] = await Promise.all([
      sql.get<{ views: number; visitors: number; time: number | null }>(
        `SELECT COUNT(*) AS views, COUNT(DISTINCT h.session_id) AS visitors,
           AVG(COALESCE(h.last_at, h.at) - h.at) AS time
         FROM heartbeats h WHERE ${VIEWS}`,
        [start, end],
      ),
      sql.get<{ visits: number; bounces: number | null }>(
        `SELECT COUNT(*) AS visits, SUM(CASE WHEN n = 1 THEN 1 ELSE 0 END) AS bounces
         FROM (SELECT h.session_id, COUNT(*) AS n FROM heartbeats h WHERE ${VIEWS} GROUP BY h.session_id) v`,
        [start, end],
      ),
    ]);
    return {
      views: views!.views,
      visitors: views!.visitors,
      visits: visits!.visits,
      bounces: visits!.bounces ?? 0,
      timeOnPage: Math.round(Number(views!.time ?? 0)),
    };
  }

  async function counts(b: Breakdown, { start, end }: Range, limit: number | null): Promise<Map<string, number>> {
    const measure = b.count === 'visitors' ? 'COUNT(DISTINCT h.session_id)' : 'COUNT(*)';
    const params: unknown[] = [start, end, ...(b.rangeTwice ? [start, end] : [])];
    const rows = await sql.all<{ label: string; n: number }>(
      `SELECT ${b.label} AS label, ${measure} AS n
       FROM heartbeats h JOIN sessions s ON s.id = h.session_id
       WHERE ${VIEWS}${b.where ? ` AND ${b.where}` : ''}
       GROUP BY ${b.label} ORDER BY n DESC, ${b.label}${byCodePoint}${limit === null ? '' : ' LIMIT ?'}`,
      limit === null ? params : [...params, limit],
    );
    return new Map(rows.map((r) => [r.label, r.n]));
  }

  /** The top rows now, each with its figure in the previous period. */
  async function breakdown(b: Breakdown, period: Period): Promise<Row[]> {
    const [now, before] = await Promise.all([counts(b, period.current, TOP), counts(b, period.previous, null)]);
    return [...now].map(([label, current]) => ({ label, current, previous: before.get(label) ?? 0 }));
  }

  async function series(buckets: readonly Bucket[]): Promise<Array<{ views: number; visitors: number }>> {
    if (buckets.length === 0) return [];
    // the buckets as a table of parameters (typed: PostgreSQL cannot guess a VALUES column's type)
    const values = buckets.map(() => '(CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS BIGINT))').join(', ');
    const rows = await sql.all<{ i: number; views: number; visitors: number }>(
      `WITH b (i, s, e) AS (VALUES ${values})
       SELECT b.i AS i, COUNT(h.id) AS views, COUNT(DISTINCT h.session_id) AS visitors
       FROM b JOIN heartbeats h ON h.initialize = 1 AND h.at >= b.s AND h.at < b.e GROUP BY b.i`,
      buckets.flatMap((bucket, i) => [i, bucket.start, bucket.end]),
    );
    const byIndex = new Map(rows.map((r) => [r.i, r]));
    return buckets.map((_, i) => ({ views: byIndex.get(i)?.views ?? 0, visitors: byIndex.get(i)?.visitors ?? 0 }));
  }

  /** Average time on page per page, now (ms), for the pages listed. */
  async function timeOnPages({ start, end }: Range): Promise<Map<string, number>> {
    const rows = await sql.all<{ page: string; time: number }>(
      `SELECT h.page AS page, AVG(COALESCE(h.last_at, h.at) - h.at) AS time FROM heartbeats h WHERE ${VIEWS} GROUP BY h.page`,
      [start, end],
    );
    return new Map(rows.map((r) => [r.page, Math.round(Number(r.time))]));
  }

  return {
    /** Everything the overview shows for `period`. */
    async traffic(period: Period) {
      const [now, before, current, previous, times] = await Promise.all([
        summary(period.current),
        summary(period.previous),
        series(period.buckets),
        series(period.previousBuckets),
        timeOnPages(period.current),
      ]);
      const compared = (key: keyof Summary): Compared => ({ current: now[key], previous: before[key] });
      const rate = (s: Summary) => (s.visits === 0 ? 0 : s.bounces / s.visits);
      const tables = Object.fromEntries(
        await Promise.all(Object.entries(BREAKDOWNS).map(async ([key, b]) => [key, await breakdown(b, period)] as const)),
      ) as Record<keyof typeof BREAKDOWNS, Row[]>;
      return {
        summary: {
          views: compared('views'),
          visitors: compared('visitors'),
          visits: compared('visits'),
          bounceRate: { current: rate(now), previous: rate(before) },
          timeOnPage: compared('timeOnPage'),
        },
        series: period.buckets.map((bucket, i) => ({
          label: bucket.label,
          views: current[i]!.views,
          visitors: current[i]!.visitors,
          previousLabel: period.previousBuckets[i]?.label ?? null,
          previousViews: previous[i]?.views ?? 0,
        })),
        ...tables,
        pages: tables.pages.map((row) => ({ ...row, timeOnPage: times.get(row.label) ?? 0 })),
      };
    },
    /** The most clicked selectors per page in the range, each with its count in the previous one. */
    async clicks(period: Period, perPage: number, maxPages: number) {
      const rows = await sql.all<{ page: string; selector: string; current: number; previous: number }>(
        `SELECT page, selector, SUM(CASE WHEN at >= ? THEN 1 ELSE 0 END) AS current,
           SUM(CASE WHEN at < ? THEN 1 ELSE 0 END) AS previous
         FROM clicks WHERE at >= ? AND at < ? GROUP BY page, selector ORDER BY page, current DESC, previous DESC, selector`,
        [period.current.start, period.current.start, period.previous.start, period.current.end],
      );
      const byPage = new Map<string, { page: string; total: Compared; selectors: Array<{ selector: string } & Compared> }>();
      for (const row of rows) {
        const entry = byPage.get(row.page) ?? { page: row.page, total: { current: 0, previous: 0 }, selectors: [] };
        byPage.set(row.page, entry);
        entry.total.current += row.current;
        entry.total.previous += row.previous;
        if (row.current > 0 && entry.selectors.length < perPage)
          entry.selectors.push({ selector: row.selector, current: row.current, previous: row.previous });
      }
      return [...byPage.values()]
        .filter((p) => p.total.current > 0)
        .sort((a, b) => b.total.current - a.total.current || (a.page < b.page ? -1 : 1))
        .slice(0, maxPages);
    },
  };
}
