import { coverage, coveredRows, dayTable, type Day } from './rollups';
import type { Reads, Sql } from './sql';
import { inMatchingVisit } from './visits-count';
import type { VisitFilter } from './visits-dimensions';

/** The clicks area's read for the clicks view (clicks.ts `pages`): the most clicked pages and selectors of two periods. */

/** A page of the clicks view: its clicks in a period and the one before, and its most clicked selectors. */
export interface ClickedPage {
  page: string;
  total: { current: number; previous: number };
  selectors: Array<{ selector: string; current: number; previous: number }>;
}

/** The clicks view's read on an open database. */
export function clickedPages(sql: Sql, reads: Reads) {
  /**
   * The most clicked pages of `current` (days), at most `maxPages`, most clicks first (ties in
   * code-point order), each with its `perPage` most clicked selectors (then most clicked in
   * `previous`, then in code-point order) and the clicks of each, and of the page, in `previous`.
   * From the day totals where built, the stored rows for the rest (filtered, from the stored rows:
   * the day totals hold no visits), added up and ranked by the database: the collector's thread
   * takes in the rows shown, not every page and selector of both periods. The clicks on no page or
   * selector (the day totals' rows whose labels retention removed) count in no list, but in their
   * page's total.
   */
  return async function pages(
    current: readonly Day[],
    previous: readonly Day[],
    perPage: number,
    maxPages: number,
    filter: VisitFilter = [],
  ): Promise<ClickedPage[]> {
    const pages = filter.filter(([name]) => name === 'page').map(([, value]) => value);
    const inVisit = inMatchingVisit(filter, 'c.session_id', 'c.at');
    // the days' tables come first in the text, then the sources' rows: their parameters in that order
    const params: unknown[] = [];
    const tableParams: unknown[] = [];
    const tables: string[] = [];
    const arms: string[] = [];
    for (const [p, days] of [current, previous].entries()) {
      const { months, days: built, raw } = filter.length > 0 ? { months: [], days: [], raw: days } : await coverage(reads, days);
      if (raw.length > 0) {
        // the period's days as a table of its own (`d0`, `d1`), each its own span of the time index
        const d = dayTable(raw);
        tables.push(d.sql.replace(/^d /, `d${p} `));
        tableParams.push(...d.params);
        arms.push(
          `SELECT ${p} AS p, c.page AS page, c.selector AS selector, COUNT(*) AS n
           FROM d${p} CROSS JOIN clicks c
           WHERE c.at >= d${p}.s AND c.at < d${p}.e${pages.map(() => ' AND c.page = ?').join('')} AND ${d.within('c.at')}${inVisit.sql}
           GROUP BY d${p}.i, c.page, c.selector`,
        );
        params.push(...pages, ...d.span, ...inVisit.params);
      }
      if (months.length + built.length > 0) {
        const covered = coveredRows(months, built);
        arms.push(`SELECT ${p}, page, selector, clicks FROM stats_clicks WHERE ${covered.sql}`);
        params.push(...covered.params);
      }
    }
    if (arms.length === 0 || !arms.some((arm) => /^SELECT 0/.test(arm))) return [];
    const byText = (column: string) => (sql.engine === 'postgres' ? `${column} COLLATE "C"` : column);
    const rows = await reads.all<{ kind: number; page: string; selector: string; cur: number; prev: number; k: number }>(
      `WITH ${[
        ...tables,
        `src (p, page, selector, n) AS (${arms.join(' UNION ALL ')})`,
        `g AS (SELECT page, selector, SUM(CASE WHEN p = 0 THEN n ELSE 0 END) AS cur, SUM(CASE WHEN p = 1 THEN n ELSE 0 END) AS prev
           FROM src GROUP BY page, selector)`,
        `tp AS (SELECT page, cur, prev, k FROM (
           SELECT page, SUM(cur) AS cur, SUM(prev) AS prev, ROW_NUMBER() OVER (ORDER BY SUM(cur) DESC, ${byText('page')}) AS k
           FROM g WHERE page <> '' GROUP BY page HAVING SUM(cur) > 0
         ) x WHERE k <= ${maxPages})`,
      ].join(',\n         ')}
       SELECT 0 AS kind, page, '' AS selector, cur, prev, k FROM tp
       UNION ALL
       SELECT 1, page, selector, cur, prev, k FROM (
         SELECT g.page AS page, g.selector AS selector, g.cur AS cur, g.prev AS prev,
           ROW_NUMBER() OVER (PARTITION BY g.page ORDER BY g.cur DESC, g.prev DESC, ${byText('g.selector')}) AS k
         FROM g JOIN tp ON tp.page = g.page WHERE g.selector <> '' AND g.cur > 0
       ) s WHERE k <= ${perPage}`,
      [...tableParams, ...params],
    );
    const out = rows
      .filter((r) => Number(r.kind) === 0)
      .sort((a, b) => Number(a.k) - Number(b.k))
      .map((r) => ({
        page: r.page,
        total: { current: Number(r.cur), previous: Number(r.prev) },
        selectors: [] as Array<{ selector: string; current: number; previous: number; k: number }>,
      }));
    const byPage = new Map(out.map((page) => [page.page, page]));
    for (const r of rows)
      if (Number(r.kind) === 1)
        byPage
          .get(r.page)
          ?.selectors.push({ selector: r.selector, current: Number(r.cur), previous: Number(r.prev), k: Number(r.k) });
    return out.map((page) => ({
      ...page,
      selectors: page.selectors
        .sort((a, b) => a.k - b.k)
        .map(({ selector, current, previous }) => ({ selector, current, previous })),
    }));
  };
}
