import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { storedAddress } from '../../collector/server/edge/address';
import { closeHarness, FORM_TYPE, type Harness, removeDir, signIn, startCollector, STREAM } from '../support/collector';

// The collector's hardening (docs/collector.md#security-and-privacy): what it stores of an address,
// its cookies, its database file, and floods from one address or one visitor.
let h: Harness | null = null;
afterEach(async () => {
  await closeHarness(h);
  h = null;
});
const GDPR = '/index.php?option=com_gdpr&task=user.processGenericCookieCategories';
const consentThroughProxy = (url: string) =>
  fetch(url + GDPR, {
    method: 'POST',
    headers: { 'content-type': FORM_TYPE, 'x-forwarded-for': '203.0.113.77' },
    body: 'gdpr_generic_cookie_consent=1',
  });

describe('client addresses', () => {
  it('shortens IPv4 to /24 and IPv6 to /48 (an IPv4-mapped address as IPv4); whole with PAGEPULSE_FULL_IP', () => {
    expect(storedAddress('203.0.113.77', false)).toBe('203.0.113.0');
    expect(storedAddress('::ffff:203.0.113.77', false)).toBe('203.0.113.0');
    expect(storedAddress('2001:db8:1234:5678::1', false)).toBe('2001:db8:1234::');
    expect(storedAddress('2001:db8::1', false)).toBe('2001:db8:0::');
    expect(storedAddress('::1', false)).toBe('0:0:0::');
    expect(storedAddress('203.0.113.77', true)).toBe('203.0.113.77');
    expect(storedAddress('not an address', true)).toBe('');
  });

  it('a consent record through a trusted proxy stores the visitor (X-Forwarded-For) shortened: 203.0.113.0', async () => {
    h = await startCollector({ trustProxy: true });
    expect((await consentThroughProxy(h.url)).status).toBe(200);
    expect(await h.query('SELECT ip FROM cookie_consents')).toEqual([{ ip: '203.0.113.0' }]);
  });

  it('with PAGEPULSE_FULL_IP=1 the whole address: 203.0.113.77; without a trusted proxy the socket address', async () => {
    h = await startCollector({ trustProxy: true, fullIp: true });
    await consentThroughProxy(h.url);
    expect(await h.query('SELECT ip FROM cookie_consents')).toEqual([{ ip: '203.0.113.77' }]);
    await h.close();
    removeDir(h.dbPath);
    h = await startCollector({ fullIp: true });
    await consentThroughProxy(h.url);
    expect(await h.query('SELECT ip FROM cookie_consents')).toEqual([{ ip: '127.0.0.1' }]);
  });
});

describe('visitor cookie and database file', () => {
  it('stores only the SHA-256 of the visitor cookie; the cookie is Secure over https (a trusted proxy says so)', async () => {
    h = await startCollector({ trustProxy: true });
    const plain = await fetch(h.url + STREAM, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE },
      body: 'task=stream.display&nowpage=http%3A%2F%2Fsite.test%2F&initialize=true&module_available=0',
    });
    const cookie = plain.headers.get('set-cookie')!;
    expect(cookie).not.toContain('Secure');
    const value = cookie.split(';')[0]!.split('=')[1]!;
    const stored = (await h.query('SELECT id FROM sessions')).map((r) => r.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).not.toBe(value);
    expect(stored[0]).toMatch(/^[0-9a-f]{64}$/);
    const tls = await fetch(h.url + STREAM, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, 'x-forwarded-proto': 'https' },
      body: 'task=stream.display&nowpage=http%3A%2F%2Fsite.test%2F&initialize=true&module_available=0',
    });
    expect(tls.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
  });

  it('creates the SQLite database file readable by its owner only (0600)', async () => {
    h = await startCollector({ engine: 'sqlite' }); // a file only SQLite has, in either pass
    expect(statSync(h.dbPath).mode & 0o777).toBe(0o600);
  });
});

