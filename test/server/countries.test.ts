import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { countryLookup, defaultCountryDatabase } from '../../collector/server/edge/country';
import { describeAgent } from '../../collector/server/visitor/agent';
import { visitorId } from '../../collector/server/visitor/session';
import type { Traffic } from '../../collector/shared/admin-api';
import { closeHarness, FORM_TYPE, type Harness, signIn, startCollector, STREAM } from '../support/collector';
import { addressIn } from '../support/countries';

// Countries and operating systems (docs/collector.md "What is stored"): the country comes from the
// visitor's full address at ingest, through the trusted proxy's X-Forwarded-For, and is stored as
// its ISO code only; the address is never stored whole. The addresses are taken from the country
// database's own networks (read from the file here), so a newer database does not break the test.

const PAGE = 'http://lichtwerk.test/kontakt';
const DAY = 24 * 60 * 60 * 1000;

/** Real user agents (as the browsers sent them in 2025) and the operating system each names. */
const AGENTS = {
  windows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  chromeos: 'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
} as const;

/** Addresses the database itself places in DE, US and FR (test/support/countries.ts). */
const addresses: Record<'DE' | 'US' | 'FR' | 'DE6', string> = { DE: '', US: '', FR: '', DE6: '' };

beforeAll(() => {
  Object.assign(addresses, { DE: addressIn('DE'), US: addressIn('US'), FR: addressIn('FR'), DE6: addressIn('DE', true) });
});

let h: Harness;
afterEach(() => closeHarness(h));

/** A visitor's first heartbeat of PAGE, as the bundle sends it, from `forwardedFor` through the proxy; its session cookie. */
async function firstBeat(forwardedFor: string, agent: string, cookie?: string): Promise<string> {
  const res = await fetch(h.url + STREAM, {
    method: 'POST',
    headers: {
      'content-type': FORM_TYPE,
      'x-requested-with': 'XMLHttpRequest',
      'x-forwarded-for': forwardedFor,
      'user-agent': agent,
      ...(cookie ? { cookie } : {}),
    },
    body: new URLSearchParams({ task: 'stream.display', nowpage: PAGE, initialize: 'true', module_available: '1' }).toString(),
  });
  expect(res.status).toBe(200);
  return cookie ?? res.headers.get('set-cookie')!.split(';')[0]!;
}

/** Every row of every table of the collector's database, as text. */
async function everything(): Promise<string> {
  const names =
    h.engine === 'postgres'
      ? await h.query("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")
      : await h.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'");
  const all = await Promise.all(names.map(async ({ name }) => [name, await h.query(`SELECT * FROM ${String(name)}`)]));
  return JSON.stringify(all);
}

