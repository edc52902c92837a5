import {
  FILTERS,
  type ClickPages,
  type Compared,
  type ConsentStats,
  type Row,
  type Shares,
  type Traffic,
} from '../../shared/admin-api';
import type { ClicksStore, ConsentsStore, Decisions, FilterDimension, VisitFilter, VisitsStore } from '../store';
import type { Bucket, Period } from './period';

/**
 * The dashboard's figures for a period and the one before it, from the store's totals (day totals
 * of the days that ended, the stored rows for today): what is counted, and how, is in
 * docs/collector.md "What the dashboard counts". A visit is a session's page views with no gap over
 * 30 minutes, counted on the day it began; visitors are counted per day (a visitor of two days
 * counts on each, as Plausible's daily visitor IDs do); page views and time on page per page view.
 */

/** Rows of each breakdown: a dashboard, not a report. */
const TOP = 20;

// the shared table of filters and the store's dimensions name the same ones (tsc fails otherwise)
const EVERY_DIMENSION: Record<FilterDimension, string> = FILTERS;
const NO_OTHER: [Exclude<keyof typeof FILTERS, FilterDimension>] extends [never] ? true : false = true;
void [EVERY_DIMENSION, NO_OTHER];

/** The breakdowns of the overview: answer key and the store's metric (a visit dimension, or `page`), from the one table of filters. */
const BREAKDOWNS = Object.entries(FILTERS).map(([metric, key]) => [key, metric] as const) as ReadonlyArray<
  readonly [(typeof FILTERS)[keyof typeof FILTERS], FilterDimension]
>;

type Totals = Awaited<ReturnType<VisitsStore['totals']>>;

/** The summary figures of one range's totals (summed by the database over every label). */
function summaryOf(totals: Totals) {
  const { views, time, visitors, visits, bounces } = totals.summary;
  return { views, visitors, visits, bounces, timeOnPage: views === 0 ? 0 : Math.round(time / views) };
}

/** Each bucket's figure from per-day figures (a day bucket is one day, a month its days). */
function perBucket<T>(buckets: readonly Bucket[], byDay: Map<string, T>, sum: (a: T, b: T) => T, none: T): T[] {
  return buckets.map((bucket) => bucket.days.reduce((acc, day) => sum(acc, byDay.get(day.day) ?? none), none));
}

/** The dashboard's reads on the stores. */
export function createDashboard(visits: VisitsStore, clicks: ClicksStore, consents: ConsentsStore) {
  /** Page views and visitors per bucket (hours of one day, days, or months). */
  async function series(period: Period, buckets: readonly Bucket[], days: Period['current']['days'], filter: VisitFilter) {
    if (period.unit === 'hour') return buckets.length === 0 ? [] : visits.perHour(buckets[0]!.days[0]!, buckets, filter);
    const byDay = await visits.perDay(days, period.unit === 'month', filter);
    return perBucket(buckets, byDay, (a, b) => ({ views: a.views + b.views, visitors: a.visitors + b.visitors }), {
      views: 0,
      visitors: 0,
    });
  }

  return {
    /** Everything the overview shows for `period`, counted only of what matches `filter`. */
    async traffic(period: Period, filter: VisitFilter = []): Promise<Omit<Traffic, 'period' | 'filters'>> {
      // the current period's first labels of each list (chosen by the database), then the previous
      // period's figures of those labels only; each chart beside its period's totals, which share
      // their count of the days with it (visits-totals.ts)
      const reading = visits.totals(period.current.days, filter, { top: TOP });
      const shown = reading.then(
        (totals) => new Map(BREAKDOWNS.map(([, metric]) => [metric, [...(totals.get(metric)?.keys() ?? [])]] as const)),
      );
      const [now, current, before, previous] = await Promise.all([
        reading,
        series(period, period.buckets, period.current.days, filter),
        shown.then((labels) => visits.totals(period.previous.days, filter, { labels })),
        shown.then(() => series(period, period.previousBuckets, period.previous.days, filter)),
      ]);
      const a = summaryOf(now);
      const b = summaryOf(before);
      const compared = (key: keyof typeof a): Compared => ({ current: a[key], previous: b[key] });
      const rate = (s: typeof a) => (s.visits === 0 ? 0 : s.bounces / s.visits);
      // in the database's order: most first, ties in code-point order
      const table = (metric: string): Row[] =>
        [...(now.get(metric) ?? new Map<string, { n: number }>())].map(([label, { n }]) => ({
          label,
          current: n,
          previous: before.get(metric)?.get(label)?.n ?? 0,
        }));
      const tables = Object.fromEntries(BREAKDOWNS.map(([key, metric]) => [key, table(metric)])) as Record<
        (typeof BREAKDOWNS)[number][0],
        Row[]
      >;
      const times = now.get('page');
      return {
        summary: {
          views: compared('views'),
          visitors: compared('visitors'),
          visits: compared('visits'),
          bounceRate: { current: rate(a), previous: rate(b) },
          timeOnPage: compared('timeOnPage'),
        },
        // each bucket beside the previous period's it is compared with (for hours: the same clock hour)
        series: period.buckets.map((bucket, i) => {
          const j = period.previousOf[i] ?? -1;
          return {
            label: bucket.label,
            views: current[i]!.views,
            visitors: current[i]!.visitors,
            previousLabel: period.previousBuckets[j]?.label ?? null,
            previousViews: previous[j]?.views ?? 0,
          };
        }),
        ...tables,
        pages: tables.pages.map((row) => {
          const page = times?.get(row.label);
          return { ...row, timeOnPage: page && page.n > 0 ? Math.round(page.total / page.n) : 0 };
        }),
      };
    },
    /**
     * The most clicked selectors per page in the period, each with its count in the previous one;
     * `href` for pages of the site; with `filter`, the clicks on its page and in its visits.
     */
    async clicks(
      period: Period,
      perPage: number,
      maxPages: number,
      href: (page: string) => string | null,
      filter: VisitFilter = [],
    ): Promise<ClickPages['pages']> {
      const pages = await clicks.pages(period.current.days, period.previous.days, perPage, maxPages, filter);
      return pages.map(({ page, total, selectors }) => ({ page, href: href(page), total, selectors }));
    },
    /**
     * Per bucket the visitors who decided in it and the share allowing each category (their state at
     * the bucket's end); the same for the whole period and the previous one. Per day: a visitor
     * deciding on two days counts on each.
     */
    async consentStats(period: Period): Promise<Omit<ConsentStats, 'period'>> {
      const none: Decisions = { deciders: 0, on: [0, 0, 0, 0] };
      const [days, before] = await Promise.all([
        consents.decisionsPerDay(period.current.days),
        consents.decisionsPerDay(period.previous.days),
      ]);
      const buckets =
        period.unit === 'hour'
          ? await consents.decisionsPerHour(period.buckets[0]!.days[0]!, period.buckets)
          : perBucket(period.buckets, days, consents.sum, none);
      const total = (byDay: Map<string, Decisions>) => [...byDay.values()].reduce(consents.sum, none);
      return {
        buckets: buckets.map((d, i) => ({ ...sharesOf(d), day: period.buckets[i]!.label })),
        current: sharesOf(total(days)),
        previous: sharesOf(total(before)),
      };
    },
  };
}

/** Deciders and the share of them allowing each category. */
function sharesOf(d: Decisions): Shares {
  const share = (i: number) => (d.deciders === 0 ? 0 : d.on[i]! / d.deciders);
  return { visitors: d.deciders, shares: { 1: share(0), 2: share(1), 3: share(2), 4: share(3) } };
}
