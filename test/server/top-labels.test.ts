import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createDashboard } from '../../collector/server/admin/dashboard';
import { periodOf } from '../../collector/server/admin/period';
import { clicksStore } from '../../collector/server/store/clicks';
import { consentsStore } from '../../collector/server/store/consents';
import { postgresReader, postgresSql } from '../../collector/server/store/postgres';
import type { Reads, Sql } from '../../collector/server/store/sql';
import { sqliteSql } from '../../collector/server/store/sqlite';
import { visitsStore } from '../../collector/server/store/visits';
import type { VisitFilter } from '../../collector/server/store/visits-totals';
import { closeHarness, type Harness, signIn, startCollector } from '../support/collector';

// Audit finding 5: the overview, the clicks view and the stats API took every distinct label of a
// period into the collector's one thread (a Map of 200,000 pages, 0.45 s without a heartbeat) and
// kept the top 20 in JavaScript. The database now adds up the sources (day and month totals,
// filtered month totals, the rows of days not built) and ranks them; the reads' rows here are
// counted while 5,000 distinct pages, campaigns, referring pages and selectors are in each
// period, and every figure is checked against a count of what was inserted, made here in plain
// JavaScript (ties in code-point order, the previous period's counts of the rows shown, the
// summary over every label). On SQLite the reads run as on two reader threads (a filtered read of
// many days in parts); on PostgreSQL on its one reader connection. (Most of its time is the day
// totals' builder on PostgreSQL: 20 s for the 80 days and two months alone, 55 s in a loaded suite.)

let h: Harness;
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  await closeHarness(h);
});

const DAY = 86_400_000;
const SITE = 'http://lichtwerk.test';
/** The collector's today: 20 June 2025 (UTC); the data from 1 April. */
const NOW = Date.parse('2025-06-20T12:00:00Z');
const FIRST = Date.parse('2025-04-01T00:00:00Z');
const TAIL = 5_000;

/** The first pages by views: counts with ties, and at ranks 19 to 22 four labels of one count whose order is their bytes'. */
const HEAD: Array<[string, number]> = [
  ...Array.from({ length: 18 }, (_, k) => [`${SITE}/top/${k}`, 60 - 2 * Math.floor(k / 3)] as [string, number]),
  [`${SITE}/~`, 20],
  [`${SITE}/é`, 20],
  [`${SITE}/a`, 20],
  [`${SITE}/Z`, 20],
  [`${SITE}/\u{1F600}`, 19],
  [`${SITE}/\uFF21`, 19],
];

interface View {
  page: string;
  at: number;
  t: number;
}
interface Visit {
  id: number;
  session: string;
  views: View[];
  browser: string;
  device: string;
  referrer: string | null;
  campaign: string | null;
}

