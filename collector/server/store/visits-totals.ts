import { builtDays, coverage, coveredRows, type Day, type Range } from './rollups';
import type { Reads, Sql } from './sql';
import type { DayTotals, MonthSum } from './totals-slices';
import type { EngineName } from './visits-count';
import type { VisitFilter } from './visits-dimensions';
import { keepDaysInServer, rowCounts } from './visits-row-counts';
import { totalsReads, type TotalsRead } from './visits-totals-read';
import { TOP_LABELS, type Totals, type Wanted } from './visits-top';

/**
 * The visits area's day totals (`stats_visits`): per day of the site's calendar, per metric and
 * label, `n` and `total`. Metrics: `page` (page views of a page, and their time on page in ms),
 * `visitors` (sessions with a page view that day), `visits` (visits begun that day, and how many
 * were bounces), the visits by each of VISIT_DIMENSIONS, and `hour` (page views and visitors per
 * hour of the day). Read from the totals where a day is built, counted from the rows for the rest.
 * Here the reads and the builder's side; the counts from the rows in visits-row-counts.ts, a totals
 * read in visits-totals-read.ts, their statements in visits-count-statement.ts and
 * visits-totals-statement.ts.
 */

export { SCREEN_CLASSES, VISIT_DIMENSIONS } from './visits-dimensions';
export type { FilterDimension, VisitDimension, VisitFilter } from './visits-dimensions';
export type { LabelTotal, Summary, Totals, Wanted } from './visits-top';
export { inMatchingVisit } from './visits-count';

/** The visits area's totals on an open database (its readers' side, and which engine it is). */
export function visitTotals(reads: Reads, engine: EngineName) {
  const { countable, countDays, chartOf, countHours } = rowCounts(reads, engine);
  const { filteredCoverage, readTotals, answer } = totalsReads(reads, engine, countable);

  /**
   * The totals reads in progress, by their days and filter: a filtered chart of the same days asked
   * meanwhile (the overview asks for both at once) takes its figures from the read's count instead
   * of counting the days again.
   */
  const pending = new Map<string, Promise<TotalsRead>>();
  const keyOf = (days: readonly Range[], filter: VisitFilter) => JSON.stringify([days.map((d) => [d.start, d.end]), filter]);
  const sameDays = (a: readonly Range[], b: readonly Range[]) =>
    a.length === b.length && a.every((d, i) => d.start === b[i]!.start && d.end === b[i]!.end);

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

    /** The day totals of `days`, counted from the stored rows (the builder reads these and writes them, totals-slices.ts). */
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
    /**
     * PostgreSQL, inside the builder's transaction: the totals of `days` (those of countForTotals)
     * counted and inserted in the database server, none of their rows read into the collector
     * (visits-row-counts.ts).
     */
    keepForTotals: (tx: Sql, days: readonly Day[], hoursOf: (day: Day) => Range[]): Promise<void> =>
      keepDaysInServer(tx, days, hoursOf),
    /** One day's totals as the builder writes them (totals-slices.ts). */
    dayTotals: (rows: ReadonlyArray<readonly [string, string, number, number]>): DayTotals => ({
      table: 'stats_visits',
      columns: ['metric', 'label', 'n', 'total'],
      rows,
    }),
    /** The earliest page view kept, if any (where the builder starts). */
    earliest: async () => (await reads.get<{ at: number | null }>('SELECT MIN(at) AS at FROM page_views'))?.at ?? null,

    /** The month totals (`day` = `YYYY-MM`): each label's sums over the month's days (not per hour). */
    monthSum: {
      table: 'stats_visits',
      key: ['metric', 'label'],
      sums: [
        ['n', 'SUM(n)'],
        ['total', 'SUM(total)'],
      ],
      where: "metric <> 'hour'",
    } satisfies MonthSum,
    /**
     * A day of `month` is counted again: the marker of its filtered month totals goes (they are
     * counted again with the month's totals, visits-filtered.ts).
     */
    unmarkMonth: (tx: Sql, month: string) => tx.run('DELETE FROM stats_visits_by_built WHERE month = ?', [month]),
    /** Drop every day total and filtered month total (the time zone changed: days are counted again). */
    async clearTotals(tx: Sql): Promise<void> {
      await tx.run('DELETE FROM stats_visits');
      await tx.run('DELETE FROM stats_visits_by_built');
      await tx.run('DELETE FROM stats_visits_by');
    },
  };
}
