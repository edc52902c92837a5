import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { collectPageErrors, grantConsent, jqueryVersion } from '../support/browser';
import { COMPONENT_BINDS, COMPONENT_CONFIG, fixturePage, type Recorded, type Reply, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

// Protocol section 3: one page view, one initialize=true; heartbeat bodies byte-equal to what the
// original stream script sends through jQuery 1.12.4 (run in the page as the reference).

let browser: Browser;
let server: TestServer;
const JQUERY = readFileSync(fileURLToPath(new URL('../../node_modules/jquery/dist/jquery.js', import.meta.url)), 'utf8');
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.file('/vendor/jquery-1.12.4.js', JQUERY, 'text/javascript');
  server.file('/vendor/original-stream.js', ORIGINAL_STREAM, 'text/javascript');
});

const MODULE = '<div id="jes_mod"><span class="badge" data-bind="visitors">0</span></div>';
/**
 * The component's answer with its configparams (string-typed, as recorded) at 0.2 s on EVERY call,
 * where the real server sends them on the first only: these tests make the first answer one the
 * bundle cannot read, and need the 0.2 s interval from whichever answer it reads first.
 */
const FAST = { configparams: { ...COMPONENT_CONFIG, daemonrefresh: '0.2' }, 'data-bind': COMPONENT_BINDS };
const fast = (): Reply => ({ body: FAST });
/** A PHP notice printed before the JSON: the server has run (and counted) the call. */
const NOTICE =
  '<br />\n<b>Notice</b>:  Undefined index: HTTP_REFERER in <b>/var/www/components/com_jrealtimeanalytics/models/stream.php</b> on line <b>212</b><br />\n' +
  JSON.stringify(FAST);
const HTML_200: Reply = {
  body: '<!doctype html><html><head><title>Wartung</title></head><body><h1>Die Seite wird gewartet</h1></body></html>',
  headers: { 'content-type': 'text/html; charset=utf-8' },
};

/**
 * The reference: the original stream script's data object for a call, sent through jQuery
 * 1.12.4's `$.ajax` (settings deep-copied with jQuery.extend, which drops undefined, then
 * `$.param`); beforeSend captures the encoded body and cancels the request. The Windows 11
 * check is the original's: client hints asked once, on the first call.
 */
const ORIGINAL_STREAM = `(function () {
  var windowsver;
  window.__original = {
    askWindows: function () {
      if (!navigator.userAgentData) return Promise.resolve();
      return navigator.userAgentData.getHighEntropyValues(['platformVersion']).then(function (ua) {
        if (navigator.userAgentData.platform === 'Windows' && parseInt(ua.platformVersion.split('.')[0]) >= 13) windowsver = 'Windows 11';
      });
    },
    windowsver: function () { return windowsver; },
    body: function (first) {
      var data = {
        task: 'stream.display',
        nowpage: window.location.href,
        initialize: first ? true : undefined,
        module_available: jQuery('#jes_mod').length,
        device_width: first ? window.outerWidth : undefined,
        device_height: first ? window.outerHeight : undefined,
        windowsver: first ? undefined : windowsver
      };
      var sent = null;
      jQuery.ajax({ url: 'index.php?option=com_jrealtimeanalytics&format=json', type: 'POST', dataType: 'json', data: data,
        beforeSend: function (xhr, settings) { sent = settings.data; return false; } });
      return sent;
    }
  };
})();`;

/** A fresh visitor (no consent cookies yet) unless `consent` is set. */
async function open(
  options: { consent?: boolean; windows?: string } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext();
  if (options.consent) await grantConsent(context, server.origin);
  const page = await context.newPage();
  if (options.windows) {
    // client hints as a Windows machine sends them (platformVersion 13+ is Windows 11)
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setUserAgentOverride', {
      userAgent:
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
      userAgentMetadata: {
        brands: [{ brand: 'Chromium', version: '130' }],
        fullVersionList: [{ brand: 'Chromium', version: '130.0.0.0' }],
        platform: 'Windows',
        platformVersion: options.windows,
        architecture: 'x86',
        model: '',
        mobile: false,
        bitness: '64',
      },
    });
  }
  return { context, page, errors: collectPageErrors(page) };
}

/** Heartbeats of one fixture page (nowpage carries its path). */
const beats = (path: string): Recorded[] =>
  server.calls('stream.display').filter((c) => new URLSearchParams(c.body).get('nowpage')?.includes(path));
const initializes = (path: string) => beats(path).filter((c) => new URLSearchParams(c.body).has('initialize'));

async function waitForBeats(path: string, count: number, timeoutMs = 15_000): Promise<Recorded[]> {
  await expect.poll(() => beats(path).length, { timeout: timeoutMs }).toBeGreaterThanOrEqual(count);
  return beats(path);
}

