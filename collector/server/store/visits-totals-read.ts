import { coverage, coveredRows, type Day, type Range } from './rollups';
import type { Reads } from './sql';
import { partsOf, type EngineName } from './visits-count';
import { countSql } from './visits-count-statement';
import type { VisitFilter } from './visits-dimensions';
import { readFilteredMonths } from './visits-filtered';
import { totalsStatement, type Sources } from './visits-totals-statement';
import { mergeLabels, mergeTop, PART_TOP, sumOf, totalsOf, type Answer, type Totals, type Wanted } from './visits-top';

/**
 * A visits totals read (visits-totals.ts `totals`): which sources hold the period's figures (day and
 * month totals, filtered month totals, the stored rows), its statement or its parts' statements
 * run, and their rows taken apart.
 */

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
export interface TotalsRead {
  totals: Totals;
  raw: readonly Range[];
  chart: Answer['chart'];
}

/** The totals reads on an open database (its readers' side, and which engine it is); `countable` as rowCounts answers it. */
export function totalsReads(reads: Reads, engine: EngineName, countable: (days: readonly Range[]) => Promise<number[]>) {
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
              count: countSql(counted.days, part, counted.filter, false, engine),
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
    const count =
      counted && counted.indices.length > 0 ? countSql(counted.days, counted.indices, counted.filter, false, engine) : null;
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
    const statement = totalsStatement(sources, wanted, limit, counts, engine);
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

  return { filteredCoverage, readTotals, answer };
}
