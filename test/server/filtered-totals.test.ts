import { afterEach, describe, expect, it } from 'vitest';
import { FILTERS, type Traffic } from '../../collector/shared/admin-api';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';
import { driveDashboardScenario } from '../support/dashboard-scenario';

// The filtered month totals (docs/collector.md "Filters"): a dashboard read over 12 months with one
// filter takes each whole month from them and gives the figures counted from the stored rows, for
// every value of every filter the scenario has; an erasure has its months counted again without the
// visitor; a combination of filters is still counted from the rows; they go with the visits'
// retention (they link a visit's labels), and are not counted again once its rows are gone.

let h: Harness;
afterEach(() => closeHarness(h));

const YEAR = '/admin/api/traffic?period=12m';
type Admin = Awaited<ReturnType<typeof signIn>>;
const read = async (filters: readonly string[], admin?: Admin) => {
  admin ??= await signIn(h.url);
  const query = filters.map((f) => `&filter=${encodeURIComponent(f)}`).join('');
  return (await (await admin.get(`${YEAR}${query}`)).json()) as Traffic;
};
/** Every single filter of the 12 months' breakdowns (`name:value`), and two combinations. */
async function everyFilter(): Promise<string[][]> {
  const all = await read([]);
  const single = Object.entries(FILTERS).flatMap(([name, key]) =>
    (all[key] as Array<{ label: string }>).map((row) => [`${name}:${row.label}`]),
  );
  return [...single, ['browser:Chrome', 'page:http://lichtwerk.test/'], ['device:desktop', 'country:unknown']];
}
/** Every read, one sign-in (the clock moves between batches). */
const readEvery = async (filters: readonly string[][]) => {
  const admin = await signIn(h.url);
  return Promise.all(filters.map(async (f) => [f, await read(f, admin)] as const));
};
/** Count the days and the months (the clock in June for May's month totals), then back to the scenario's now. */
async function buildMonths(): Promise<void> {
  const now = h.clock.now;
  await h.buildTotals();
  h.clock.now = Date.parse('2025-06-02T10:00:00Z');
  await h.buildTotals();
  h.clock.now = now;
}

