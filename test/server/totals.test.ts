import { afterEach, describe, expect, it } from 'vitest';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';
import { driveDashboardScenario } from '../support/dashboard-scenario';

// The day totals (docs/collector.md "Day totals"): a dashboard read from the totals of the days that
// ended gives the same figures as one counted from the stored rows, and a write that lands on a day
// already counted gets that day counted again.

let h: Harness;
afterEach(() => closeHarness(h));

/** A collector on the calendar of `timeZone` with its clock at `at`, and a new visitor. */
const visitorAt = async (at: string, timeZone = 'UTC') => {
  h = await startCollector();
  const admin = await signIn(h.url);
  expect((await admin.post('/admin/api/settings', { timeZone })).status).toBe(200);
  const visitor = h.visitor();
  h.clock.now = Date.parse(at);
  return visitor;
};
type Traffic = {
  summary: Record<'views' | 'visits' | 'timeOnPage' | 'bounceRate', { current: number }>;
  pages: Array<{ label: string; current: number }>;
};
/** The overview of the custom days `from` to `to` with each of `filters` (`name:value`), signed in anew. */
const customTraffic = async (from: string, to: string, ...filters: string[]) =>
  (await (
    await (
      await signIn(h.url)
    ).get(
      `/admin/api/traffic?period=custom&from=${from}&to=${to}${filters.map((f) => `&filter=${encodeURIComponent(f)}`).join('')}`,
    )
  ).json()) as Traffic;
/** The traffic summary of 1 May 2025 (a custom range of that day). */
const mayFirst = async () => (await customTraffic('2025-05-01', '2025-05-01')).summary;

const READS = [
  '/admin/api/traffic?period=today',
  '/admin/api/traffic?period=7d',
  '/admin/api/traffic?period=30d',
  '/admin/api/traffic?period=12m',
  '/admin/api/traffic?period=custom&from=2025-05-13&to=2025-05-13',
  '/admin/api/clicks?period=7d',
  '/admin/api/clicks?period=12m',
  '/admin/api/consent-stats?period=7d',
  '/admin/api/consent-stats?period=12m',
];
/** Every read (signed in anew: the test moves the clock past the session's 2 hours). */
const readAll = async () => {
  const admin = await signIn(h.url);
  return Promise.all(READS.map(async (path) => [path, await (await admin.get(path)).json()] as const));
};

