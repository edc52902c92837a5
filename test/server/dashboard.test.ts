import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_TYPE, STREAM, removeDir, signIn, startCollector, type Admin, type Harness } from '../support/collector';

/**
 * The dashboard's figures for a period and the one before, from visitors with known user agents,
 * window widths, referrers, campaign parameters and times on page, in Europe/Berlin. Every
 * expected number below is counted by hand from the scenario, not by the collector's code.
 */

const SITE = 'http://lichtwerk.test';
const GDPR = '/index.php?option=com_gdpr';
const AGENTS = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipad: 'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
};
/** The heartbeat interval of the scenario (the collector's default `daemonrefresh`). */
const BEAT_MS = 2000;

let h: Harness;
let admin: Admin;

/** One browser: its cookie, user agent and window width; pages it stays on for known times. */
function browserOf(agent: string, width: number) {
  let cookie: string | null = null;
  const post = async (path: string, body: string, referer?: string) => {
    const res = await fetch(h.url + path, {
      method: 'POST',
      headers: {
        'content-type': FORM_TYPE,
        'user-agent': agent,
        'x-requested-with': 'XMLHttpRequest',
        ...(cookie ? { cookie } : {}),
        ...(referer ? { referer } : {}),
      },
      body,
    });
    expect(res.status).toBe(200);
    cookie = res.headers.get('set-cookie')?.split(';')[0] ?? cookie;
  };
  return {
    /**
     * A page view at `at` (ms), as the bundle sends it: the first heartbeat with the window size
     * (and the `Referer` header the test gives), then one every BEAT_MS while the visitor stays
     * `staySeconds`. Returns the time after the stay.
     */
    async view(address: string, at: number, staySeconds: number, referer?: string): Promise<number> {
      const nowpage = encodeURIComponent(address);
      h.clock.now = at;
      await post(
        STREAM,
        `task=stream.display&nowpage=${nowpage}&initialize=true&module_available=1&device_width=${width}&device_height=800`,
        referer,
      );
      for (let t = BEAT_MS; t <= staySeconds * 1000; t += BEAT_MS) {
        h.clock.now = at + t;
        await post(STREAM, `task=stream.display&nowpage=${nowpage}&module_available=1`, referer ?? address);
      }
      return at + staySeconds * 1000;
    },
    async click(address: string, selector: string, at: number) {
      h.clock.now = at;
      await post(
        STREAM,
        `task=stream.saveEntity&resource=heatmapclick&nowpage=${encodeURIComponent(address)}&clicked_element=${encodeURIComponent(selector)}`,
      );
    },
    async consent(at: number, categories: Record<number, boolean>) {
      h.clock.now = at;
      await post(`${GDPR}&task=user.processGenericCookieCategories`, 'gdpr_generic_cookie_consent=1');
      for (const [n, on] of Object.entries(categories))
        await post(
          `${GDPR}&task=user.processCookieCategory`,
          `gdpr_cookie_category=${n}&gdpr_cookie_category_state=${on ? 0 : 1}`,
        );
    },
  };
}

const at = (iso: string) => Date.parse(iso);
const NEWSLETTER = `${SITE}/?utm_source=newsletter&utm_medium=email&utm_campaign=fruehling`;

