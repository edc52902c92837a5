import type { Migration } from './migrate';
import { typed } from './migrate';
import { collapseStep, unlabel, type Step } from './retention';
import { dayTable, indexTable, unbuiltRanges, type Day } from './rollups';
import { sessionLock, type Reads, type Sql } from './sql';
import { clickedPages } from './clicks-pages';
import type { DayTotals, MonthSum } from './totals-slices';
import { inMatchingVisit } from './visits-count';
import type { VisitFilter } from './visits-dimensions';

/**
 * The clicks area: heatmap clicks (session, page, selector, time) and their day totals per page and
 * selector (clicks, and the visitors who clicked it that day).
 */

/** Clicks one visitor session may store per page, and distinct selectors among them. */
export const MAX_CLICKS_PER_SESSION = 300;
export const MAX_SELECTORS_PER_SESSION = 40;

export const CLICKS_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'clicks',
    sql: typed(`
      CREATE TABLE IF NOT EXISTS clicks (
        id \${ID},
        session_id TEXT NOT NULL,
        page TEXT NOT NULL,
        selector TEXT NOT NULL,
        at \${TIME} NOT NULL
      );
      CREATE INDEX IF NOT EXISTS clicks_page_selector ON clicks (page, selector);
    `),
  },
  { version: 3, name: 'clicks by time', sql: () => 'CREATE INDEX IF NOT EXISTS clicks_at ON clicks (at);' },
  {
    version: 4,
    name: 'clicks per session; day totals',
    sql: typed(`
      CREATE INDEX clicks_session ON clicks (session_id, page, selector);
      CREATE INDEX clicks_page_at ON clicks (page, at);
      CREATE TABLE stats_clicks (
        day TEXT NOT NULL,
        page TEXT NOT NULL,
        selector TEXT NOT NULL,
        clicks BIGINT NOT NULL,
        visitors BIGINT NOT NULL,
        last_at \${TIME} NOT NULL,
        PRIMARY KEY (day, page, selector)
      );
      CREATE INDEX stats_clicks_page ON stats_clicks (page, selector);
    `),
  },
];

/** Clicks on one selector: how many, by how many visitors (summed per day), the latest. */
export interface ClickCount {
  selector: string;
  clicks: number;
  visitors: number;
  last: number;
}

