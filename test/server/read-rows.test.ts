import { describe, expect, it } from 'vitest';
import type { Reads } from '../../collector/server/store/sql';
import type { Heartbeat } from '../../collector/server/store/types';
import { visitsStore } from '../../collector/server/store/visits';
import { memoryStore, testVisitor as visitor } from '../support/store';

// A dashboard read takes its rows into the collector's one thread (the heartbeats' thread): the
// database sums what the read would add up, so a month's filtered read is a few hundred rows, not a
// row per day for every page and label (20,000 to 30,000 at 1 M page views: 20 to 30 ms in which no
// heartbeat was answered). The figures themselves are the ones the totals tests check on both engines.

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 1);

describe("a filtered read's rows", () => {
  it('are summed over the days by the database: one row per page and label, the chart one row per day', async () => {
    const { db, sql } = await memoryStore();
    const returned: Array<Array<{ i: number; metric: string; label: string }>> = [];
    const reads: Reads = {
      all: async <T>(text: string, params?: readonly unknown[]) => {
        const rows = await sql.all<T>(text, params);
        returned.push(rows as Array<{ i: number; metric: string; label: string }>);
        return rows;
      },
      get: (text, params) => sql.get(text, params),
    };
    const visits = visitsStore(sql, reads);
    const days = Array.from({ length: 5 }, (_, k) => ({
      day: new Date(START + k * DAY).toISOString().slice(0, 10),
      start: START + k * DAY,
      end: START + (k + 1) * DAY,
    }));
    // five days, each with three visitors on two pages, every visit from Firefox
    for (const [k, day] of days.entries())
      for (let n = 0; n < 3; n++)
        for (const [j, page] of ['http://lichtwerk.test/', 'http://lichtwerk.test/preise'].entries()) {
          const beat: Heartbeat = {
            page,
            initialize: true,
            deviceWidth: 1280,
            deviceHeight: 800,
            agent: { device: 'desktop', browser: 'Firefox', os: 'Linux' },
          };
          await visits.recordHeartbeat(visitor(k * 10 + n), beat, day.start + 3_600_000 + j * 60_000, 0, day.start);
        }

    const filter = [['browser', 'Firefox']] as const;
    const totals = await visits.totals(days, filter);
    const perDay = await visits.perDay(days, false, filter);
    // the figures: 30 page views of 15 visits of 15 visitors, each day 6 views of 3 visitors
    expect(totals.get('page')).toEqual(
      new Map([
        ['http://lichtwerk.test/', { n: 15, total: 0 }],
        ['http://lichtwerk.test/preise', { n: 15, total: 0 }],
      ]),
    );
    expect(totals.get('visits')?.get('')).toEqual({ n: 15, total: 0 });
    expect(totals.get('visitors')?.get('')).toEqual({ n: 15, total: 0 });
    expect(totals.get('entry')?.get('http://lichtwerk.test/')).toEqual({ n: 15, total: 0 });
    expect([...perDay.values()]).toEqual(days.map(() => ({ views: 6, visitors: 3 })));

    // the rows each read's count took in (the dashboard's overview asks for both at once and they
    // share one count; here one after the other, each its own)
    for (const rows of returned.filter((r) => r.some((row) => row.metric === 'entry'))) {
      const byKey = new Map<string, number>();
      for (const row of rows) byKey.set(`${row.metric} | ${row.label}`, (byKey.get(`${row.metric} | ${row.label}`) ?? 0) + 1);
      // per day: the chart's two figures; everything else once over the five days
      for (const [key, count] of byKey)
        expect([key, count]).toEqual([key, ['views', 'visitors'].includes(key.split(' | ')[0]!) ? 5 : 1]);
    }
    expect(returned.some((r) => r.some((row) => row.metric === 'entry'))).toBe(true);
    db.close();
  });

  it('count no day that ended before the first visit: a year asked of a site three days old makes a table of three days', async () => {
    const { db, sql } = await memoryStore();
    const tables: number[] = [];
    const reads: Reads = {
      all: <T>(text: string, params?: readonly unknown[]) => {
        if (text.includes('d (i, s, e) AS (VALUES')) tables.push(text.split('CAST(? AS INTEGER)').length - 1);
        return sql.all<T>(text, params);
      },
      get: (text, params) => sql.get(text, params),
    };
    const visits = visitsStore(sql, reads);
    // 365 days; the site's first visitor came on the third-last
    const year = Array.from({ length: 365 }, (_, k) => ({
      day: new Date(START + (k - 362) * DAY).toISOString().slice(0, 10),
      start: START + (k - 362) * DAY,
      end: START + (k - 361) * DAY,
    }));
    for (let k = 0; k < 3; k++)
      for (let n = 0; n <= k; n++)
        await visits.recordHeartbeat(
          visitor(k * 10 + n + 1),
          {
            page: 'http://lichtwerk.test/',
            initialize: true,
            deviceWidth: 1280,
            deviceHeight: 800,
            agent: { device: 'desktop', browser: 'Firefox', os: 'Linux' },
          },
          START + k * DAY + 3_600_000,
          0,
          START + k * DAY,
        );
    for (const filter of [[], [['browser', 'Firefox']]] as const) {
      tables.length = 0;
      const perDay = await visits.perDay(year, false, filter);
      const totals = await visits.totals(year, filter);
      // the figures on their own days (1, 2 and 3 visitors), none before
      expect([...perDay.values()].slice(-4)).toEqual([
        { views: 0, visitors: 0 },
        { views: 1, visitors: 1 },
        { views: 2, visitors: 2 },
        { views: 3, visitors: 3 },
      ]);
      expect([...perDay.values()].slice(0, -3).every((d) => d.views === 0 && d.visitors === 0)).toBe(true);
      expect(totals.get('visits')?.get('')).toEqual({ n: 6, total: 6 });
      // every count of the rows had the three days of the site's life, not the year
      expect(tables.length).toBeGreaterThan(0);
      expect(new Set(tables)).toEqual(new Set([3]));
    }
    db.close();
  });
});