beforeAll(async () => {
  h = await startCollector({ visitorRate: { burst: 1_000_000, perSecond: 1_000_000 } });
  // G, long before both periods (1 May): counted only by "12 months"
  await browserOf(AGENTS.chromeWindows, 1920).view(`${SITE}/`, at('2025-05-01T10:00:00Z'), 4);

  // the previous 7 days (Berlin 7 to 13 May)
  const f = browserOf(AGENTS.chromeWindows, 1920);
  let t = await f.view(`${SITE}/galerie.html`, at('2025-05-10T09:00:00Z'), 20);
  await f.view(`${SITE}/`, t + BEAT_MS, 10);
  // E: 23:30 in Berlin on 13 May (21:30 UTC): the previous period, not the current one
  const e = browserOf(AGENTS.chromeAndroid, 412);
  await e.view(`${SITE}/?utm_source=instagram`, at('2025-05-13T21:30:00Z'), 40, 'https://l.instagram.com/');
  await e.click(`${SITE}/`, 'a.gallery', at('2025-05-13T21:30:30Z'));
  await e.click(`${SITE}/`, 'nav a', at('2025-05-13T21:30:31Z'));
  await e.consent(at('2025-05-13T21:30:20Z'), { 3: true });

  // the current 7 days (Berlin 14 to 20 May)
  // D: 00:30 in Berlin on 14 May (22:30 UTC on the 13th): the current period
  await browserOf(AGENTS.ipad, 820).view(`${SITE}/kontakt.html`, at('2025-05-13T22:30:00Z'), 6);
  const a = browserOf(AGENTS.iphone, 390);
  t = await a.view(`${NEWSLETTER}&pagepulse-debug=1`, at('2025-05-18T08:00:00Z'), 60, 'https://mail.example.net/inbox?id=7');
  await a.click(`${NEWSLETTER}&pagepulse-debug=1`, 'a.gallery', at('2025-05-18T08:00:10Z'));
  await a.click(`${SITE}/#galerie`, 'a.gallery', at('2025-05-18T08:00:20Z'));
  await a.consent(at('2025-05-18T08:00:05Z'), { 3: true, 4: true });
  await a.view(`${SITE}/galerie.html`, t + BEAT_MS, 30);
  await browserOf(AGENTS.chromeWindows, 1920).view(
    `${SITE}/galerie.html#top`,
    at('2025-05-19T12:00:00Z'),
    10,
    'https://www.google.com/',
  );
  // C: the bundle's own Referer (the page itself) names no referrer
  const c = browserOf(AGENTS.firefoxWindows, 1280);
  t = await c.view(NEWSLETTER, at('2025-05-20T06:00:00Z'), 20, NEWSLETTER);
  await c.click(NEWSLETTER, 'a.gallery', at('2025-05-20T06:00:10Z'));
  await c.view(`${SITE}/kontakt.html`, t + BEAT_MS, 4, `${SITE}/`);

  h.clock.now = at('2025-05-20T10:00:00Z'); // 12:00 in Berlin
  // signed in now (an admin session ends after 2 h idle); the days are Berlin's from here on
  admin = await signIn(h.url);
  expect((await admin.post('/admin/api/settings', { timeZone: 'Europe/Berlin' })).status).toBe(200);
});
afterAll(async () => {
  await h.close();
  removeDir(h.dbPath);
  expect(h.errors).toEqual([]);
});

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

  it('7 days: referrers (only another origin), campaigns, devices, browsers and screen sizes', async () => {
    const traffic = await get<Traffic>('/admin/api/traffic?period=7d');
    expect(traffic.referrers).toEqual([
      { label: 'mail.example.net', current: 1, previous: 0 },
      { label: 'www.google.com', current: 1, previous: 0 },
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
    expect(traffic.screens).toEqual([
      { label: '1024–1439', current: 1, previous: 0 },
      { label: '600–1023', current: 1, previous: 0 },
      { label: '< 600', current: 1, previous: 1 },
      { label: '≥ 1440', current: 1, previous: 1 },
    ]);
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
    expect((await admin.get('/admin/api/traffic?period=custom&from=2025-05-14&to=2025-05-13')).status).toBe(400);
    expect((await admin.get('/admin/api/traffic?period=week')).status).toBe(400);
  });

  it('clicks of the period per selector, beside the previous period; stored under the page without QA switches', async () => {
    expect(await get('/admin/api/clicks?period=7d')).toMatchObject({
      pages: [
        { page: `${SITE}/`, total: { current: 3, previous: 2 }, selectors: [{ selector: 'a.gallery', current: 3, previous: 1 }] },
      ],
    });
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