/** The clicks area on an open database. */
export function clicksStore(sql: Sql, reads: Reads) {
  /**
   * Per day index, page and selector: clicks, visitors, latest; counted from the stored rows. With
   * `filter`: a page filter keeps the clicks on that page; a visit dimension the clicks made in a
   * matching visit (the session's latest visit begun at or before the click, by visits_session).
   */
  const countDays = async (days: readonly Day[], page: string | null = null, filter: VisitFilter = []) => {
    if (days.length === 0) return [];
    const count = countSql(days, page, filter);
    return reads.all<{ i: number; page: string; selector: string; clicks: number; visitors: number; last_at: number }>(
      `${count.head} ${count.body}`,
      [...count.headParams, ...count.bodyParams],
    );
  };

  return {
    /**
     * Store a click unless the session already used up its share of the page: MAX_CLICKS_PER_SESSION
     * clicks and MAX_SELECTORS_PER_SESSION distinct selectors (one visitor's junk cannot flood the
     * heatmap). False when nothing was stored. The count and the insert under the session's lock: a
     * burst of clicks at once would each count the others out.
     */
    record: (session: string, page: string, selector: string, at: number): Promise<boolean> =>
      sql.transaction(async (tx) => {
        const mine = (await tx.get<{ clicks: number; selectors: number; known: number }>(
          `SELECT COUNT(*) AS clicks, COUNT(DISTINCT selector) AS selectors,
             COALESCE(SUM(CASE WHEN selector = ? THEN 1 ELSE 0 END), 0) AS known
           FROM clicks WHERE session_id = ? AND page = ?`,
          [selector, session, page],
        ))!;
        if (mine.clicks >= MAX_CLICKS_PER_SESSION) return false;
        if (!mine.known && mine.selectors >= MAX_SELECTORS_PER_SESSION) return false;
        await tx.run('INSERT INTO clicks (session_id, page, selector, at) VALUES (?, ?, ?, ?)', [session, page, selector, at]);
        return true;
      }, sessionLock(session)),
    /**
     * The selectors of a page over all kept days, ranked by visitors (summed per day: one visitor's
     * clicks cannot outrank what several clicked), then clicks, then the latest: the day totals of the
     * built days (and months) and the stored clicks of the other times.
     */
    async onPage(page: string, limit: number): Promise<ClickCount[]> {
      const unbuilt = await unbuiltRanges(reads);
      const raw = unbuilt.map(
        (r) =>
          `SELECT selector, COUNT(*), COUNT(DISTINCT session_id), MAX(at) FROM clicks WHERE page = ? AND at >= ?${r.end === null ? '' : ' AND at < ?'} GROUP BY selector`,
      );
      return reads.all<ClickCount>(
        `SELECT selector, SUM(clicks) AS clicks, SUM(visitors) AS visitors, MAX(last_at) AS last FROM (
           SELECT selector, clicks, visitors, last_at FROM stats_clicks WHERE page = ? AND day IN (SELECT day FROM stats_built)
             AND (length(day) = 7 OR substr(day, 1, 7) NOT IN (SELECT day FROM stats_built WHERE length(day) = 7))
           UNION ALL ${raw.join(' UNION ALL ')}
         ) t GROUP BY selector ORDER BY SUM(visitors) DESC, SUM(clicks) DESC, MAX(last_at) DESC, selector LIMIT ?`,
        [page, ...unbuilt.flatMap((r) => [page, r.start, ...(r.end === null ? [] : [r.end])]), limit],
      );
    },
    /** The clicks view's read: the most clicked pages of a period and their selectors (clicks-pages.ts). */
    pages: clickedPages(sql, reads),
    /** The day totals of `days`, counted from the stored rows (the builder reads these and writes them, totals-slices.ts). */
    async countForTotals(days: readonly Day[]) {
      const rows = await countDays(days);
      return days.map((day, i) => ({ day: day.day, rows: rows.filter((r) => r.i === i) }));
    },
    /**
     * PostgreSQL, inside the builder's transaction: the totals of `days` (those of countForTotals)
     * counted and inserted in the database server, none of their rows (one per page and selector)
     * read into the collector.
     */
    async keepForTotals(tx: Sql, days: readonly Day[]): Promise<void> {
      if (days.length === 0) return;
      const count = countSql(days, null, []);
      const named = indexTable(
        'n',
        days.map((day, i) => [i, day.day, day.end]),
      );
      await tx.run(
        `${count.head}, ${named.sql} INSERT INTO stats_clicks (day, page, selector, clicks, visitors, last_at)
         SELECT n.day, c.page, c.selector, c.clicks, c.visitors, c.last_at FROM (${count.body}) c JOIN n ON n.i = c.i`,
        [...count.headParams, ...named.params, ...count.bodyParams],
      );
    },
    /** One day's totals as the builder writes them (totals-slices.ts). */
    dayTotals: (
      rows: ReadonlyArray<{ page: string; selector: string; clicks: number; visitors: number; last_at: number }>,
    ): DayTotals => ({
      table: 'stats_clicks',
      columns: ['page', 'selector', 'clicks', 'visitors', 'last_at'],
      rows: rows.map((r) => [r.page, r.selector, r.clicks, r.visitors, r.last_at]),
    }),
    earliest: async () => (await reads.get<{ at: number | null }>('SELECT MIN(at) AS at FROM clicks'))?.at ?? null,
    /** The sessions behind a pseudonym among the clicks. */
    sessionsOf: async (pseudonym: string) =>
      (
        await sql.all<{ id: string }>('SELECT DISTINCT session_id AS id FROM clicks WHERE session_id >= ? AND session_id < ?', [
          pseudonym,
          `${pseudonym}g`,
        ])
      ).map((r) => r.id),
    async erase(tx: Sql, sessions: readonly string[]): Promise<number> {
      let records = 0;
      for (const session of sessions) {
        // the day totals' pages with a query that the session clicked on: every day's, without their
        // page and selector, as the retention leaves them (another visitor's clicks there too)
        const pages = await tx.all<{ page: string }>('SELECT DISTINCT page FROM clicks WHERE session_id = ? AND page LIKE ?', [
          session,
          '%?%',
        ]);
        await unlabel(
          tx,
          unlabelled,
          (list) => `page IN (${list})`,
          pages.map((r) => r.page),
        );
        records += await tx.run('DELETE FROM clicks WHERE session_id = ?', [session]);
      }
      return records;
    },
    /**
     * Retention: clicks before `before`; the day totals of those days summed per day under no page
     * and no selector (a page's address can carry a query; docs/collector.md "Retention").
     */
    retention: (before: number): Step[] => [
      { name: 'clicks', table: 'clicks', where: 'at < ?', params: [before] },
      collapseStep('totalLabels', 'stats_clicks', "(page <> '' OR selector <> '')", before, unlabelled),
    ],
    clearTotals: (tx: Sql) => tx.run('DELETE FROM stats_clicks'),
    /** The month totals (`day` = `YYYY-MM`): each page's and selector's sums over the month's days. */
    monthSum: {
      table: 'stats_clicks',
      key: ['page', 'selector'],
      sums: [
        ['clicks', 'SUM(clicks)'],
        ['visitors', 'SUM(visitors)'],
        ['last_at', 'MAX(last_at)'],
      ],
      where: '',
    } satisfies MonthSum,
  };
}