describe('day totals', () => {
  it('the dashboard scenario read from the stored rows and from the day and month totals: the same figures', async () => {
    h = await startCollector({ visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
    const admin = await signIn(h.url);
    // the site's zone first: the totals are counted in it
    expect((await admin.post('/admin/api/settings', { timeZone: 'Europe/Berlin' })).status).toBe(200);
    await driveDashboardScenario(h);
    const fromRows = await readAll();
    await h.buildTotals();
    const built = await h.query('SELECT day FROM stats_built WHERE length(day) = 10 ORDER BY day');
    // from the scenario's first day (1 May) to yesterday (19 May, Berlin)
    expect(built.map((r) => r.day)).toEqual(Array.from({ length: 19 }, (_, i) => `2025-05-${String(i + 1).padStart(2, '0')}`));
    expect(await h.query('SELECT COUNT(*) AS n FROM stats_visits')).not.toEqual([{ n: 0 }]);
    expect(await readAll()).toEqual(fromRows);
    // and after the month has ended, from its month totals
    h.clock.now = Date.parse('2025-06-02T10:00:00Z');
    await h.buildTotals();
    expect(await h.query('SELECT day FROM stats_built WHERE length(day) = 7')).toEqual([{ day: '2025-05' }]);
    const later = await readAll();
    const year = later.find(([path]) => path.endsWith('12m'))![1] as { summary: { views: { current: number } } };
    expect(year.summary.views.current).toBe(10);
    // the 12 months now end in June: May counted from its month totals, as from its days
    h.clock.now = Date.parse('2025-05-20T10:00:00Z');
    expect(await readAll()).toEqual(fromRows);
  });

  it('a page view still open past midnight: its day is counted again with its whole time on page', async () => {
    const visitor = await visitorAt('2025-05-01T23:59:00Z');
    await visitor.beat('http://lichtwerk.test/', true);
    h.clock.now = Date.parse('2025-05-02T00:00:30Z');
    await visitor.beat('http://lichtwerk.test/');
    await h.buildTotals(); // 1 May is counted: 90 s on the page so far
    const day = async () => (await mayFirst()).timeOnPage.current;
    expect(await day()).toBe(90_000);
    h.clock.now = Date.parse('2025-05-02T00:10:00Z');
    await visitor.beat('http://lichtwerk.test/'); // still there: the page view of 1 May grows
    expect(await h.query('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 1 }]);
    await h.buildTotals();
    expect(await day()).toBe(11 * 60_000);
    expect(await h.query('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 0 }]);
  });

  it('a visit begun before midnight goes on with a page view after it: its day is counted again (no longer a bounce)', async () => {
    const visitor = await visitorAt('2025-05-01T23:55:00Z');
    await visitor.beat('http://lichtwerk.test/', true);
    h.clock.now = Date.parse('2025-05-02T00:01:00Z');
    await h.buildTotals(); // 1 May is counted: one visit of one page view, a bounce
    const bounceRate = async () => (await mayFirst()).bounceRate.current;
    expect(await bounceRate()).toBe(1);
    h.clock.now = Date.parse('2025-05-02T00:10:00Z');
    await visitor.beat('http://lichtwerk.test/kontakt.html', true); // the same visit (15 minutes), a second page view
    expect(await h.query('SELECT at FROM stats_dirty')).toEqual([{ at: Date.parse('2025-05-01T23:55:00Z') }]);
    await h.buildTotals();
    expect(await bounceRate()).toBe(0);
  });
});

describe('filtered reads', () => {
  it('count a page view in the 25th hour of the day the clocks go back (its quarter hours, all 100)', async () => {
    // 26 October 2025 in Berlin: 00:00 CEST (22:00 UTC the day before) to 00:00 CET (23:00 UTC), 25 hours;
    // a visit at 23:20 and 23:35 (CET), in the day's quarter hours 97 and 98
    const visitor = await visitorAt('2025-10-26T22:20:00Z', 'Europe/Berlin');
    await visitor.beat('http://lichtwerk.test/', true);
    h.clock.now = Date.parse('2025-10-26T22:35:00Z');
    await visitor.beat('http://lichtwerk.test/galerie.html', true);
    h.clock.now = Date.parse('2025-10-28T10:00:00Z');
    const read = (...filters: string[]) => customTraffic('2025-10-26', '2025-10-27', ...filters);
    expect((await read()).summary).toMatchObject({ views: { current: 2 }, visits: { current: 1 } });
    // a visit dimension: the page views found through the visit, each placed in its day by its quarter hour
    const byEntry = await read('entry:http://lichtwerk.test/');
    expect(byEntry.summary).toMatchObject({ views: { current: 2 }, visits: { current: 1 } });
    const both = await read('entry:http://lichtwerk.test/', 'page:http://lichtwerk.test/galerie.html');
    expect(both.summary).toMatchObject({ views: { current: 1 }, visits: { current: 1 } });
  });

  it('count the page views of a matching visit begun the day before (a visit that goes on past midnight)', async () => {
    // one visit (ten minutes between the views): begun on 1 May, its second page view on 2 May
    const visitor = await visitorAt('2025-05-01T23:55:00Z');
    await visitor.beat('http://lichtwerk.test/', true);
    h.clock.now = Date.parse('2025-05-02T00:05:00Z');
    await visitor.beat('http://lichtwerk.test/galerie.html', true);
    expect(await h.query('SELECT COUNT(*) AS n FROM visits')).toEqual([{ n: 1 }]);
    h.clock.now = Date.parse('2025-05-02T10:00:00Z');
    const read = (...filters: string[]) => customTraffic('2025-05-02', '2025-05-02', ...filters);
    const all = await read();
    // 2 May: the gallery's view; the visit belongs to 1 May, the day it began
    expect(all.summary.views.current).toBe(1);
    expect(all.summary.visits.current).toBe(0);
    // filtered by the visit's entry page: the same page view, found through the visit begun before the day
    const byEntry = await read('entry:http://lichtwerk.test/');
    expect(byEntry.summary).toMatchObject({ views: { current: 1 }, visits: { current: 0 } });
    expect(byEntry.pages.map((p) => [p.label, p.current])).toEqual([['http://lichtwerk.test/galerie.html', 1]]);
    // with a page filter beside it, and a visit dimension that does not match
    expect((await read('entry:http://lichtwerk.test/', 'page:http://lichtwerk.test/galerie.html')).summary.views.current).toBe(1);
    expect((await read('entry:http://lichtwerk.test/galerie.html')).summary.views.current).toBe(0);
  });

  it('a page and a visit dimension: a visit begun in the period whose view of the page came after it counts, without the view', async () => {
    // one visit begun on 1 May at 23:55 (`/`), its view of the gallery on 2 May
    const visitor = await visitorAt('2025-05-01T23:55:00Z');
    await visitor.beat('http://lichtwerk.test/', true);
    h.clock.now = Date.parse('2025-05-02T00:05:00Z');
    await visitor.beat('http://lichtwerk.test/galerie.html', true);
    h.clock.now = Date.parse('2025-05-03T10:00:00Z');
    const both = ['entry:http://lichtwerk.test/', 'page:http://lichtwerk.test/galerie.html'];
    // 1 May: the visit (it has a view of the page), none of the page's views
    expect((await customTraffic('2025-05-01', '2025-05-01', ...both)).summary).toMatchObject({
      views: { current: 0 },
      visits: { current: 1 },
    });
    // 2 May: the view, not the visit (begun the day before); both days: one of each
    expect((await customTraffic('2025-05-02', '2025-05-02', ...both)).summary).toMatchObject({
      views: { current: 1 },
      visits: { current: 0 },
    });
    expect((await customTraffic('2025-05-01', '2025-05-02', ...both)).summary).toMatchObject({
      views: { current: 1 },
      visits: { current: 1 },
    });
    // a page the visit never viewed: nothing
    const never = ['entry:http://lichtwerk.test/', 'page:http://lichtwerk.test/kontakt.html'];
    expect((await customTraffic('2025-05-01', '2025-05-02', ...never)).summary).toMatchObject({
      views: { current: 0 },
      visits: { current: 0 },
    });
  });
});