describe('one page view, one initialize=true', () => {
  for (const [name, path, act] of [
    [
      'Alle akzeptieren',
      '/accept-all.html',
      (page: Page) => page.locator('pagepulse-consent').getByRole('button', { name: 'Alle akzeptieren', exact: true }).click(),
    ],
    [
      'Auswahl speichern with Statistiken',
      '/save-stats.html',
      async (page: Page) => {
        await page.locator('pagepulse-consent input#pp-cat-3').check();
        await page.locator('pagepulse-consent').getByRole('button', { name: 'Auswahl speichern', exact: true }).click();
      },
    ],
    ['the country rule', '/country-us.html', null],
  ] as const) {
    it(`${name} on a first visit: no reload (the choice only adds), this page sends the one page view`, async () => {
      server.on('stream.display', () => fast());
      server.page(path, fixturePage({ body: MODULE, attrs: path === '/country-us.html' ? { 'data-country': 'US' } : {} }));
      const { context, page, errors } = await open();
      await page.goto(`${server.origin}${path}`);
      const firstDocument = await page.evaluate(() => performance.timeOrigin);
      if (act) await act(page);
      const calls = await waitForBeats(path, 4);
      // the same document all along: the blocker released in place and the tracker started here
      expect(await page.evaluate(() => performance.timeOrigin)).toBe(firstDocument);
      expect(initializes(path)).toHaveLength(1);
      expect(initializes(path)[0]).toBe(calls[0]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  it('a choice that takes something back reloads: the old page stops, the reloaded page sends its own page view', async () => {
    server.on('stream.display', () => fast());
    const path = '/narrow.html';
    server.page(path, fixturePage({ body: MODULE }));
    const { context, page, errors } = await open();
    await grantConsent(context, server.origin, '1.2.3.4');
    await page.goto(`${server.origin}${path}`);
    await waitForBeats(path, 2);
    const firstDocument = await page.evaluate(() => performance.timeOrigin);
    await page.evaluate(() => window.PagePulse!.consent.set({ 4: false }));
    await expect
      .poll(() => page.evaluate(() => performance.timeOrigin).catch(() => firstDocument), { timeout: 6000 })
      .not.toBe(firstDocument);
    await page.waitForLoadState('load');
    const reloaded = await page.evaluate(() => performance.timeOrigin);
    await expect.poll(() => initializes(path).length).toBe(2);
    expect(initializes(path)[1]!.at).toBeGreaterThanOrEqual(Math.floor(reloaded));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('a PHP notice before the JSON (on the first and later answers) counts as an answer', async () => {
    // 0: notice; 1: clean at 0.2 s; 2 and 3: notice again (retried); then clean
    server.on('stream.display', (r) => ([0, 2, 3].includes(beats('/notice.html').indexOf(r)) ? { body: NOTICE } : fast()));
    await pageView('/notice.html', 6);
  });

  it('a 200 with an HTML page counts as an answer', async () => {
    server.on('stream.display', (r) => ([0, 2].includes(beats('/html200.html').indexOf(r)) ? HTML_200 : fast()));
    await pageView('/html200.html', 5);
  });

  it('a first answer slower than the timeout counts as sent', async () => {
    server.on('stream.display', (r) => (beats('/slow.html').indexOf(r) === 0 ? { body: FAST, delayMs: 1500 } : fast()));
    await pageView('/slow.html', 4, '<script>window.PagePulseConfig = { requestTimeout: 400 };</script>');
  });

  it('a first call that never reached the server is repeated with initialize=true', async () => {
    server.on('stream.display', () => fast());
    server.page('/refused.html', fixturePage({ body: MODULE }));
    const { context, page, errors } = await open({ consent: true });
    let refused = 0;
    await page.route('**/index.php?option=com_jrealtimeanalytics*', (route) =>
      refused++ === 0 ? route.abort('connectionrefused') : route.continue(),
    );
    await page.goto(`${server.origin}/refused.html`);
    const calls = await waitForBeats('/refused.html', 3);
    expect(refused).toBeGreaterThanOrEqual(4);
    // the refused call never arrived; the retry carries the page view, once
    expect(initializes('/refused.html')).toHaveLength(1);
    expect(initializes('/refused.html')[0]).toBe(calls[0]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** Load a page with consent given and check that `count` heartbeats carry exactly one initialize=true, the first. */
async function pageView(path: string, count: number, head = ''): Promise<void> {
  server.page(path, fixturePage({ body: MODULE, head }));
  const { context, page, errors } = await open({ consent: true });
  await page.goto(`${server.origin}${path}`);
  const calls = await waitForBeats(path, count, 20_000);
  expect(initializes(path)).toHaveLength(1);
  expect(initializes(path)[0]).toBe(calls[0]);
  expect(errors).toEqual([]);
  await context.close();
}

describe('heartbeat bodies byte-equal to jQuery 1.12.4 running the original data object', () => {
  const head = '<script src="/vendor/jquery-1.12.4.js"></script><script src="/vendor/original-stream.js"></script>';
  const cases = [
    { name: 'the module once', path: '/diff-once.html', body: MODULE, windows: undefined, module: '1', win11: false },
    {
      name: 'the module twice (a duplicate id)',
      path: '/diff-twice.html',
      body: `${MODULE}<aside>${MODULE}</aside>`,
      windows: undefined,
      module: '1',
      win11: false,
    },
    { name: 'no module', path: '/diff-none.html', body: '<p>Text</p>', windows: undefined, module: '0', win11: false },
    {
      name: 'an emulated Windows 11 client',
      path: '/diff-win11.html',
      body: MODULE,
      windows: '15.0.0',
      module: '1',
      win11: true,
    },
    {
      name: 'an emulated Windows 10 client',
      path: '/diff-win10.html',
      body: MODULE,
      windows: '10.0.0',
      module: '1',
      win11: false,
    },
    {
      // a visitor from another site: the page view's call is the original's bytes plus `&referrer=`
      // (our addition, encoded by the same $.param), the later calls the original's
      name: 'a referrer of another host',
      path: '/diff-from-search.html',
      body: MODULE,
      windows: undefined,
      module: '1',
      win11: false,
      referer: "https://www.search.example/find?q=a b&x=(1)!*'~",
    },
    {
      name: 'a referrer of the same site (not sent)',
      path: '/diff-from-site.html',
      body: MODULE,
      windows: undefined,
      module: '1',
      win11: false,
      referer: 'SITE/elsewhere.html?x=1',
    },
  ];
  for (const c of cases) {
    it(`calls 1 to 3 with ${c.name}`, async () => {
      server.on('stream.display', () => fast());
      server.page(c.path, fixturePage({ head, body: c.body }));
      const { context, page, errors } = await open({ consent: true, windows: c.windows });
      const referer = c.referer?.replace('SITE', server.origin);
      await page.goto(`${server.origin}${c.path}?q=a b&x=(1)!*'~`, referer ? { referer } : {});
      const calls = (await waitForBeats(c.path, 3)).slice(0, 3);
      const referrer = await page.evaluate(() => document.referrer);
      // the page's own view of where the visitor came from: what the bundle reads
      expect(referrer).toBe(referer ? new URL(referer).href : '');
      const foreign = c.referer !== undefined && !c.referer.startsWith('SITE');
      // the expected bodies come from this jQuery: it must be 1.12.4 (Joomla 3's)
      expect(await jqueryVersion(page), 'jQuery in the differential page').toBe('1.12.4');
      await page.evaluate(() => (window as unknown as { __original: { askWindows(): Promise<void> } }).__original.askWindows());
      const expected = await page.evaluate(() =>
        [0, 1, 2].map((n) => (window as unknown as { __original: { body(first: boolean): string } }).__original.body(n === 0)),
      );
      const suffix = foreign
        ? await page.evaluate(
            (r) => `&${(window as unknown as { jQuery: { param(o: object): string } }).jQuery.param({ referrer: r })}`,
            referrer,
          )
        : '';
      expect(calls.map((call) => call.body)).toEqual([expected[0] + suffix, expected[1], expected[2]]);
      expect(new URLSearchParams(calls[0]!.body).get('referrer')).toBe(foreign ? referrer : null);
      expect(calls.slice(1).some((call) => call.body.includes('referrer'))).toBe(false);
      // the facts the comparison rests on, stated directly
      const forms = calls.map((call) => new URLSearchParams(call.body));
      expect(forms.map((f) => f.get('initialize'))).toEqual(['true', null, null]);
      expect(forms.map((f) => f.get('module_available'))).toEqual([c.module, c.module, c.module]);
      expect(
        calls[1]!.body.endsWith(
          c.win11 ? `&module_available=${c.module}&windowsver=Windows+11` : `&module_available=${c.module}`,
        ),
      ).toBe(true);
      expect(calls[2]!.body.endsWith(c.win11 ? '&windowsver=Windows+11' : `&module_available=${c.module}`)).toBe(true);
      expect(calls[0]!.body).not.toContain('windowsver');
      expect(
        await page.evaluate(() => (window as unknown as { __original: { windowsver(): unknown } }).__original.windowsver()),
      ).toBe(c.win11 ? 'Windows 11' : undefined);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
