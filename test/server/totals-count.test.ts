import { afterEach, describe, expect, it } from 'vitest';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';
import { driveDashboardScenario } from '../support/dashboard-scenario';
import { keptAndCounted as keptAndCountedOf } from '../support/totals-count';

// What a build keeps for each day is what the builder's count of that day gives (each area's
// countForTotals and dayTotals, counted on the readers' side and read into the collector): on SQLite
// the builder writes those rows; on PostgreSQL it counts and inserts them in the database server
// (each area's keepForTotals), and this compares the two, row by row, on the dashboard scenario (in
// Europe/Berlin: clicks, consents, every dimension) with the day the clocks went forward (23 hours)
// and a day counted again after a late write.

let h: Harness;
afterEach(() => closeHarness(h));

const ZONE = 'Europe/Berlin';
const SITE = 'http://lichtwerk.test';

/** Each built day's rows in the day totals' tables, and the rows its count gives (test/support/totals-count.ts). */
const keptAndCounted = () => keptAndCountedOf(h, ZONE);

describe('the day totals a build keeps', () => {
  it("are the rows the builder's count of each day gives: the dashboard scenario, a day of 23 hours, a day counted again", async () => {
    h = await startCollector({ trustProxy: true, visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
    const admin = await signIn(h.url);
    expect((await admin.post('/admin/api/settings', { timeZone: ZONE })).status).toBe(200);
    // 30 March 2025 in Berlin (23 hours, no 02:00): views at 01:30 CET and 03:30 CEST, a page with a query
    for (const [at, page] of [
      ['2025-03-30T00:30:00Z', `${SITE}/`],
      ['2025-03-30T01:30:00Z', `${SITE}/?q=fruehling`],
    ] as const) {
      h.clock.now = Date.parse(at);
      await h.visitor().beat(page, true);
    }
    await driveDashboardScenario(h);
    await h.buildTotals();
    const first = await keptAndCounted();
    // from 30 March to yesterday (19 May in Berlin)
    expect(first.days[0]).toBe('2025-03-30');
    expect(first.days.at(-1)).toBe('2025-05-19');
    expect(first.kept.length).toBeGreaterThan(50);
    expect(first.kept.filter((row) => row.startsWith('["stats_clicks"'))).not.toEqual([]);
    expect(first.kept.filter((row) => row.startsWith('["stats_consents"'))).not.toEqual([]);
    expect(first.kept.filter((row) => row.startsWith('["stats_visits","2025-03-30","hour"'))).toHaveLength(2);
    expect(first.kept).toEqual(first.counted);

    // a page view of yesterday still open (a late write): yesterday is counted again, its rows replaced
    const late = h.visitor();
    h.clock.now = Date.parse('2025-05-19T21:50:00Z'); // 23:50 in Berlin
    await late.beat(`${SITE}/kontakt.html`, true);
    h.clock.now = Date.parse('2025-05-19T22:05:00Z'); // 00:05 on the 20th: the view of the 19th goes on
    await late.beat(`${SITE}/kontakt.html`);
    h.clock.now = Date.parse('2025-05-20T10:00:00Z');
    expect(await h.query('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 1 }]);
    await h.buildTotals();
    expect(await h.query('SELECT COUNT(*) AS n FROM stats_dirty')).toEqual([{ n: 0 }]);
    const again = await keptAndCounted();
    expect(again.kept).toEqual(again.counted);
    expect(again.kept).not.toEqual(first.kept);
  });
});