/** Deterministic visits: the head pages' visits on each day of both 30-day periods, and TAIL visits of distinct pages per period. */
function makeVisits(): Visit[] {
  const visits: Visit[] = [];
  const add = (day: number, pages: string[], j: number, labels: { referrer?: string | null; campaign?: string | null } = {}) => {
    const start = FIRST + day * DAY + 8 * 3_600_000 + (j % 600) * 60_000;
    visits.push({
      id: visits.length + 1,
      // a few sessions of several visits a day (visitors are counted per day)
      session: (j % 5 === 0 ? `h${j % 35}` : `v${visits.length}`).padEnd(64, '0'),
      views: pages.map((page, k) => ({ page, at: start + k * 1000, t: 1000 * ((j + k) % 7) })),
      browser: ['Firefox', 'Chrome', 'Safari'][j % 3]!,
      device: j % 2 === 0 ? 'desktop' : 'mobile',
      referrer: labels.referrer === undefined ? (j % 4 === 0 ? null : `search${j % 9}.example`) : labels.referrer,
      campaign: labels.campaign === undefined ? (j % 3 === 0 ? 'spring' : null) : labels.campaign,
    });
  };
  let j = 0;
  // the head pages: their counts in the current 30 days (May 22 to June 20: days 51 to 80), fewer
  // in the 30 before (days 21 to 50) and two in the days before those; every fourth visit goes on to
  // a page of its own
  for (const [k, [page, count]] of HEAD.entries()) {
    const next = (n: number) => (n % 4 === 0 ? [page, `${SITE}/next`] : [page]);
    for (let n = 0; n < count; n++) add(51 + ((n * 7 + k) % 30), next(n), j++);
    for (let n = 0; n < (k % 5) + 1; n++) add(21 + ((n * 3 + k) % 30), next(n), j++);
    for (let n = 0; n < 2; n++) add((n * 5 + k) % 21, next(n), j++);
  }
  // TAIL distinct pages (and campaigns and referring hosts) in each period, one view each
  for (let i = 0; i < TAIL; i++) {
    add(51 + (i % 30), [`${SITE}/?junk=${i}`], j++, { referrer: `r${i}.example`, campaign: `c${i}` });
    add(21 + (i % 30), [`${SITE}/?old=${i}`], j++, { referrer: `r${i}.example`, campaign: `c${i}` });
  }
  return visits;
}

interface Click {
  session: string;
  page: string;
  selector: string;
  at: number;
}

/** Clicks: 400 pages, TAIL distinct selectors in each period, and one page's selectors tied at its 10th. */
function makeClicks(): Click[] {
  const clicks: Click[] = [];
  const at = (day: number, n: number) => FIRST + day * DAY + 9 * 3_600_000 + n * 1000;
  for (let i = 0; i < TAIL; i++) {
    clicks.push({ session: 'k'.padEnd(64, '0'), page: `${SITE}/c/${i % 400}`, selector: `#s${i}`, at: at(51 + (i % 30), i) });
    clicks.push({ session: 'k'.padEnd(64, '0'), page: `${SITE}/c/${i % 400}`, selector: `#t${i}`, at: at(20 + (i % 30), i) });
  }
  // the page with most clicks: 14 selectors of 3 clicks now (ties), some clicked before too
  for (let s = 0; s < 14; s++)
    for (let n = 0; n < 3; n++)
      clicks.push({ session: `q${n}`.padEnd(64, '0'), page: `${SITE}/`, selector: `b${s}`, at: at(60 + s, n) });
  for (let s = 0; s < 14; s += 3)
    clicks.push({ session: 'q9'.padEnd(64, '0'), page: `${SITE}/`, selector: `b${s}`, at: at(30, s) });
  return clicks;
}

const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const SCREEN = 'unknown';