describe('countries and operating systems', () => {
  it('through the trusted proxy: the database places each visitor, the card counts them, no full address is stored', async () => {
    h = await startCollector({ trustProxy: true });
    const erika = await firstBeat(addresses.DE, AGENTS.windows);
    await firstBeat(addresses.DE6, AGENTS.android);
    await firstBeat(addresses.US, AGENTS.mac);
    // a chain: the proxy appends the address it saw, the one the collector reads (the last)
    await firstBeat(`198.51.100.1, ${addresses.FR}`, AGENTS.iphone);
    await firstBeat('10.20.30.40', AGENTS.linux); // a private address: unknown
    await firstBeat('::1', AGENTS.chromeos); // loopback: unknown
    // a later page view of Erika's visit keeps the visit's country (the first page view's)
    h.clock.now += 60_000;
    await firstBeat(addresses.US, AGENTS.windows, erika);

    let admin = await signIn(h.url);
    const today = async () => (await (await admin.get('/admin/api/traffic?period=today')).json()) as Traffic;
    const traffic = await today();
    expect(traffic.countries).toEqual([
      { label: 'DE', current: 2, previous: 0 },
      { label: 'unknown', current: 2, previous: 0 },
      { label: 'FR', current: 1, previous: 0 },
      { label: 'US', current: 1, previous: 0 },
    ]);
    expect(traffic.operatingSystems).toEqual([
      // ties in code-point order: capitals first
      { label: 'Android', current: 1, previous: 0 },
      { label: 'Chrome OS', current: 1, previous: 0 },
      { label: 'Linux', current: 1, previous: 0 },
      { label: 'Windows', current: 1, previous: 0 },
      { label: 'iOS', current: 1, previous: 0 },
      { label: 'macOS', current: 1, previous: 0 },
    ]);
    // stored: the code beside device, browser and system; nowhere the full address
    expect(await h.query('SELECT country, os, device, browser FROM visits ORDER BY id')).toEqual([
      { country: 'DE', os: 'Windows', device: 'desktop', browser: 'Chrome' },
      { country: 'DE', os: 'Android', device: 'mobile', browser: 'Chrome' },
      { country: 'US', os: 'macOS', device: 'desktop', browser: 'Safari' },
      { country: 'FR', os: 'iOS', device: 'mobile', browser: 'Safari' },
      { country: null, os: 'Linux', device: 'desktop', browser: 'Firefox' },
      { country: null, os: 'Chrome OS', device: 'unknown', browser: 'Chrome' }, // bowser names no device class for ChromeOS
    ]);
    const stored = await everything();
    for (const address of Object.values(addresses)) expect(stored).not.toContain(address);
    expect(stored).not.toContain('10.20.30.40');

    // the day ends and is counted into day totals: the same figures from them (the 12 months' way)
    h.clock.now += DAY;
    await h.buildTotals();
    admin = await signIn(h.url); // a day later: the admin's session has ended
    const kept = await h.query("SELECT label, n FROM stats_visits WHERE metric = 'country'");
    expect(Object.fromEntries(kept.map((r) => [r.label, r.n]))).toEqual({ DE: 2, FR: 1, US: 1, unknown: 2 });
    const week = (await (await admin.get('/admin/api/traffic?period=7d')).json()) as Traffic;
    expect(week.countries).toEqual(traffic.countries);
    expect(week.operatingSystems).toEqual(traffic.operatingSystems);

    // erasure: Erika's visit goes with its country and system; today's card no longer counts her
    h.clock.now += 60_000;
    const again = await firstBeat(addresses.FR, AGENTS.linux, erika);
    // today beside yesterday, whose FR visit is in the day totals
    expect((await today()).countries).toEqual([{ label: 'FR', current: 1, previous: 1 }]);
    const erased = await admin.post('/admin/api/erase', { visitor: visitorId(again.split('=')[1]!) });
    expect(((await erased.json()) as { sessions: number }).sessions).toBe(1);
    expect((await today()).countries).toEqual([]);
    expect((await today()).operatingSystems).toEqual([]);
    expect(await h.query('SELECT country, os FROM visits ORDER BY id')).toEqual([
      { country: 'DE', os: 'Android' },
      { country: 'US', os: 'macOS' },
      { country: 'FR', os: 'iOS' },
      { country: null, os: 'Linux' },
      { country: null, os: 'Chrome OS' },
    ]);
  });

  it('without the trusted-proxy setting, X-Forwarded-For is not believed: the socket address (loopback) is unknown', async () => {
    h = await startCollector();
    await firstBeat(addresses.DE, AGENTS.windows);
    expect(await h.query('SELECT country, os FROM visits')).toEqual([{ country: null, os: 'Windows' }]);
  });

  it('retention: the hourly run deletes the visits with their countries and systems after the visit retention', async () => {
    const jobs: Array<{ ms: number; run: () => void }> = [];
    h = await startCollector({
      trustProxy: true,
      timers: {
        every: (ms, run) => (
          jobs.push({ ms, run }),
          () =>
            void jobs.splice(
              jobs.findIndex((j) => j.run === run),
              1,
            )
        ),
      },
    });
    await firstBeat(addresses.FR, AGENTS.mac);
    await firstBeat(addresses.US, AGENTS.android);
    const rows = () => h.query('SELECT country, os FROM visits WHERE country IS NOT NULL OR os IS NOT NULL ORDER BY country');
    expect(await rows()).toEqual([
      { country: 'FR', os: 'macOS' },
      { country: 'US', os: 'Android' },
    ]);
    // a visitor of 300 days later stays; the first two go after 400 days (the default)
    h.clock.now += 300 * DAY;
    await firstBeat(addresses.DE, AGENTS.iphone);
    h.clock.now += 101 * DAY;
    for (const job of [...jobs]) if (job.ms <= 60 * 60 * 1000) job.run();
    await expect.poll(rows, { timeout: 10_000 }).toEqual([{ country: 'DE', os: 'iOS' }]);
    expect(await h.query('SELECT os FROM sessions ORDER BY os')).toEqual([{ os: 'iOS' }]);
  });
});