describe('floods', () => {
  it('20,000 heartbeats from one address in at most 15 s: 429 past the limit, page views at most the limit allows', async () => {
    const rate = { burst: 120, perSecond: 20 };
    h = await startCollector({ visitorRate: rate });
    const url = h.url + STREAM;
    const statuses = new Map<number, number>();
    const started = Date.now();
    let sent = 0;
    const worker = async () => {
      while (sent < 20_000 && Date.now() - started < 15_000) {
        sent++;
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': FORM_TYPE },
          body: `task=stream.display&nowpage=http%3A%2F%2Fsite.test%2F${sent}&initialize=true&module_available=0`,
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const seconds = (Date.now() - started) / 1000;
    const allowed = rate.burst + Math.ceil(seconds * rate.perSecond);
    const views = (await h.query('SELECT COUNT(*) AS n FROM page_views'))[0]!.n as number;
    expect(statuses.get(200)).toBe(views);
    expect(views).toBeLessThanOrEqual(allowed);
    expect(statuses.get(429)).toBe(sent - views);
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
  }, 30_000);

  it("100 junk clicks of 8 KB from one visitor leave every other visitor's selectors in /api/clicks, under the bundle's 256 KiB", async () => {
    h = await startCollector();
    const page = 'http://site.test/galerie';
    /** A new visitor with a page view of the gallery (clicks belong to a page view). */
    const viewer = async () =>
      (
        await fetch(h!.url + STREAM, {
          method: 'POST',
          headers: { 'content-type': FORM_TYPE },
          body: new URLSearchParams({
            task: 'stream.display',
            nowpage: page,
            initialize: 'true',
            module_available: '1',
          }).toString(),
        })
      ).headers
        .get('set-cookie')!
        .split(';')[0]!;
    const click = async (cookie: string | null, selector: string) => {
      const res = await fetch(h!.url + STREAM, {
        method: 'POST',
        headers: { 'content-type': FORM_TYPE, ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams({
          task: 'stream.saveEntity',
          resource: 'heatmapclick',
          nowpage: page,
          clicked_element: selector,
        }).toString(),
      });
      return res.headers.get('set-cookie')?.split(';')[0] ?? cookie;
    };
    // 30 real visitors, each clicking a selector of their own once
    const real = Array.from({ length: 30 }, (_, i) => `main>div.gallery>figure:nth-child(${i + 1})>img`);
    for (const selector of real) await click(await viewer(), selector);
    // one visitor: 100 different 8 KB selectors, each twice
    let junk: string | null = await viewer();
    for (let i = 0; i < 100; i++) {
      const selector = `div.x${i}>${'span.junk>'.repeat(800)}b`.slice(0, 8000);
      junk = await click(junk, selector);
      junk = await click(junk, selector);
    }
    const res = await fetch(`${h.url}/api/clicks?page=${encodeURIComponent(page)}`);
    const text = await res.text();
    expect(text.length).toBeLessThan(256 * 1024);
    const listed = (JSON.parse(text) as { clicks: Array<{ selector: string }> }).clicks.map((c) => c.selector);
    expect(real.filter((selector) => !listed.includes(selector))).toEqual([]);
  });
});

describe('a distributed flood', () => {
  const post = (url: string, address: string, body: Record<string, string>, cookie?: string | null) =>
    fetch(url + STREAM, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
      body: new URLSearchParams(body).toString(),
    });
  const cookieOf = (res: Response, before: string | null = null) => res.headers.get('set-cookie')?.split(';')[0] ?? before;

  it('cookieless clicks from one /24 are not stored: div.junk does not outrank what 3 real visitors clicked', async () => {
    h = await startCollector({ trustProxy: true });
    const page = 'http://site.test/galerie';
    const click = (address: string, selector: string, cookie?: string | null) =>
      post(
        h!.url,
        address,
        { task: 'stream.saveEntity', resource: 'heatmapclick', nowpage: page, clicked_element: selector },
        cookie,
      );
    // 3 real visitors: a page view each (the bundle records clicks only after its first heartbeat), 10 clicks each
    for (let v = 0; v < 3; v++) {
      const address = `192.0.2.${v + 1}`;
      const cookie = cookieOf(
        await post(h.url, address, { task: 'stream.display', nowpage: page, initialize: 'true', module_available: '1' }),
      );
      for (let i = 0; i < 10; i++) expect((await click(address, `figure:nth-child(${v + 1})>img`, cookie)).status).toBe(200);
    }
    // 40 calls without a cookie from one /24 on the same selector, then 110 distinct 8 KB selectors
    for (let i = 0; i < 40; i++) await click(`203.0.113.${i + 1}`, 'div.junk');
    for (let i = 0; i < 110; i++)
      await click(`203.0.113.${(i % 200) + 1}`, `div.x${i}>${'span.junk>'.repeat(800)}b`.slice(0, 8000));
    const listed = (
      (await (await fetch(`${h.url}/api/clicks?page=${encodeURIComponent(page)}`)).json()) as {
        clicks: Array<{ selector: string; count: number }>;
      }
    ).clicks;
    expect(listed).toEqual([1, 2, 3].map((n) => ({ selector: `figure:nth-child(${n})>img`, count: 10 })));
    expect(await h.query("SELECT COUNT(*) AS n FROM clicks WHERE selector LIKE 'div.%'")).toEqual([{ n: 0 }]);
  });

  it('200 addresses inside one /24 share its visitor limit, as the address is stored (/24): at most the limit stored', async () => {
    const rate = { burst: 120, perSecond: 20 };
    h = await startCollector({ trustProxy: true, visitorRate: rate });
    const statuses = new Map<number, number>();
    const started = Date.now();
    let sent = 0;
    const worker = async () => {
      while (sent < 1000) {
        const n = sent++;
        const res = await post(h!.url, `198.51.100.${(n % 200) + 1}`, {
          task: 'stream.display',
          nowpage: `http://site.test/${n}`,
          initialize: 'true',
          module_available: '0',
        });
        await res.arrayBuffer();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 32 }, worker));
    const seconds = (Date.now() - started) / 1000;
    const stored = (await h.query('SELECT COUNT(*) AS n FROM sessions'))[0]!.n as number;
    expect(stored).toBe(statuses.get(200));
    expect(stored).toBeLessThanOrEqual(rate.burst + Math.ceil(seconds * rate.perSecond));
    expect(statuses.get(429)).toBe(1000 - stored);
    // IPv6: the /48 is one visitor as well (what the collector stores of it)
    const started6 = Date.now();
    const v6 = await Promise.all(
      Array.from({ length: 300 }, async (_, i) => {
        const res = await post(h!.url, `2001:db8:77:${i.toString(16)}::1`, {
          task: 'stream.display',
          nowpage: 'http://site.test/v6',
          initialize: '',
          module_available: '0',
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    const allowed6 = rate.burst + Math.ceil(((Date.now() - started6) / 1000) * rate.perSecond);
    expect(v6.filter((s) => s === 200).length).toBeLessThanOrEqual(allowed6);
    expect(v6.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  }, 60_000);
});

describe("the site's own pages and origins", () => {
  const SITE = 'http://lichtwerk.test';
  const send = (url: string, body: Record<string, string>, headers: Record<string, string> = {}) =>
    fetch(url + STREAM, {
      method: 'POST',
      headers: { 'content-type': FORM_TYPE, ...headers },
      body: new URLSearchParams(body).toString(),
    });
  const view = (nowpage: string) => ({ task: 'stream.display', nowpage, initialize: 'true', module_available: '1' });

  it('page views and clicks of another host are refused and not stored; the site itself and its listed origins are', async () => {
    h = await startCollector({ sites: [SITE] });
    const evil = 'https://evil.example/login';
    expect((await send(h.url, view(evil))).status).toBe(403);
    const own = await send(h.url, view(`${h.url}/`));
    expect(own.status).toBe(200);
    const cookie = own.headers.get('set-cookie')!.split(';')[0]!;
    expect((await send(h.url, view(`${SITE}/galerie`), { cookie })).status).toBe(200);
    const click = (nowpage: string) =>
      send(h!.url, { task: 'stream.saveEntity', resource: 'heatmapclick', nowpage, clicked_element: 'a.x' }, { cookie });
    expect((await click(evil)).status).toBe(403);
    expect((await click(`${SITE}/galerie`)).status).toBe(200);
    const pages = (await h.query('SELECT page FROM clicks')).map((r) => r.page);
    expect(pages).toEqual([`${SITE}/galerie`]);
    const traffic = (await (await (await signIn(h.url)).get('/admin/api/traffic')).json()) as { pages: Array<{ label: string }> };
    expect(traffic.pages.map((p) => p.label).sort()).toEqual([`${SITE}/galerie`, `${h.url}/`].sort());
    expect((await fetch(`${h.url}/api/clicks?page=${encodeURIComponent(evil)}`)).status).toBe(403);
  });

  it('visitor calls from another Origin, or Origin null, are refused; our own, a listed site and none (not a browser) are taken', async () => {
    h = await startCollector({ sites: [SITE] });
    const consent = (origin?: string) =>
      fetch(`${h!.url}/index.php?option=com_gdpr&task=user.processGenericCookieCategories`, {
        method: 'POST',
        headers: { 'content-type': FORM_TYPE, ...(origin ? { origin } : {}) },
        body: 'gdpr_generic_cookie_consent=1',
      });
    expect((await consent('https://evil.example')).status).toBe(403);
    expect((await consent('null')).status).toBe(403);
    expect((await consent(h.url.replace('http:', 'https:'))).status).toBe(403);
    expect((await consent(h.url)).status).toBe(200);
    expect((await consent(SITE)).status).toBe(200);
    expect((await consent()).status).toBe(200);
    expect(await h.query('SELECT COUNT(*) AS n FROM cookie_consents')).toEqual([{ n: 3 }]);
  });
});
