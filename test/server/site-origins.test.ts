import { afterEach, describe, expect, it } from 'vitest';
import type { CollectorOptions } from '../../collector/server/app';
import { closeHarness, FORM_TYPE, type Harness, rawRequest, signIn, startCollector, STREAM } from '../support/collector';

// "The site's pages and origins" (docs/collector.md): with PAGEPULSE_SITES, a page of another host is
// refused whatever the request calls itself. `Host` and `X-Forwarded-Host` are any client's to name
// (fetch always sends the real Host, so these requests go raw).
let h: Harness | null = null;
afterEach(async () => {
  await closeHarness(h);
  h = null;
});

const SITE = 'http://lichtwerk.test';
const EVIL = 'http://evil.example/login';

/** A visitor write with the given headers (no Origin unless given: not a browser). */
const post = async (fields: Record<string, string>, headers: Record<string, string>) => {
  const res = await rawRequest(h!.url, {
    method: 'POST',
    path: STREAM,
    headers: { 'content-type': FORM_TYPE, ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  const cookie = res.headers['set-cookie'];
  return { status: res.status, cookie: cookie ? String(cookie).split(';')[0]! : null };
};
const view = (nowpage: string) => ({ task: 'stream.display', nowpage, initialize: 'true', module_available: '1' });
const click = (nowpage: string) => ({
  task: 'stream.saveEntity',
  resource: 'heatmapclick',
  nowpage,
  clicked_element: 'div.junk',
});
const overlay = (page: string, headers: Record<string, string>) =>
  rawRequest(h!.url, { path: `/api/clicks?page=${encodeURIComponent(page)}`, headers });

describe('with PAGEPULSE_SITES, what the request calls itself makes no page of the site', () => {
  const start = async (options: CollectorOptions = {}) => (h = await startCollector({ sites: [SITE], ...options }));

  it('a forged Host: the page view, the click and the overlay read of its pages are refused, nothing is stored', async () => {
    await start();
    const forged = { host: 'evil.example' };
    expect((await post(view(EVIL), forged)).status).toBe(403);
    // a session with a page view of the site, clicking on the forged host's page
    const ok = await post(view(`${SITE}/`), forged);
    expect(ok.status).toBe(200);
    expect((await post(click(EVIL), { ...forged, cookie: ok.cookie! })).status).toBe(403);
    expect((await overlay(EVIL, forged)).status).toBe(403);
    expect(await h!.query('SELECT page FROM page_views')).toEqual([{ page: `${SITE}/` }]);
    expect(await h!.query('SELECT COUNT(*) AS n FROM clicks')).toEqual([{ n: 0 }]);
  });

  it("a forged Host's Origin is refused; the site's and the collector's own address (reached directly) are taken", async () => {
    await start();
    expect((await post(view(`${SITE}/`), { host: 'evil.example', origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(view(`${SITE}/`), { origin: SITE })).status).toBe(200);
    expect((await post(view(`${h!.url}/`), { origin: h!.url })).status).toBe(200);
    expect((await post(view(`${h!.url}/`), { host: 'evil.example' })).status).toBe(200);
  });

  it("behind a trusted proxy a forged X-Forwarded-Host is refused too, and so are the proxy's upstream's pages", async () => {
    await start({ trustProxy: true });
    const forged = { 'x-forwarded-host': 'evil.example', 'x-forwarded-for': '203.0.113.7' };
    expect((await post(view(EVIL), forged)).status).toBe(403);
    expect((await post(view(EVIL), { ...forged, origin: 'http://evil.example' })).status).toBe(403);
    expect((await post(view(`${h!.url}/`), { 'x-forwarded-for': '203.0.113.7' })).status).toBe(403);
    expect((await post(view(`${SITE}/a`), { ...forged, origin: SITE })).status).toBe(200);
    expect(await h!.query('SELECT page FROM page_views')).toEqual([{ page: `${SITE}/a` }]);
  });
});

describe("the clicks view's links", () => {
  it('name only pages of the site: behind a proxy not those of the host the admin came to, which is not listed', async () => {
    h = await startCollector({ sites: [SITE], trustProxy: true });
    const session = 'c'.repeat(64);
    await h.execute('INSERT INTO clicks (session_id, page, selector, at) VALUES (?, ?, ?, ?)', [
      [session, `${SITE}/a`, 'a.x', h.clock.now],
      [session, `${h.url}/b`, 'a.y', h.clock.now],
    ]);
    const admin = await signIn(h.url);
    const { pages } = (await (await admin.get('/admin/api/clicks?period=7d')).json()) as {
      pages: Array<{ page: string; href: string | null }>;
    };
    expect(Object.fromEntries(pages.map((p) => [p.page, p.href !== null]))).toEqual({
      [`${SITE}/a`]: true,
      [`${h.url}/b`]: false,
    });
  });
});

describe('without PAGEPULSE_SITES', () => {
  it('the origin the request came to is the site (the demo, a single host): its Host names it', async () => {
    h = await startCollector({ sites: [] });
    expect((await post(view(`${h.url}/`), {})).status).toBe(200);
    expect((await post(view(EVIL), { host: 'evil.example' })).status).toBe(200);
    expect((await post(view(EVIL), {})).status).toBe(403);
  });
});