describe('filtered month totals', () => {
  it('a filtered year from the month totals: the figures of the rows, for every filter; an erasure counts the month again', async () => {
    h = await startCollector({ trustProxy: true, visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
    const admin = await signIn(h.url);
    expect((await admin.post('/admin/api/settings', { timeZone: 'Europe/Berlin' })).status).toBe(200);
    await driveDashboardScenario(h);
    const filters = await everyFilter();
    expect(filters.length).toBeGreaterThan(30);
    const fromRows = await readEvery(filters);

    await buildMonths();
    expect(await h.query('SELECT month FROM stats_visits_by_built')).toEqual([{ month: '2025-05' }]);
    expect(await readEvery(filters)).toEqual(fromRows);

    // erase G (1 May, Chrome on Windows, `/` only): May is counted again from the rows left
    const [g] = await h.query('SELECT session_id FROM visits WHERE started_at = (SELECT MIN(started_at) FROM visits)');
    const pseudonym = String(g!.session_id).slice(0, 12);
    expect((await (await signIn(h.url)).post('/admin/api/erase', { visitor: pseudonym })).status).toBe(200);
    expect(await h.query('SELECT month FROM stats_visits_by_built')).toEqual([]);
    const afterErasure = await readEvery(filters);
    const chrome = (answers: typeof fromRows) => answers.find(([f]) => f.join() === 'browser:Chrome')![1].summary.visits.current;
    expect(chrome(afterErasure)).toBe(chrome(fromRows) - 1);
    await buildMonths();
    expect(await h.query('SELECT month FROM stats_visits_by_built')).toEqual([{ month: '2025-05' }]);
    expect(await readEvery(filters)).toEqual(afterErasure);

    // the single filters come from the month totals alone: without the rows, the same figures
    await h.execute('DELETE FROM page_views', [[]]);
    await h.execute('DELETE FROM visits', [[]]);
    const single = filters.filter((f) => f.length === 1);
    expect(await readEvery(single)).toEqual(afterErasure.filter(([f]) => f.length === 1));
    // and a combination from the rows (none left)
    expect((await read(['browser:Chrome', 'page:http://lichtwerk.test/'])).summary.views.current).toBe(0);
  }, 60_000);

  it('a filtered read whose days have a gap (a month from its filtered totals between days from the rows): each row on its own day', async () => {
    h = await startCollector({ trustProxy: true, visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
    const admin = await signIn(h.url);
    expect((await admin.post('/admin/api/settings', { timeZone: 'UTC' })).status).toBe(200);
    // visits in April and in June (from the rows) and in May (from its filtered totals once built)
    const visits: Array<[string, string[]]> = [
      ['2025-04-20T10:00:00Z', ['http://lichtwerk.test/', 'http://lichtwerk.test/kontakt']],
      ['2025-04-30T23:50:00Z', ['http://lichtwerk.test/']],
      ['2025-05-10T08:00:00Z', ['http://lichtwerk.test/', 'http://lichtwerk.test/preise']],
      ['2025-05-31T12:00:00Z', ['http://lichtwerk.test/kontakt']],
      ['2025-06-01T09:00:00Z', ['http://lichtwerk.test/preise', 'http://lichtwerk.test/']],
    ];
    for (const [at, pages] of visits) {
      h.clock.now = Date.parse(at);
      const visitor = h.visitor();
      for (const [k, page] of pages.entries()) {
        await visitor.beat(page, true);
        if (k === 0) h.clock.now += 60_000;
      }
    }
    h.clock.now = Date.parse('2025-06-02T10:00:00Z');
    const filters = (await everyFilter()).filter((f) => f.length === 1);
    expect(filters.length).toBeGreaterThan(5);
    const fromRows = await readEvery(filters);
    await buildMonths();
    expect(await h.query('SELECT month FROM stats_visits_by_built')).toEqual([{ month: '2025-05' }]);
    expect(await readEvery(filters)).toEqual(fromRows);
    // the days' figures: April's and June's page views on their days, May's from its month totals
    const home = fromRows.find(([f]) => f.join() === 'page:http://lichtwerk.test/')![1];
    expect(home.summary.views.current).toBe(4);
  });

  it('go with the rows of their month: the retention run takes them, the builder does not count them again', async () => {
    const jobs: Array<() => void> = [];
    h = await startCollector({ timers: { every: (_ms, run) => (jobs.push(run), () => {}) } });
    const admin = await signIn(h.url);
    expect((await admin.post('/admin/api/settings', { timeZone: 'UTC' })).status).toBe(200);
    h.clock.now = Date.parse('2025-05-01T10:00:00Z');
    await h.visitor().beat('http://lichtwerk.test/', true);
    h.clock.now = Date.parse('2025-06-02T10:00:00Z');
    await h.visitor().beat('http://lichtwerk.test/', true);
    await h.buildTotals();
    const kept = async () => [
      (await h.query("SELECT COUNT(*) AS n FROM stats_visits_by_built WHERE month = '2025-05'"))[0]!.n,
      (await h.query('SELECT COUNT(*) AS n FROM stats_visits_by'))[0]!.n,
    ];
    expect((await kept())[0]).toBe(1);
    expect((await kept())[1]).toBeGreaterThan(10);
    // 400 days (the visits' default) after the end of May and a month: May's rows are gone, and its filtered totals
    h.clock.now = Date.parse('2025-06-01T00:00:00Z') + (400 + 33) * 24 * 60 * 60 * 1000;
    await h.visitor().beat('http://lichtwerk.test/', true);
    // (the hourly run, and the totals' run beside it: the months after May have filtered totals too, of nothing)
    for (const run of jobs) run();
    await expect.poll(kept, { timeout: 10_000 }).toEqual([0, 0]);
    await h.buildTotals();
    expect(await kept()).toEqual([0, 0]);
  });
});
