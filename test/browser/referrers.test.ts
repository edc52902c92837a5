import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Traffic } from '../../collector/shared/admin-api';
import { collectPageErrors, grantConsent, launch } from '../support/browser';
import { removeDir, signIn, startCollector, type Harness } from '../support/collector';
import { serveBundleUnderTest } from '../support/demo';

/**
 * Where visitors came from, end to end through the BUILT bundle (PAGEPULSE_BUNDLE) and the
 * collector: two origins, the collector's demo site (127.0.0.1) and another site (localhost, a
 * second server) whose links lead to it. A real `document.referrer`, made by clicking a link,
 * reaches the dashboard's sources; a visitor moving within the site sends none. The other site's
 * Referrer-Policy decides how much of its address the demo page sees: under the browsers' default
 * (`strict-origin-when-cross-origin`) its origin only, under `unsafe-url` the whole address, of
 * which the collector keeps the path (docs/collector.md "Sources").
 */

let browser: Browser;
let site: Harness;
let other: Server;
let otherOrigin: string;

beforeAll(async () => {
  browser = await launch();
  site = await startCollector({ now: Date.now, settings: { daemonrefresh: 0.5 } });
  other = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // `/`: no Referrer-Policy (the default); `/blog/post.html`: the whole address passed on
    const headers: Record<string, string> = { 'content-type': 'text/html; charset=utf-8' };
    if (path === '/blog/post.html') headers['referrer-policy'] = 'unsafe-url';
    const target = path === '/blog/post.html' ? `${site.url}/kontakt/datenschutz.html` : `${site.url}/`;
    res.writeHead(path === '/' || path === '/blog/post.html' ? 200 : 404, headers);
    res.end(`<!doctype html><html lang="de"><title>Blog</title><p><a id="go" href="${target}">Lichtwerk</a></p>`);
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  // another host name for the same loopback address: another site to the browser and the bundle
  otherOrigin = `http://localhost:${(other.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await browser.close();
  await new Promise((resolve) => other.close(resolve));
  await site.close();
  removeDir(site.dbPath);
});

/** A visitor who allowed statistics on the demo site; the bodies of its heartbeats, in order. */
async function visitor(): Promise<{ context: BrowserContext; page: Page; bodies: string[]; errors: string[] }> {
  const context = await browser.newContext();
  await serveBundleUnderTest(context);
  await grantConsent(context, site.url);
  const bodies: string[] = [];
  context.on('request', (request) => {
    if (request.method() === 'POST' && request.url().includes('com_jrealtimeanalytics')) bodies.push(request.postData() ?? '');
  });
  const page = await context.newPage();
  return { context, page, bodies, errors: collectPageErrors(page) };
}

/** The heartbeats of one page (by its path), once the page view and a later beat were sent. */
async function beatsOf(bodies: string[], path: string): Promise<URLSearchParams[]> {
  const of = () =>
    bodies.map((b) => new URLSearchParams(b)).filter((f) => new URL(f.get('nowpage') ?? '', 'http://x').pathname === path);
  await expect.poll(() => of().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2);
  return of();
}

describe('sources, from a real document.referrer', () => {
  it('visitors clicking a link on another site appear under it; a visitor moving within the site does not', async () => {
    // 1: from the other site's home page (default policy): the demo sees its origin
    const a = await visitor();
    await a.page.goto(`${otherOrigin}/`);
    await Promise.all([a.page.waitForURL(`${site.url}/`), a.page.click('#go')]);
    expect(await a.page.evaluate(() => document.referrer)).toBe(`${otherOrigin}/`);
    const beatsA = await beatsOf(a.bodies, '/');
    expect(beatsA[0]!.get('initialize')).toBe('true');
    expect(beatsA[0]!.get('referrer')).toBe(`${otherOrigin}/`);
    // the last field of the page view's call; the later calls never carry it
    expect(a.bodies[0]!.endsWith(`&referrer=${encodeURIComponent(`${otherOrigin}/`)}`)).toBe(true);
    expect(beatsA.slice(1).map((f) => f.has('referrer'))).toEqual(beatsA.slice(1).map(() => false));
    expect(a.errors).toEqual([]);
    await a.context.close();

    // 2: from a post whose policy passes the whole address on: path kept, query dropped by the collector
    const b = await visitor();
    await b.page.goto(`${otherOrigin}/blog/post.html?id=3`);
    await Promise.all([b.page.waitForURL(`${site.url}/kontakt/datenschutz.html`), b.page.click('#go')]);
    expect(await b.page.evaluate(() => document.referrer)).toBe(`${otherOrigin}/blog/post.html?id=3`);
    expect((await beatsOf(b.bodies, '/kontakt/datenschutz.html'))[0]!.get('referrer')).toBe(`${otherOrigin}/blog/post.html?id=3`);
    expect(b.errors).toEqual([]);
    await b.context.close();

    // 3: within the site: a real same-site document.referrer, never sent
    const c = await visitor();
    await c.page.goto(`${site.url}/`);
    await beatsOf(c.bodies, '/');
    await Promise.all([
      c.page.waitForURL(`${site.url}/kontakt/datenschutz.html`),
      c.page.locator('a[href="/kontakt/datenschutz.html"]').first().click(),
    ]);
    expect(await c.page.evaluate(() => document.referrer)).toBe(`${site.url}/`);
    await beatsOf(c.bodies, '/kontakt/datenschutz.html');
    expect(c.bodies.filter((body) => body.includes('referrer'))).toEqual([]);
    expect(c.errors).toEqual([]);
    await c.context.close();

    // the admin API: two visits from `localhost`, their referring pages; the third visit has no source
    const admin = await signIn(site.url);
    const traffic = (await (await admin.get('/admin/api/traffic?period=today')).json()) as Traffic;
    expect(traffic.summary.visits.current).toBe(3);
    expect(traffic.sources).toEqual([{ label: 'localhost', current: 2, previous: 0 }]);
    expect(traffic.referrers).toEqual([
      { label: 'localhost/', current: 1, previous: 0 },
      { label: 'localhost/blog/post.html', current: 1, previous: 0 },
    ]);
    expect(await site.query('SELECT entry_page, source FROM visits ORDER BY id')).toEqual([
      { entry_page: `${site.url}/`, source: 'localhost' },
      { entry_page: `${site.url}/kontakt/datenschutz.html`, source: 'localhost' },
      { entry_page: `${site.url}/`, source: null },
    ]);
    // the query of the referring address is nowhere
    expect(JSON.stringify(await site.query('SELECT * FROM visits'))).not.toContain('id=3');
    expect(site.errors).toEqual([]);
  });
});