/**
 * countDays' statement (`days` not empty): its `WITH` list and its query (per day index, page and
 * selector: clicks, visitors, latest), each with its parameters.
 */
function countSql(days: readonly Day[], page: string | null, filter: VisitFilter) {
  const d = dayTable(days);
  const pages = [...(page === null ? [] : [page]), ...filter.filter(([name]) => name === 'page').map(([, value]) => value)];
  const inVisit = inMatchingVisit(filter, 'c.session_id', 'c.at');
  return {
    head: `WITH ${d.sql}`,
    body: `SELECT d.i AS i, c.page AS page, c.selector AS selector, COUNT(*) AS clicks, COUNT(DISTINCT c.session_id) AS visitors,
         MAX(c.at) AS last_at
       FROM d CROSS JOIN clicks c
       WHERE c.at >= d.s AND c.at < d.e${pages.map(() => ' AND c.page = ?').join('')} AND ${d.within('c.at')}${inVisit.sql}
       GROUP BY d.i, c.page, c.selector`,
    headParams: d.params,
    bodyParams: [...pages, ...d.span, ...inVisit.params],
  };
}

/** The rows of stats_clicks that `where` names summed per day into its row without page and selector, then deleted. */
function unlabelled(where: string): [string, string] {
  return [
    `INSERT INTO stats_clicks (day, page, selector, clicks, visitors, last_at)
     SELECT day, '', '', SUM(clicks), SUM(visitors), MAX(last_at) FROM stats_clicks WHERE ${where} GROUP BY day
     ON CONFLICT (day, page, selector) DO UPDATE SET clicks = stats_clicks.clicks + excluded.clicks,
       visitors = stats_clicks.visitors + excluded.visitors,
       last_at = CASE WHEN excluded.last_at > stats_clicks.last_at THEN excluded.last_at ELSE stats_clicks.last_at END`,
    `DELETE FROM stats_clicks WHERE ${where}`,
  ];
}

export type ClicksStore = ReturnType<typeof clicksStore>;
