import { expect } from 'vitest';
import { FORM_TYPE, STREAM, type Harness } from './collector';
import { addressIn } from './countries';

/**
 * The dashboard scenario (docs/collector.md "What the dashboard counts, and from what"), shared by test/server/dashboard.test.ts and
 * test/browser/admin-dashboard.test.ts: visitors with known user agents, window widths, referrers,
 * campaign parameters and times on page, before and within the 7 days up to 20 May 2025, 12:00 in
 * Berlin. Each test writes its expected numbers by hand from this story:
 *
 * - G (Chrome, Windows, 1920 px), 1 May: `/` for 4 s. Outside both 7-day periods.
 * - F (Chrome, Windows, 1920 px), 10 May 09:00 UTC: `/galerie.html` 20 s, then `/` 10 s.
 * - E (Chrome, Android, 412 px), 13 May 21:30 UTC (23:30 in Berlin): `/?utm_source=instagram` from
 *   l.instagram.com (the `referrer` field, as the bundle sends `document.referrer`), 40 s; clicks
 *   `a.gallery` and `nav a`; allows Statistiken.
 * - D (Safari, iPad, 820 px), 13 May 22:30 UTC (00:30 on the 14th in Berlin): `/kontakt.html` 6 s,
 *   with a `Referer` header of www.bing.com and no `referrer` field.
 * - A (Safari, iPhone, 390 px), 18 May 08:00 UTC: the newsletter link (utm_source=newsletter,
 *   utm_medium=email, utm_campaign=fruehling, plus `pagepulse-debug=1`) from mail.example.net/inbox?id=7, 60 s,
 *   two clicks on `a.gallery`, allows all; then `/galerie.html` 30 s.
 * - B (Chrome, Windows, 1920 px), 19 May 12:00 UTC: `/galerie.html#top` from www.google.com, 10 s.
 * - C (Firefox, Windows, 1280 px), 20 May 06:00 UTC: the newsletter link with a `referrer` field
 *   naming the page itself, 20 s, one click on `a.gallery`; then `/kontakt.html` 4 s.
 *
 * The collector's clock ends at 20 May 2025 10:00 UTC. Through a trusted proxy (`trustProxy`) the
 * visitors come from addresses the country database places in Germany (G, F, A), Austria (E),
 * Switzerland (D) and the United States (B); C from a private address (unknown). Without the
 * setting every one is unknown.
 */
/** The scenario's site. */
export const SITE = 'http://lichtwerk.test';
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
export const BEAT_MS = 2000;

/** One browser: its cookie, user agent and window width; pages it stays on for known times. */
function browserOf(h: Harness, agent: string, width: number, from: string) {
  let cookie: string | null = null;
  const post = async (path: string, body: string, referer?: string) => {
    const res = await fetch(h.url + path, {
      method: 'POST',
      headers: {
        'content-type': FORM_TYPE,
        'user-agent': agent,
        'x-requested-with': 'XMLHttpRequest',
        'x-forwarded-for': from,
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
     * and the `referrer` field the test gives (what the bundle reads from `document.referrer`),
     * then one every BEAT_MS while the visitor stays `staySeconds`. Every call's `Referer` header
     * is the page itself, as for the bundle's same-origin POST, unless `refererHeader` says
     * otherwise (the collector never reads it). Returns the time after the stay.
     */
    async view(address: string, at: number, staySeconds: number, referrer?: string, refererHeader = address): Promise<number> {
      const nowpage = encodeURIComponent(address);
      h.clock.now = at;
      await post(
        STREAM,
        `task=stream.display&nowpage=${nowpage}&initialize=true&module_available=1&device_width=${width}&device_height=800` +
          (referrer === undefined ? '' : `&referrer=${encodeURIComponent(referrer)}`),
        refererHeader,
      );
      for (let t = BEAT_MS; t <= staySeconds * 1000; t += BEAT_MS) {
        h.clock.now = at + t;
        await post(STREAM, `task=stream.display&nowpage=${nowpage}&module_available=1`, refererHeader);
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

/** A time of the scenario. */
export const at = (iso: string) => Date.parse(iso);
const NEWSLETTER = `${SITE}/?utm_source=newsletter&utm_medium=email&utm_campaign=fruehling`;

/** Send the scenario to a running collector (its visitor rate limit raised: ~150 requests at once). */
export async function driveDashboardScenario(h: Harness): Promise<void> {
  // G, long before both periods (1 May): counted only by "12 months"
  await browserOf(h, AGENTS.chromeWindows, 1920, addressIn('DE')).view(`${SITE}/`, at('2025-05-01T10:00:00Z'), 4);

  // the previous 7 days (Berlin 7 to 13 May)
  const f = browserOf(h, AGENTS.chromeWindows, 1920, addressIn('DE'));
  let t = await f.view(`${SITE}/galerie.html`, at('2025-05-10T09:00:00Z'), 20);
  await f.view(`${SITE}/`, t + BEAT_MS, 10);
  // E: 23:30 in Berlin on 13 May (21:30 UTC): the previous period, not the current one
  const e = browserOf(h, AGENTS.chromeAndroid, 412, addressIn('AT'));
  await e.view(`${SITE}/?utm_source=instagram`, at('2025-05-13T21:30:00Z'), 40, 'https://l.instagram.com/');
  await e.click(`${SITE}/`, 'a.gallery', at('2025-05-13T21:30:30Z'));
  await e.click(`${SITE}/`, 'nav a', at('2025-05-13T21:30:31Z'));
  await e.consent(at('2025-05-13T21:30:20Z'), { 3: true });

  // the current 7 days (Berlin 14 to 20 May)
  // D: 00:30 in Berlin on 14 May (22:30 UTC on the 13th): the current period; a Referer header of
  // another site but no referrer field: no source (the collector reads the field only)
  await browserOf(h, AGENTS.ipad, 820, addressIn('CH')).view(
    `${SITE}/kontakt.html`,
    at('2025-05-13T22:30:00Z'),
    6,
    undefined,
    'https://www.bing.com/',
  );
  const a = browserOf(h, AGENTS.iphone, 390, addressIn('DE'));
  t = await a.view(`${NEWSLETTER}&pagepulse-debug=1`, at('2025-05-18T08:00:00Z'), 60, 'https://mail.example.net/inbox?id=7');
  await a.click(`${NEWSLETTER}&pagepulse-debug=1`, 'a.gallery', at('2025-05-18T08:00:10Z'));
  await a.click(`${SITE}/#galerie`, 'a.gallery', at('2025-05-18T08:00:20Z'));
  await a.consent(at('2025-05-18T08:00:05Z'), { 3: true, 4: true });
  await a.view(`${SITE}/galerie.html`, t + BEAT_MS, 30);
  await browserOf(h, AGENTS.chromeWindows, 1920, addressIn('US')).view(
    `${SITE}/galerie.html#top`,
    at('2025-05-19T12:00:00Z'),
    10,
    'https://www.google.com/',
  );
  // C: a referrer field naming the site itself (the bundle would not send it; another client might)
  // names no source
  const c = browserOf(h, AGENTS.firefoxWindows, 1280, '192.168.1.20');
  t = await c.view(NEWSLETTER, at('2025-05-20T06:00:00Z'), 20, NEWSLETTER);
  await c.click(NEWSLETTER, 'a.gallery', at('2025-05-20T06:00:10Z'));
  await c.view(`${SITE}/kontakt.html`, t + BEAT_MS, 4, `${SITE}/`);

  h.clock.now = at('2025-05-20T10:00:00Z'); // 12:00 in Berlin
}