describe('country lookup', () => {
  const lookup = countryLookup(defaultCountryDatabase());

  it('gives the ISO code of public addresses (IPv4, IPv6, IPv4-mapped) and null for private, loopback, documentation and non-addresses', () => {
    expect(lookup(addresses.DE)).toBe('DE');
    expect(lookup(addresses.DE6)).toBe('DE');
    expect(lookup(`::ffff:${addresses.US}`)).toBe('US');
    for (const address of ['10.0.0.1', '192.168.1.20', '172.16.5.4', '100.64.0.1', '127.0.0.1', '::1', 'fe80::1%eth0', 'fd00::1'])
      expect(lookup(address), address).toBeNull();
    for (const address of ['203.0.113.77', '2001:db8::1', 'unknown', '', 'DE', '999.1.1.1'])
      expect(lookup(address), address).toBeNull();
  });

  it('is read once: 5,000 lookups of public addresses take well under a second (about 5 µs each measured; re-reading the file would take ms each)', () => {
    const list = Array.from({ length: 5000 }, (_, i) => `${(i % 200) + 1}.${(i * 7) % 256}.${(i * 13) % 256}.${i % 256}`);
    const start = performance.now();
    let found = 0;
    for (const address of list) if (lookup(address)) found++;
    const ms = performance.now() - start;
    expect(found).toBeGreaterThan(3500);
    expect(ms).toBeLessThan(1000);
  });
});

describe('operating system from the user agent (bowser)', () => {
  it('names the system of real user agents beside device and browser; bots, tools and empty or huge strings have none', () => {
    const cases: Array<[string, string | null, string, string | null]> = [
      // user agent, operating system, device, browser
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Windows',
        'desktop',
        'Microsoft Edge',
      ],
      ['Mozilla/5.0 (Windows NT 6.1; WOW64; Trident/7.0; rv:11.0) like Gecko', 'Windows', 'desktop', 'Internet Explorer'],
      ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.7; rv:133.0) Gecko/20100101 Firefox/133.0', 'macOS', 'desktop', 'Firefox'],
      [AGENTS.iphone, 'iOS', 'mobile', 'Safari'],
      [
        'Mozilla/5.0 (iPad; CPU OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
        'iOS',
        'tablet',
        'Safari',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36',
        'Android',
        'mobile',
        'Samsung Internet for Android',
      ],
      // Chrome's reduced user agent of an Android tablet (no "Mobile")
      [
        'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Android',
        'tablet',
        'Chrome',
      ],
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Linux',
        'desktop',
        'Chrome',
      ],
      [AGENTS.chromeos, 'Chrome OS', 'unknown', 'Chrome'],
      [
        'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 WebAppManager',
        'WebOS',
        'tv',
        'WebOS Browser',
      ],
      [
        'Mozilla/5.0 (Phone; OpenHarmony 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile HuaweiBrowser/5.1.2.300',
        'HarmonyOS',
        'mobile',
        'Chrome',
      ],
      ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', null, 'bot', 'Googlebot'],
      ['curl/8.5.0', null, 'unknown', null],
      ['', null, 'unknown', null],
      [`${AGENTS.windows} ${'x'.repeat(2000)}`, null, 'unknown', null],
    ];
    for (const [agent, os, device, browser] of cases) expect(describeAgent(agent), agent).toEqual({ os, device, browser });
  });
});
