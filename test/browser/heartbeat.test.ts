import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { collectPageErrors, grantConsent, launch } from '../support/browser';
import { DEFAULT_STREAM_ANSWER, fixturePage, startServer, type TestServer } from '../support/server';

let browser: Browser;
let server: TestServer;
let context: BrowserContext;
let page: Page;
let errors: string[];

const STATS_MODULE = `<div id="jes_mod"><span class="badge" data-bind="users_onpage">0</span><span class="badge" data-bind="visitors">0</span></div>`;

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser.close();
});
beforeEach(async () => {
  server = await startServer();
  context = await browser.newContext();
  await grantConsent(context, server.origin);
  page = await context.newPage();
  errors = collectPageErrors(page);
});
afterEach(async () => {
  await context.close();
  await server.close();
});

const answer = (configparams: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  body: { ...DEFAULT_STREAM_ANSWER, configparams: { ...DEFAULT_STREAM_ANSWER.configparams, ...configparams }, ...extra },
});

describe('heartbeat on the wire (protocol section 3)', () => {
  it('sends the first and second bodies byte for byte', async () => {
    server.on('stream.display', () => answer({ daemonrefresh: 0.2 }));
    server.page('/seite.html', fixturePage({ body: STATS_MODULE }));
    const address = `${server.origin}/seite.html?q=a b&x=(1)!*'~`;
    await page.goto(address);
    const [first, second] = await server.waitFor('stream.display', 2);
    const href = await page.evaluate(() => location.href);
    const size = await page.evaluate(() => [window.outerWidth, window.outerHeight]);
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    expect(first!.body).toBe(
      `task=stream.display&nowpage=${enc(href)}&initialize=true&module_available=1&device_width=${size[0]}&device_height=${size[1]}`,
    );
    expect(second!.body).toBe(`task=stream.display&nowpage=${enc(href)}&initialize=&module_available=1`);
    // jQuery's $.param leaves ( ) ! ' * ~ as they are; URLSearchParams would not
    expect(first!.body).toContain('(1)!*');
    expect(first!.body).not.toMatch(/%28|%29|%21|%2A/);
    expect(first!.method).toBe('POST');
    expect(first!.url).toBe('/index.php?option=com_jrealtimeanalytics&format=json');
    expect(first!.headers['content-type']).toBe('application/x-www-form-urlencoded; charset=UTF-8');
    expect(first!.headers['x-requested-with']).toBe('XMLHttpRequest');
    expect(errors).toEqual([]);
  });

  it('counts zero modules when the statistics module is absent', async () => {
    server.page('/leer.html', fixturePage());
    await page.goto(`${server.origin}/leer.html`);
    const [first] = await server.waitFor('stream.display', 1);
    expect(first!.body).toContain('&module_available=0&');
  });
});
