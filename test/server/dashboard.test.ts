import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Admin, closeHarness, type Harness, signIn, startCollector } from '../support/collector';
import { SITE, driveDashboardScenario } from '../support/dashboard-scenario';

/**
 * The dashboard's figures for a period and the one before, from the scenario's visitors
 * (test/support/dashboard-scenario.ts: known user agents, window widths, referrers, campaign
 * parameters and times on page) in Europe/Berlin. Every expected number below is counted by hand
 * from that story, not by the collector's code.
 */

let h: Harness;
let admin: Admin;

beforeAll(async () => {
  // behind a trusted proxy: the scenario's visitors come from their countries' addresses
  h = await startCollector({ trustProxy: true, visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
  await driveDashboardScenario(h);
  // signed in now (an admin session ends after 2 h idle); the days are Berlin's from here on
  admin = await signIn(h.url);
  expect((await admin.post('/admin/api/settings', { timeZone: 'Europe/Berlin' })).status).toBe(200);
});
afterAll(() => closeHarness(h));

const get = async <T>(path: string): Promise<T> => {
  const res = await admin.get(path);
  expect(res.status).toBe(200);
  return (await res.json()) as T;
};
type Traffic = Record<string, unknown> & { series: Array<Record<string, unknown>>; summary: Record<string, unknown> };

describe('dashboard figures for a period and the previous one (Europe/Berlin)', () => {
  it('7 days: page views, visitors, bounce rate and time on page, each beside the previous 7 days', async () => {
    const traffic = await get<Traffic>('/admin/api/traffic?period=7d');
    expect(traffic.period).toEqual({
      name: '7d',
      timeZone: 'Europe/Berlin',
      unit: 'day',
      days: { current: ['2025-05-14', '2025-05-20'], previous: ['2025-05-07', '2025-05-13'] },
    });
    // now: A 2 views, B 1, C 2, D 1; bounces B and D of 4 visits; times 60, 30, 10, 20, 4, 6 s -> 130 / 6
    // before: F 2 views, E 1; bounce E of 2; times 20, 10, 40 s -> 70 / 3
    expect(traffic.summary).toEqual({
      views: { current: 6, previous: 3 },
      visitors: { current: 4, previous: 2 },
      visits: { current: 4, previous: 2 },
      bounceRate: { current: 0.5, previous: 0.5 },
      timeOnPage: { current: 21_667, previous: 23_333 },
    });
    expect(traffic.series).toEqual([
      { label: '2025-05-14', views: 1, visitors: 1, previousLabel: '2025-05-07', previousViews: 0 },
      { label: '2025-05-15', views: 0, visitors: 0, previousLabel: '2025-05-08', previousViews: 0 },
      { label: '2025-05-16', views: 0, visitors: 0, previousLabel: '2025-05-09', previousViews: 0 },
      { label: '2025-05-17', views: 0, visitors: 0, previousLabel: '2025-05-10', previousViews: 2 },
      { label: '2025-05-18', views: 2, visitors: 1, previousLabel: '2025-05-11', previousViews: 0 },
      { label: '2025-05-19', views: 1, visitors: 1, previousLabel: '2025-05-12', previousViews: 0 },
      { label: '2025-05-20', views: 2, visitors: 1, previousLabel: '2025-05-13', previousViews: 1 },
    ]);
  });

  it('7 days: pages (without fragments, QA switches and utm_*), entry and exit pages, with time on page', async () => {
    const traffic = await get<Traffic>('/admin/api/traffic?period=7d');
    expect(traffic.pages).toEqual([
      { label: `${SITE}/`, current: 2, previous: 2, timeOnPage: 40_000 },
      { label: `${SITE}/galerie.html`, current: 2, previous: 1, timeOnPage: 20_000 },
      { label: `${SITE}/kontakt.html`, current: 2, previous: 0, timeOnPage: 5_000 },
    ]);
    expect(traffic.entryPages).toEqual([
      { label: `${SITE}/`, current: 2, previous: 1 },
      { label: `${SITE}/galerie.html`, current: 1, previous: 1 },
      { label: `${SITE}/kontakt.html`, current: 1, previous: 0 },
    ]);
    expect(traffic.exitPages).toEqual([
      { label: `${SITE}/galerie.html`, current: 2, previous: 0 },
      { label: `${SITE}/kontakt.html`, current: 2, previous: 0 },
    ]);
  });

  it('7 days: sources and referring pages (the referrer field of another host only), campaigns, devices, browsers, systems, countries and screen sizes', async () => {
    const traffic = await get<Traffic>('/admin/api/traffic?period=7d');
    // Google by name; the mail host as it is; D's Referer header of www.bing.com without the field
    // and C's field naming the site itself count nowhere
    expect(traffic.sources).toEqual([
      { label: 'Google', current: 1, previous: 0 },
      { label: 'mail.example.net', current: 1, previous: 0 },
    ]);
    // host and path, no query
    expect(traffic.referrers).toEqual([
      { label: 'mail.example.net/inbox', current: 1, previous: 0 },
      { label: 'www.google.com/', current: 1, previous: 0 },
    ]);
    expect(traffic.utmSource).toEqual([{ label: 'newsletter', current: 2, previous: 0 }]);
    expect(traffic.utmMedium).toEqual([{ label: 'email', current: 2, previous: 0 }]);
    expect(traffic.utmCampaign).toEqual([{ label: 'fruehling', current: 2, previous: 0 }]);
    expect(traffic.utmTerm).toEqual([]);
    expect(traffic.devices).toEqual([
      { label: 'desktop', current: 2, previous: 1 },
      { label: 'mobile', current: 1, previous: 1 },
      { label: 'tablet', current: 1, previous: 0 },
    ]);
    expect(traffic.browsers).toEqual([
      { label: 'Safari', current: 2, previous: 0 },
      { label: 'Chrome', current: 1, previous: 2 },
      { label: 'Firefox', current: 1, previous: 0 },
    ]);
    // ties in code-point order (capitals first)
    expect(traffic.operatingSystems).toEqual([
      { label: 'Windows', current: 2, previous: 1 },
      { label: 'iOS', current: 2, previous: 0 },
    ]);
    expect(traffic.countries).toEqual([
      { label: 'CH', current: 1, previous: 0 },
      { label: 'DE', current: 1, previous: 1 },
      { label: 'US', current: 1, previous: 0 },
      { label: 'unknown', current: 1, previous: 0 },
    ]);
    expect(traffic.screens).toEqual([
      { label: '1024–1439', current: 1, previous: 0 },
      { label: '600–1023', current: 1, previous: 0 },
      { label: '< 600', current: 1, previous: 1 },
      { label: '≥ 1440', current: 1, previous: 1 },
    ]);
  });

  it('a filter narrows every figure: Safari visitors (A and D) counted by hand', async () => {
    const traffic = await get<Traffic>('/admin/api/traffic?period=7d&filter=browser%3ASafari');
    expect(traffic.filters).toEqual([{ name: 'browser', value: 'Safari' }]);
    // D: /kontakt.html 6 s (a bounce); A: / 60 s, /galerie.html 30 s; none in the previous 7 days
    expect(traffic.summary).toEqual({
      views: { current: 3, previous: 0 },
      visitors: { current: 2, previous: 0 },
      visits: { current: 2, previous: 0 },
      bounceRate: { current: 0.5, previous: 0 },
      timeOnPage: { current: 32_000, previous: 0 },
    });
    expect(traffic.pages).toEqual([
      { label: `${SITE}/`, current: 1, previous: 0, timeOnPage: 60_000 },
      { label: `${SITE}/galerie.html`, current: 1, previous: 0, timeOnPage: 30_000 },
      { label: `${SITE}/kontakt.html`, current: 1, previous: 0, timeOnPage: 6_000 },
    ]);
    expect(traffic.sources).toEqual([{ label: 'mail.example.net', current: 1, previous: 0 }]);
    expect(traffic.referrers).toEqual([{ label: 'mail.example.net/inbox', current: 1, previous: 0 }]);
    expect(traffic.browsers).toEqual([{ label: 'Safari', current: 2, previous: 0 }]);
    // A in Germany (through the trusted proxy), D in Switzerland; both on iOS
    expect(traffic.countries).toEqual([
      { label: 'CH', current: 1, previous: 0 },
      { label: 'DE', current: 1, previous: 0 },
    ]);
    expect(traffic.operatingSystems).toEqual([{ label: 'iOS', current: 2, previous: 0 }]);
    expect(traffic.devices).toEqual([
      { label: 'mobile', current: 1, previous: 0 },
      { label: 'tablet', current: 1, previous: 0 },
    ]);
    expect(traffic.series.map((s) => s.views)).toEqual([1, 0, 0, 0, 2, 0, 0]);
  });

  it("a page filter: that page's views, and the visits with a view of it (entry pages, sources)", async () => {
    const page = encodeURIComponent(`page:${SITE}/galerie.html`);
    const traffic = await get<Traffic>(`/admin/api/traffic?period=7d&filter=${page}`);
    // now: A's and B's views of it (30 s, 10 s); B's visit a bounce. Before: F's (20 s, of a 2-view visit)
    expect(traffic.summary).toEqual({
      views: { current: 2, previous: 1 },
      visitors: { current: 2, previous: 1 },
      visits: { current: 2, previous: 1 },
      bounceRate: { current: 0.5, previous: 0 },
      timeOnPage: { current: 20_000, previous: 20_000 },
    });
    expect(traffic.pages).toEqual([{ label: `${SITE}/galerie.html`, current: 2, previous: 1, timeOnPage: 20_000 }]);
    expect(traffic.entryPages).toEqual([
      { label: `${SITE}/`, current: 1, previous: 0 },
      { label: `${SITE}/galerie.html`, current: 1, previous: 1 },
    ]);
    expect(traffic.sources).toEqual([
      { label: 'Google', current: 1, previous: 0 },
      { label: 'mail.example.net', current: 1, previous: 0 },
    ]);
    expect(traffic.referrers).toEqual([
      { label: 'mail.example.net/inbox', current: 1, previous: 0 },
      { label: 'www.google.com/', current: 1, previous: 0 },
    ]);
    expect(traffic.series.map((s) => s.views)).toEqual([0, 0, 0, 0, 1, 1, 0]);
    // with a second filter both must match: Chrome's view of the gallery is B's now, F's before
    const both = await get<Traffic>(`/admin/api/traffic?period=7d&filter=${page}&filter=browser%3AChrome`);
    expect(both.summary.views).toEqual({ current: 1, previous: 1 });
    expect(both.browsers).toEqual([{ label: 'Chrome', current: 1, previous: 1 }]);
    // source, country and operating system are filters too: Google's visit is B's (United States, Windows)
    const google = await get<Traffic>('/admin/api/traffic?period=7d&filter=source%3AGoogle');
    expect(google.summary.views).toEqual({ current: 1, previous: 0 });
    expect(google.countries).toEqual([{ label: 'US', current: 1, previous: 0 }]);
    const germany = await get<Traffic>('/admin/api/traffic?period=7d&filter=country%3ADE');
    // now A's two views; before F's two (10 May)
    expect(germany.summary.views).toEqual({ current: 2, previous: 2 });
    const windows = await get<Traffic>('/admin/api/traffic?period=7d&filter=os%3AWindows&filter=country%3AUS');
    expect(windows.browsers).toEqual([{ label: 'Chrome', current: 1, previous: 0 }]);
    // the hours of today, filtered: C's views at 08:00 in Berlin are Firefox's
    const today = await get<Traffic>('/admin/api/traffic?period=today&filter=browser%3AFirefox');
    expect(today.series[8]).toMatchObject({ views: 2, visitors: 1 });
    expect((await get<Traffic>('/admin/api/traffic?period=today&filter=browser%3ASafari')).series[8]).toMatchObject({ views: 0 });
  });

  it('a filter is validated; its value is a bound parameter, never SQL', async () => {
    for (const bad of ['country', 'browser', 'nope:x', ':x', 'browser:'])
      expect((await admin.get(`/admin/api/traffic?period=7d&filter=${encodeURIComponent(bad)}`)).status).toBe(400);
    const tricky = await get<Traffic>(`/admin/api/traffic?period=7d&filter=${encodeURIComponent("browser:x' OR '1'='1")}`);
    expect(tricky.summary.views).toEqual({ current: 0, previous: 0 });
    // 12 months filtered: the rows of the year, not the day totals (which hold no combinations)
    const year = await get<Traffic>('/admin/api/traffic?period=12m&filter=device%3Amobile');
    // mobile: A (2 views) now; E was Android, a phone (1 view)
    expect(year.summary.views).toEqual({ current: 3, previous: 0 });
  });

  it('every table of the overview as CSV, with the period and filters: UTF-8 with BOM, CRLF, bounded', async () => {
    const csv = async (query: string) => {
      const res = await admin.get(`/admin/traffic.csv?${query}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      return { name: res.headers.get('content-disposition'), text: new TextDecoder().decode(bytes) };
    };
    const browsers = await csv('table=browsers&period=7d&filter=device%3Amobile');
    expect(browsers.name).toBe('attachment; filename="pagepulse-browsers-2025-05-14_2025-05-20-filtered.csv"');
    expect(browsers.text).toBe('browser,current,previous\r\nSafari,1,0\r\n');
    expect((await csv('table=pages&period=7d')).text).toBe(
      `page,page_views,previous,time_on_page_s\r\n${SITE}/,2,2,40\r\n${SITE}/galerie.html,2,1,20\r\n${SITE}/kontakt.html,2,0,5\r\n`,
    );
    expect((await csv('table=summary&period=7d')).text).toBe(
      'figure,current,previous\r\nviews,6,3\r\nvisitors,4,2\r\nvisits,4,2\r\nbounceRate,0.5,0.5\r\ntimeOnPage,21667,23333\r\n',
    );
    const series = (await csv('table=series&period=7d')).text.split('\r\n');
    expect(series.slice(0, 2)).toEqual([
      'day (Europe/Berlin),page_views,visitors,previous_day,previous_page_views',
      '2025-05-14,1,1,2025-05-07,0',
    ]);
    expect(series).toHaveLength(9);
    expect((await csv('table=screens&period=7d')).text).toContain('\r\n≥ 1440,1,1\r\n');
    expect((await admin.get('/admin/traffic.csv?table=visitors&period=7d')).status).toBe(400);
  });

  it('the read-only stats API: a token made in the admin area (shown once, stored hashed, listed, revoked), the same figures', async () => {
    const made = await admin.post('/admin/api/tokens', { name: 'Grafana' });
    expect(made.status).toBe(200);
    const { id, token, prefix } = (await made.json()) as { id: number; token: string; prefix: string };
    expect(token).toMatch(/^pp_[A-Za-z0-9_-]{43}$/);
    expect(prefix).toBe(token.slice(0, 10));
    // stored as its SHA-256 only; the list names it by its first characters
    const stored = await h.query('SELECT token_hash FROM api_tokens');
    expect(stored).toEqual([{ token_hash: createHash('sha256').update(token).digest('hex') }]);
    const list = await (await admin.get('/admin/api/tokens')).text();
    expect(list).not.toContain(token);
    expect(JSON.parse(list)).toMatchObject({ tokens: [{ id, name: 'Grafana', prefix, revokedAt: null, lastUsedAt: null }] });

    const api = (query: string, auth: string | null = `Bearer ${token}`) =>
      fetch(`${h.url}/api/v1/stats?${query}`, { headers: auth ? { authorization: auth } : {} });
    const query = 'period=7d&filter=browser%3ASafari';
    const answer = await api(query);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    // the same numbers the dashboard shows for the same period and filter
    expect(await answer.json()).toEqual(await get(`/admin/api/traffic?${query}`));
    for (const auth of [null, 'Bearer pp_wrong-token-wrong-token-wrong', `Basic ${token}`, token]) {
      const refused = await api(query, auth);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="pagepulse"');
    }
    // nor does an admin session open it, nor a token the admin area
    expect((await admin.get('/api/v1/stats?period=7d')).status).toBe(401);
    expect((await fetch(`${h.url}/admin/api/traffic`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
    expect((await api('period=week')).status).toBe(400);

    // 60 a minute per token: the 61st is refused until the next minute
    h.clock.now = (Math.floor(h.clock.now / 60_000) + 1) * 60_000;
    const statuses = [];
    for (let i = 0; i < 61; i++) statuses.push((await api('period=today')).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    const limited = await api('period=today');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    h.clock.now += 60_000;
    expect((await api('period=today')).status).toBe(200);
    expect(
      ((await (await admin.get('/admin/api/tokens')).json()) as { tokens: Array<{ lastUsedAt: string }> }).tokens[0]!.lastUsedAt,
    ).toBe(new Date(h.clock.now).toISOString());

    // revoked: refused at once; revoking again changes nothing
    expect(await (await admin.post('/admin/api/tokens/revoke', { id: String(id) })).json()).toEqual({ revoked: true });
    expect((await api('period=today')).status).toBe(401);
    expect(await (await admin.post('/admin/api/tokens/revoke', { id: String(id) })).json()).toEqual({ revoked: false });
    expect((await admin.post('/admin/api/tokens', { name: '' })).status).toBe(400);
  });

  it('today, 12 months and a custom day: the site time zone decides which day a visit belongs to', async () => {
    const today = await get<Traffic>('/admin/api/traffic?period=today');
    expect(today.summary.views).toEqual({ current: 2, previous: 1 }); // C this morning; B yesterday
    expect(today.series).toHaveLength(24);
    expect(today.series[8]).toMatchObject({ label: '08:00', views: 2 }); // 06:00 UTC is 08:00 in Berlin
    const year = await get<Traffic>('/admin/api/traffic?period=12m');
    expect(year.summary.views).toEqual({ current: 10, previous: 0 });
    expect(year.series.map((s) => s.label)).toEqual([
      '2024-06', '2024-07', '2024-08', '2024-09', '2024-10', '2024-11', '2024-12', '2025-01', '2025-02', '2025-03', '2025-04', '2025-05',
    ]); // prettier-ignore
    expect(year.series.at(-1)).toMatchObject({ views: 10, previousLabel: '2024-05', previousViews: 0 });
    // 13 May in Berlin: E (23:30), not D (00:30 on the 14th), though both are 13 May in UTC
    const day = await get<Traffic>('/admin/api/traffic?period=custom&from=2025-05-13&to=2025-05-13');
    expect(day.summary.views).toEqual({ current: 1, previous: 0 });
    expect(day.browsers).toEqual([{ label: 'Chrome', current: 1, previous: 0 }]);
    // the day the clocks go forward in Berlin has 23 hours: no 02:00
    const spring = await get<Traffic>('/admin/api/traffic?period=custom&from=2025-03-30&to=2025-03-30');
    expect(spring.series.map((s) => s.label).slice(0, 3)).toEqual(['00:00', '01:00', '03:00']);
    expect(spring.series).toHaveLength(23);
    expect((await admin.get('/admin/api/traffic?period=custom&from=2025-05-14&to=2025-05-13')).status).toBe(400);
    expect((await admin.get('/admin/api/traffic?period=week')).status).toBe(400);
    // a range past the site's today is refused with a message, not accepted silently (today is 20 May)
    const future = await admin.get('/admin/api/traffic?period=custom&from=2025-05-20&to=2025-05-21');
    expect(future.status).toBe(400);
    expect(await future.json()).toEqual({
      error: 'to must not be after today (2025-05-20 in Europe/Berlin)',
      code: 'period_future',
    });
    expect((await admin.get('/admin/api/traffic?period=custom&from=2025-05-19&to=2025-05-20')).status).toBe(200);
  });

  it('clicks of the period per selector, beside the previous period; stored under the page without QA switches', async () => {
    expect(await get('/admin/api/clicks?period=7d')).toMatchObject({
      pages: [
        { page: `${SITE}/`, total: { current: 3, previous: 2 }, selectors: [{ selector: 'a.gallery', current: 3, previous: 1 }] },
      ],
    });
    // filtered as the overview is: A's two clicks in Safari, C's one in Firefox; E's in Austria were
    // before the period (the page has no clicks now, so it is not listed); the page filter keeps its page
    const clicks = (filter: string) =>
      get<{ pages: unknown[]; filters: unknown[] }>(`/admin/api/clicks?period=7d&filter=${encodeURIComponent(filter)}`);
    expect(await clicks('browser:Safari')).toMatchObject({
      filters: [{ name: 'browser', value: 'Safari' }],
      pages: [
        { page: `${SITE}/`, total: { current: 2, previous: 0 }, selectors: [{ selector: 'a.gallery', current: 2, previous: 0 }] },
      ],
    });
    expect(await clicks('os:Windows')).toMatchObject({
      pages: [
        { page: `${SITE}/`, total: { current: 1, previous: 0 }, selectors: [{ selector: 'a.gallery', current: 1, previous: 0 }] },
      ],
    });
    expect((await clicks('country:AT')).pages).toEqual([]);
    expect(await clicks(`page:${SITE}/`)).toMatchObject({ pages: [{ page: `${SITE}/`, total: { current: 3, previous: 2 } }] });
    expect((await clicks(`page:${SITE}/kontakt.html`)).pages).toEqual([]);
    expect((await admin.get('/admin/api/clicks?period=7d&filter=nope%3Ax')).status).toBe(400);
    // the overlay asks for the page as the browser shows it: the same stored clicks
    const overlay = await fetch(
      `${h.url}/api/clicks?page=${encodeURIComponent(`${SITE}/?pagepulse-heatmap=1&pagepulse-debug=1`)}`,
    );
    expect(await overlay.json()).toEqual({
      page: `${SITE}/`,
      clicks: [
        { selector: 'a.gallery', count: 4 },
        { selector: 'nav a', count: 1 },
      ],
    });
  });

  it('consent shares and the consent log follow the period', async () => {
    const stats = await get<{ current: unknown; previous: unknown; buckets: unknown[] }>('/admin/api/consent-stats?period=7d');
    expect(stats.current).toEqual({ visitors: 1, shares: { 1: 1, 2: 1, 3: 1, 4: 1 } }); // A allowed all
    expect(stats.previous).toEqual({ visitors: 1, shares: { 1: 1, 2: 1, 3: 1, 4: 0 } }); // E allowed Statistiken
    expect(stats.buckets).toHaveLength(7);
    const log = await get<{ consents: Array<{ at: string }> }>('/admin/api/consents?period=7d');
    expect(log.consents.map((c) => c.at)).toEqual([
      '2025-05-18T08:00:05.000Z',
      '2025-05-18T08:00:05.000Z',
      '2025-05-18T08:00:05.000Z',
    ]);
    // a day of the log's own filter is a Berlin day too
    const day = await get<{ consents: unknown[] }>('/admin/api/consents?from=2025-05-13&to=2025-05-13');
    expect(day.consents).toHaveLength(2); // E's generic choice and Statistiken
  });

  it('keeps the time zone as a validated setting', async () => {
    expect(await get('/admin/api/settings')).toMatchObject({ timeZone: 'Europe/Berlin' });
    for (const bad of ['Mars/Olympus', 'Europe/Berlin; DROP', ''])
      expect((await admin.post('/admin/api/settings', { timeZone: bad })).status).toBe(400);
    expect(await get('/admin/api/settings')).toMatchObject({ timeZone: 'Europe/Berlin' });
  });
});
