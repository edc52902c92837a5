import { statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { storedAddress } from '../../collector/server/client-ip';
import { FORM_TYPE, STREAM, removeDir, startCollector, type Harness } from '../support/collector';

// The collector's hardening (docs/collector.md#security-and-privacy): what it stores of an address,
// its cookies, its database file, and floods from one address or one visitor.
let h: Harness | null = null;
afterEach(async () => {
  if (!h) return;
  await h.close();
  removeDir(h.dbPath);
  expect(h.errors).toEqual([]);
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
    const views = (await h.query('SELECT COUNT(*) AS n FROM heartbeats WHERE initialize = 1'))[0]!.n as number;
    expect(statuses.get(200)).toBe(views);
    expect(views).toBeLessThanOrEqual(allowed);
    expect(statuses.get(429)).toBe(sent - views);
    expect([...statuses.keys()].sort()).toEqual([200, 429]);
  }, 30_000);

  it("100 junk clicks of 8 KB from one visitor leave every other visitor's selectors in /api/clicks, under the bundle's 256 KiB", async () => {
    h = await startCollector();
    const page = 'http://site.test/galerie';
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
    for (const selector of real) await click(null, selector);
    // one visitor: 100 different 8 KB selectors, each twice
    let junk: string | null = null;
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
