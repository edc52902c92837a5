import { afterEach, describe, expect, it } from 'vitest';
import type { Traffic } from '../../collector/shared/admin-api';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';

// A day's chart by the hour beside the day before, on the days the clocks change (Europe/Berlin):
// an hour is compared with the same clock hour of the day before, not with the hour in the same
// place, and the hour a day of 25 hours has twice is labelled with its offset.

const PAGE = 'http://lichtwerk.test/';
let h: Harness;
afterEach(() => closeHarness(h));

/** A page view at `iso` (UTC), by a new visitor. */
async function viewAt(iso: string): Promise<void> {
  h.clock.now = Date.parse(iso);
  await h.visitor().beat(PAGE, true);
}

/** The chart of one day (a custom period of that day), as pairs of label, views, previous label and previous views. */
async function hours(day: string) {
  const admin = await signIn(h.url);
  expect((await admin.post('/admin/api/settings', { timeZone: 'Europe/Berlin' })).status).toBe(200);
  const res = await admin.get(`/admin/api/traffic?period=custom&from=${day}&to=${day}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as Traffic).series.map((s) => [s.label, s.views, s.previousLabel, s.previousViews]);
}

describe('hours on the days the clocks change (Europe/Berlin)', () => {
  it('27 October 2024 (25 hours): each hour beside the same clock hour of the 26th; 02:00 twice, with its offset', async () => {
    h = await startCollector();
    await viewAt('2024-10-26T01:30:00Z'); // the 26th, 03:30 CEST
    await viewAt('2024-10-26T21:30:00Z'); // the 26th, 23:30 CEST
    await viewAt('2024-10-27T00:30:00Z'); // the 27th, 02:30 CEST (the first 02:00)
    await viewAt('2024-10-27T01:30:00Z'); // the 27th, 02:30 CET (the second)
    await viewAt('2024-10-27T02:30:00Z'); // the 27th, 03:30 CET
    h.clock.now = Date.parse('2024-10-28T12:00:00Z');
    const series = await hours('2024-10-27');
    expect(series).toHaveLength(25);
    expect(series.slice(1, 5)).toEqual([
      ['01:00', 0, '01:00', 0],
      ['02:00 +02:00', 1, '02:00', 0],
      ['02:00 +01:00', 1, null, 0],
      ['03:00', 1, '03:00', 1],
    ]);
    expect(series.at(-1)).toEqual(['23:00', 0, '23:00', 1]);
  });

  it('28 October 2024: the day before had 02:00 twice; the second time has no place in this day', async () => {
    h = await startCollector();
    await viewAt('2024-10-27T00:30:00Z'); // the 27th, the first 02:00
    await viewAt('2024-10-27T01:30:00Z'); // the 27th, the second 02:00
    await viewAt('2024-10-28T01:30:00Z'); // the 28th, 02:30 CET
    h.clock.now = Date.parse('2024-10-29T12:00:00Z');
    const series = await hours('2024-10-28');
    expect(series).toHaveLength(24);
    expect(series.slice(2, 4)).toEqual([
      ['02:00', 1, '02:00 +02:00', 1],
      ['03:00', 0, '03:00', 0],
    ]);
  });

  it('31 March 2024 (23 hours, no 02:00): 03:00 beside the 30th 03:00', async () => {
    h = await startCollector();
    await viewAt('2024-03-30T02:30:00Z'); // the 30th, 03:30 CET
    await viewAt('2024-03-31T01:30:00Z'); // the 31st, 03:30 CEST
    h.clock.now = Date.parse('2024-04-01T12:00:00Z');
    const series = await hours('2024-03-31');
    expect(series).toHaveLength(23);
    expect(series.slice(1, 3)).toEqual([
      ['01:00', 0, '01:00', 0],
      ['03:00', 1, '03:00', 1],
    ]);
  });

  it("a changed time zone is in force when its save is answered: no day of the old zone is read under the new one's name", async () => {
    h = await startCollector();
    const admin = await signIn(h.url);
    expect((await admin.post('/admin/api/settings', { timeZone: 'UTC' })).status).toBe(200);
    // 29 April 23:30 UTC: the 29th in UTC, the 30th (01:30) in Berlin
    await viewAt('2025-04-29T23:30:00Z');
    h.clock.now = Date.parse('2025-05-01T12:00:00Z');
    await h.buildTotals();
    const saved = await admin.post('/admin/api/settings', { timeZone: 'Europe/Berlin' });
    expect(saved.status).toBe(200);
    // at once: the 30th of Berlin has the view (the UTC day of that name had none)
    const res = await admin.get('/admin/api/traffic?period=custom&from=2025-04-30&to=2025-04-30');
    const traffic = (await res.json()) as Traffic;
    expect(traffic.summary.views.current).toBe(1);
    expect(traffic.series.filter((s) => s.views > 0).map((s) => s.label)).toEqual(['01:00']);
  });
});