/** The overview as counted here from the visits: what `/admin/api/traffic` must answer for [from, to) and [pFrom, pTo). */
function expected(visits: Visit[], current: [number, number], previous: [number, number], keep: (v: Visit) => boolean) {
  const count = ([from, to]: [number, number]) => {
    const metrics = new Map<string, Map<string, { n: number; total: number }>>();
    const add = (metric: string, label: string | null, n: number, total = 0) => {
      if (label === null) return;
      const labels = metrics.get(metric) ?? new Map<string, { n: number; total: number }>();
      metrics.set(metric, labels);
      const s = labels.get(label) ?? { n: 0, total: 0 };
      labels.set(label, { n: s.n + n, total: s.total + total });
    };
    const visitors = new Set<string>();
    let visitsN = 0;
    let bounces = 0;
    for (const v of visits.filter(keep)) {
      for (const view of v.views)
        if (view.at >= from && view.at < to) {
          add('page', view.page, 1, view.t);
          visitors.add(`${v.session} ${Math.floor(view.at / DAY)}`);
        }
      if (v.views[0]!.at < from || v.views[0]!.at >= to) continue;
      visitsN++;
      if (v.views.length === 1) bounces++;
      add('entry', v.views[0]!.page, 1);
      add('exit', v.views.at(-1)!.page, 1);
      add('referrer', v.referrer === null ? null : `${v.referrer}/`, 1);
      add('source', v.referrer, 1);
      add('utm_campaign', v.campaign, 1);
      add('device', v.device, 1);
      add('browser', v.browser, 1);
      add('os', 'Linux', 1);
      add('country', 'unknown', 1);
      add('screen', SCREEN, 1);
    }
    let views = 0;
    let time = 0;
    for (const s of metrics.get('page')?.values() ?? []) {
      views += s.n;
      time += s.total;
    }
    return { metrics, views, time, visitors: visitors.size, visits: visitsN, bounces };
  };
  const now = count(current);
  const before = count(previous);
  const table = (metric: string) =>
    [...(now.metrics.get(metric) ?? new Map<string, { n: number; total: number }>())]
      .sort(([a, x], [b, y]) => y.n - x.n || byCodePoint(a, b))
      .slice(0, 20)
      .map(([label, s]) => ({
        label,
        current: s.n,
        previous: before.metrics.get(metric)?.get(label)?.n ?? 0,
        ...(metric === 'page' ? { timeOnPage: Math.round(s.total / s.n) } : {}),
      }));
  return {
    summary: {
      views: { current: now.views, previous: before.views },
      visitors: { current: now.visitors, previous: before.visitors },
      visits: { current: now.visits, previous: before.visits },
      bounceRate: { current: now.bounces / now.visits, previous: before.visits === 0 ? 0 : before.bounces / before.visits },
      timeOnPage: {
        current: Math.round(now.time / now.views),
        previous: before.views === 0 ? 0 : Math.round(before.time / before.views),
      },
    },
    pages: table('page'),
    entryPages: table('entry'),
    exitPages: table('exit'),
    referrers: table('referrer'),
    sources: table('source'),
    utmCampaign: table('utm_campaign'),
    browsers: table('browser'),
    devices: table('device'),
  };
}

/** The clicks view as counted here: 20 pages by clicks, each with its 10 first selectors (then by previous clicks, then code points). */
function expectedClicks(clicks: Click[], current: [number, number], previous: [number, number]) {
  const count = ([from, to]: [number, number]) => {
    const pages = new Map<string, Map<string, number>>();
    for (const c of clicks)
      if (c.at >= from && c.at < to) {
        const selectors = pages.get(c.page) ?? new Map<string, number>();
        pages.set(c.page, selectors);
        selectors.set(c.selector, (selectors.get(c.selector) ?? 0) + 1);
      }
    return pages;
  };
  const now = count(current);
  const before = count(previous);
  return [...now]
    .map(([page, selectors]) => {
      const earlier = before.get(page) ?? new Map<string, number>();
      const rows = [...selectors]
        .map(([selector, n]) => ({ selector, current: n, previous: earlier.get(selector) ?? 0 }))
        .sort((x, y) => y.current - x.current || y.previous - x.previous || byCodePoint(x.selector, y.selector));
      const total = {
        current: rows.reduce((s, r) => s + r.current, 0),
        previous: [...earlier.values()].reduce((s, n) => s + n, 0),
      };
      return { page, total, selectors: rows.slice(0, 10) };
    })
    .sort((x, y) => y.total.current - x.total.current || byCodePoint(x.page, y.page))
    .slice(0, 20);
}

