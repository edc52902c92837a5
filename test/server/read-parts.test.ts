import { describe, expect, it } from 'vitest';
import type { Reads } from '../../collector/server/store/sql';
import type { AgentInfo } from '../../collector/server/store/types';
import { visitsStore } from '../../collector/server/store/visits';
import type { VisitFilter } from '../../collector/server/store/visits-totals';
import { memoryStore, testVisitor as visitor } from '../support/store';

// A filtered read of many days from the stored rows (two filters, or a period not made of whole
// months) with two SQLite reader threads: the days in two parts of consecutive days, a statement for
// each, asked at once (collector/server/store/visits-totals-read.ts, answer). At 1 M page views a
// year's read of two visit dimensions took 0.8 to 1 s as one statement. The figures must be the
// same as one statement's: a visit begun before a part's first midnight and going on past it counts
// once, with each page view in its own part.

const DAY = 86_400_000;
const START = Date.UTC(2025, 2, 1);
const PAGES = ['http://lichtwerk.test/', 'http://lichtwerk.test/galerie.html', 'http://lichtwerk.test/kontakt.html'];

describe('a filtered read of many days on two reader threads', () => {
  it('is counted in two parts asked at once, with the figures of one statement (a visit across the parts’ midnight once)', async () => {
    const { db, sql } = await memoryStore();
    // one statement at a time: the connection itself (no `parallel`)
    const single: Reads = sql;
    /** The counting statements (those with a table of days) and how many were asked at once, at most. */
    const counts: number[] = [];
    let asked = 0;
    let most = 0;
    const two: Reads = {
      parallel: 2,
      async all<T>(text: string, params?: readonly unknown[]) {
        const counting = text.includes('d (i, s, e) AS (VALUES');
        if (counting) counts.push(text.split('CAST(? AS INTEGER)').length - 1);
        asked++;
        most = Math.max(most, asked);
        // a turn of the event loop, as a reader thread's answer takes: the other part is asked meanwhile
        await new Promise((resolve) => setImmediate(resolve));
        try {
          return await sql.all<T>(text, params);
        } finally {
          asked--;
        }
      },
      get: (text, params) => sql.get(text, params),
    };
    const writer = visitsStore(sql, single);
    // 60 days, each with one visit: begun at 23:55, its second page view ten minutes later, on the next day
    for (let k = 0; k < 60; k++) {
      const at = START + k * DAY + 23 * 3_600_000 + 55 * 60_000;
      const agent: AgentInfo = {
        device: k % 2 === 0 ? 'mobile' : 'desktop',
        browser: k % 4 < 2 ? 'Chrome' : 'Firefox',
        os: 'Linux',
      };
      for (const [j, page] of [PAGES[k % 3]!, PAGES[(k + 1) % 3]!].entries())
        await writer.recordHeartbeat(
          visitor(k),
          { page, initialize: true, deviceWidth: 390, deviceHeight: 800, agent },
          at + j * 600_000,
          0,
          START + k * DAY,
        );
    }
    const days = Array.from({ length: 60 }, (_, k) => ({
      day: new Date(START + k * DAY).toISOString().slice(0, 10),
      start: START + k * DAY,
      end: START + (k + 1) * DAY,
    }));
    const filters: VisitFilter[] = [
      [
        ['device', 'mobile'],
        ['browser', 'Chrome'],
      ],
      [
        ['entry', PAGES[0]!],
        ['page', PAGES[1]!],
      ],
      [['page', PAGES[2]!]],
      [['entry', PAGES[2]!]],
    ];
    for (const filter of filters) {
      counts.length = 0;
      most = 0;
      const inParts = visitsStore(sql, two);
      const whole = visitsStore(sql, single);
      const parted = { totals: await inParts.totals(days, filter), perDay: await inParts.perDay(days, false, filter) };
      // two parts of 30 days, asked at once (once for the totals and once for the chart: not shared
      // when asked one after the other)
      expect(counts).toEqual([30, 30, 30, 30]);
      expect(most).toBe(2);
      expect(parted).toEqual({ totals: await whole.totals(days, filter), perDay: await whole.perDay(days, false, filter) });
      expect(parted.totals.get('visits')?.get('')?.n).toBeGreaterThan(0);
    }
    // the figures themselves: mobile Chrome is every fourth day's visit (k = 0, 4, ... 56: 15 visits,
    // 30 page views, none of them a bounce); `/` then the gallery every third (k = 0, 3, ... 57: 20
    // visits, and their 20 views of the gallery, each on the day after the visit began); entered on
    // the contact page, k = 2, 5, ... 59: 20 visits, 39 page views (k = 59's second is on 30 April),
    // among them the visit of 30 March (k = 29, the first part's last day), whose view of `/` on 31
    // March is the second part's
    const pair = await visitsStore(sql, two).totals(days, filters[0]!);
    expect(pair.get('visits')?.get('')).toEqual({ n: 15, total: 0 });
    expect([...(pair.get('page')?.values() ?? [])].reduce((sum, p) => sum + p.n, 0)).toBe(30);
    const gallery = await visitsStore(sql, two).perDay(days, false, filters[1]!);
    expect([...gallery.values()].reduce((sum, d) => sum + d.views, 0)).toBe(20);
    expect(gallery.get('2025-04-01')).toEqual({ views: 1, visitors: 1 });
    const contact = await visitsStore(sql, two).totals(days, filters[3]!);
    expect(contact.get('visits')?.get('')?.n).toBe(20);
    expect([...(contact.get('page')?.values() ?? [])].reduce((sum, p) => sum + p.n, 0)).toBe(39);
    const contactDays = await visitsStore(sql, two).perDay(days, false, filters[3]!);
    expect([contactDays.get('2025-03-30'), contactDays.get('2025-03-31')]).toEqual([
      { views: 1, visitors: 1 },
      { views: 1, visitors: 1 },
    ]);
    db.close();
  });
});