/** The collector's database with the visits and clicks, and the dashboard on reads whose rows are counted. */
async function setUp() {
  h = await startCollector({ visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
  const admin = await signIn(h.url);
  expect((await admin.post('/admin/api/settings', { timeZone: 'UTC' })).status).toBe(200);
  h.clock.now = NOW;
  const visits = makeVisits();
  const clicks = makeClicks();
  const sessions = new Map<string, number>();
  for (const v of visits) sessions.set(v.session, Math.min(sessions.get(v.session) ?? Infinity, v.views[0]!.at));
  await h.execute(
    'INSERT INTO sessions (id, first_seen, last_seen, user_agent) VALUES (?, ?, ?, ?)',
    [...sessions].map(([id, at]) => [id, at, NOW, 'test']),
  );
  await h.execute(
    `INSERT INTO visits (id, session_id, started_at, last_view_at, views, entry_page, exit_page, referrer, referrer_path, source,
       utm_campaign, device, browser, os, country) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'Linux', NULL)`,
    visits.map((v) => [
      v.id,
      v.session,
      v.views[0]!.at,
      v.views.at(-1)!.at,
      v.views.length,
      v.views[0]!.page,
      v.views.at(-1)!.page,
      v.referrer,
      v.referrer === null ? null : '/',
      v.referrer,
      v.campaign,
      v.device,
      v.browser,
    ]),
  );
  await h.execute(
    'INSERT INTO page_views (visit_id, session_id, page, at, last_at) VALUES (?, ?, ?, ?, ?)',
    visits.flatMap((v) => v.views.map((p) => [v.id, v.session, p.page, p.at, p.at + p.t])),
  );
  await h.execute(
    'INSERT INTO clicks (session_id, page, selector, at) VALUES (?, ?, ?, ?)',
    clicks.map((c) => [c.session, c.page, c.selector, c.at]),
  );

  // the reads, each statement's rows counted
  const returned: number[] = [];
  let reads: Reads;
  let writes: Sql;
  if (h.databaseUrl) {
    const reader = postgresReader(h.databaseUrl);
    writes = postgresSql(h.databaseUrl, 1);
    closers.push(
      () => reader.close(),
      () => writes.close(),
    );
    reads = reader;
  } else {
    const db = new Database(h.dbPath, { readonly: true });
    closers.push(() => db.close());
    const sql = sqliteSql(db);
    writes = sql;
    // as the collector's two reader threads: a filtered read of many days is counted in two parts
    reads = {
      parallel: 2,
      all: async <T>(text: string, params?: readonly unknown[]) => {
        await new Promise((resolve) => setImmediate(resolve));
        return sql.all<T>(text, params);
      },
      get: (text, params) => sql.get(text, params),
    };
  }
  const counted: Reads = {
    parallel: reads.parallel,
    all: async <T>(text: string, params?: readonly unknown[]) => {
      const rows = await reads.all<T>(text, params);
      returned.push(rows.length);
      return rows;
    },
    get: (text, params) => reads.get(text, params),
  };
  const dashboard = createDashboard(visitsStore(writes, counted), clicksStore(writes, counted), consentsStore(writes, counted));
  const period = (name: string) => periodOf(new URLSearchParams({ period: name }), NOW, 'UTC');
  /** A dashboard read and the rows its statements answered (each, and all of them). */
  const measured = async <T>(read: () => Promise<T>) => {
    returned.length = 0;
    const answer = await read();
    return { answer, most: Math.max(0, ...returned), all: returned.reduce((a, b) => a + b, 0) };
  };
  return { visits, clicks, dashboard, period, measured };
}

/** The range of a period's days. */
const rangeOf = (days: ReadonlyArray<{ start: number; end: number }>): [number, number] => [days[0]!.start, days.at(-1)!.end];

describe('the dashboard’s lists with many distinct labels', () => {
  it('the database ranks them: the rows read are bounded, every figure is the one counted here', async () => {
    const { visits, clicks, dashboard, period, measured } = await setUp();
    const check = async (name: string, filter: VisitFilter = []) => {
      const p = period(name);
      const keep = (v: Visit) => filter.every(([dim, value]) => (dim === 'browser' ? v.browser : v.device) === value);
      const { answer, most, all } = await measured(() => dashboard.traffic(p, filter));
      // the lists shown, and bounded rows: about 20 per list and a few more, not 5,000 of each
      expect(most).toBeLessThanOrEqual(1_000);
      expect(all).toBeLessThanOrEqual(3_000);
      expect(answer).toMatchObject(expected(visits, rangeOf(p.current.days), rangeOf(p.previous.days), keep));
      return answer;
    };
    const checkClicks = async (name: string) => {
      const p = period(name);
      const { answer, most, all } = await measured(() => dashboard.clicks(p, 10, 20, () => null));
      expect(most).toBeLessThanOrEqual(300);
      expect(all).toBeLessThanOrEqual(600);
      expect(answer.map(({ page, total, selectors }) => ({ page, total, selectors }))).toEqual(
        expectedClicks(clicks, rangeOf(p.current.days), rangeOf(p.previous.days)),
      );
    };

    // every day from the stored rows
    const traffic = await check('30d');
    // four pages of 20 views at ranks 20 to 23 (18 pages and /next before them): the first in
    // code-point order (their bytes), not in a collation's order, which has `a` before `Z`
    expect(traffic.pages.slice(18).map((r) => [r.label, r.current])).toEqual([
      [`${SITE}/top/17`, 50],
      [`${SITE}/Z`, 20],
    ]);
    await check('30d', [['browser', 'Firefox']]);
    await check('12m', [
      ['browser', 'Chrome'],
      ['device', 'desktop'],
    ]);
    await checkClicks('30d');

    // the days that ended from their day totals, April and May from their month totals, one filter
    // from the filtered month totals of those months
    await h.buildTotals();
    expect((await h.query('SELECT day FROM stats_built WHERE length(day) = 7 ORDER BY day')).map((r) => r.day)).toEqual([
      '2025-04',
      '2025-05',
    ]);
    await check('30d');
    await check('12m');
    await check('12m', [['browser', 'Firefox']]);
    await check('30d', [
      ['browser', 'Safari'],
      ['device', 'mobile'],
    ]);
    await checkClicks('30d');
    await checkClicks('12m');

    // rows without a label (retention's collapse of old labels): in the summary, in no list
    await h.execute('INSERT INTO stats_visits (day, metric, label, n, total) VALUES (?, ?, ?, ?, ?)', [
      ['2025-06-01', 'page', '', 500, 3_000_000],
      ['2025-06-01', 'entry', '', 400, 0],
      ['2025-06-01', 'utm_campaign', '', 400, 0],
    ]);
    await h.execute('INSERT INTO stats_clicks (day, page, selector, clicks, visitors, last_at) VALUES (?, ?, ?, ?, ?, ?)', [
      ['2025-06-01', '', '', 900, 9, Date.parse('2025-06-01T10:00:00Z')],
    ]);
    const p = period('30d');
    const after = await dashboard.traffic(p);
    const before = expected(visits, rangeOf(p.current.days), rangeOf(p.previous.days), () => true);
    expect(after.summary.views).toEqual({ current: before.summary.views.current + 500, previous: before.summary.views.previous });
    expect(after.summary.timeOnPage.current).toBe(
      Math.round((sumTime(visits, rangeOf(p.current.days)) + 3_000_000) / (before.summary.views.current + 500)),
    );
    expect(after).toMatchObject({ pages: before.pages, entryPages: before.entryPages, utmCampaign: before.utmCampaign });
    expect(after.pages.some((r) => r.label === '')).toBe(false);
    const clicked = await dashboard.clicks(p, 10, 20, () => null);
    expect(clicked.map(({ page, total, selectors }) => ({ page, total, selectors }))).toEqual(
      expectedClicks(clicks, rangeOf(p.current.days), rangeOf(p.previous.days)),
    );
  }, 240_000);
});

/** The time on page of the page views in [from, to). */
function sumTime(visits: Visit[], [from, to]: [number, number]): number {
  return visits.flatMap((v) => v.views).reduce((sum, view) => sum + (view.at >= from && view.at < to ? view.t : 0), 0);
}
