import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUNDLE, collectConsole, collectPageErrors, grantConsent } from '../support/browser';
import type { Recorded, TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

// docs/protocol.md#5c against the built bundle: the analytics component's system plugin puts
// jrealtimeBaseURI, stream.js and heatmap.js (defer) into the head, com_gdpr's plugin its consent
// client. Whatever the order of the tags: one heartbeat loop, one click call per click, one banner.

/**
 * STAND-INS, not the components' code: scripts with the original clients' file names and globals
 * that do what they do on the wire (a heartbeat loop with initialize=true first, a click call per
 * click), marked with an `X-Stand-In` header so the recording server can tell them from PagePulse.
 */
const STREAM_STAND_IN = `(function () {
  window.__standInStream = (window.__standInStream || 0) + 1;
  function beat(first) {
    var x = new XMLHttpRequest();
    x.open('POST', window.jrealtimeBaseURI + 'index.php?option=com_jrealtimeanalytics&format=json');
    x.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8');
    x.setRequestHeader('X-Stand-In', 'stream.js');
    x.send('task=stream.display&nowpage=' + encodeURIComponent(location.href) + (first ? '&initialize=true' : '') + '&module_available=0');
  }
  beat(true);
  setInterval(function () { beat(false); }, 500);
})();`;
const HEATMAP_STAND_IN = `document.addEventListener('click', function () {
  var x = new XMLHttpRequest();
  x.open('POST', window.jrealtimeBaseURI + 'index.php?option=com_jrealtimeanalytics&task=stream.saveEntity&format=json');
  x.setRequestHeader('Content-Type', 'application/x-www-form-urlencoded; charset=UTF-8');
  x.setRequestHeader('X-Stand-In', 'heatmap.js');
  x.send('resource=heatmapclick&clicked_element=p&nowpage=' + encodeURIComponent(location.href));
});`;
const GDPR_STAND_IN = `window.__standInGdpr = true;
document.addEventListener('DOMContentLoaded', function () {
  var bar = document.createElement('div');
  bar.className = 'cc-window';
  bar.textContent = 'com_gdpr banner (stand-in)';
  document.body.appendChild(bar);
});`;

/** The head the component's plugin prints (as in ../shared/fixtures/real-server/joomla-3.9-protostar-home.html). */
const COMPONENT_HEAD = `<script src="/components/com_jrealtimeanalytics/js/stream.js" defer></script>
<script src="/components/com_jrealtimeanalytics/js/heatmap.js" defer></script>
<script>var jrealtimeBaseURI='/site/';</script>`;
const GDPR_HEAD = `<script>var gdprConfigurationOptions = { complianceType: 'opt-out' };</script>
<script src="/plugins/system/gdpr/assets/js/cookieconsent.min.js" defer></script>
<script src="/plugins/system/gdpr/assets/js/init.js" defer></script>`;
const TAG = `<script src="/dist/${BUNDLE}"></script>`;

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
  server.file('/components/com_jrealtimeanalytics/js/stream.js', STREAM_STAND_IN, 'text/javascript');
  server.file('/components/com_jrealtimeanalytics/js/heatmap.js', HEATMAP_STAND_IN, 'text/javascript');
  server.file('/plugins/system/gdpr/assets/js/cookieconsent.min.js', GDPR_STAND_IN, 'text/javascript');
  server.file('/plugins/system/gdpr/assets/js/init.js', 'window.__standInGdprInit = true;', 'text/javascript');
});

const page = (head: string, body = '') =>
  `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Joomla</title>${head}</head><body><p style="margin-top:320px"><button id="text">Klick</button></p>${body}</body></html>`;
const ofPage = (path: string) => (r: Recorded) => r.body.includes(encodeURIComponent(path));
const fromStandIn = (r: Recorded) => r.headers['x-stand-in'] !== undefined;
/** The first heartbeats (initialize=true) of a page, by sender: a heartbeat loop each. */
const loops = (path: string) =>
  server
    .calls('stream.display')
    .filter(ofPage(path))
    .filter((r) => r.body.includes('initialize=true'))
    .map((r) => (fromStandIn(r) ? 'stand-in' : `pagepulse ${r.url.split('?')[0]}`));

async function open(
  path: string,
  html: string,
  consent = '1.2.3',
  query = '',
): Promise<{ tab: Page; errors: string[]; lines: string[] }> {
  server.page(path, html);
  const context = await browser.newContext();
  if (consent) await grantConsent(context, server.origin, consent);
  const tab = await context.newPage();
  const errors = collectPageErrors(tab);
  const lines = collectConsole(tab);
  await tab.goto(`${server.origin}${path}${query}`);
  return { tab, errors, lines };
}

describe("the analytics component's own client on the page", () => {
  it('tag first in <head>: stream.js and heatmap.js never run; PagePulse is the only client, on the base printed after it', async () => {
    const { tab, errors } = await open('/orig-first.html', page(TAG + COMPONENT_HEAD));
    await expect.poll(() => loops('/orig-first.html')).toEqual(['pagepulse /site/index.php']);
    await tab.waitForFunction(() => window.PagePulse?.tracker.running());
    // the stand-ins were kept inert before the parser ran them, their address kept for the record
    expect(await tab.evaluate(() => (window as unknown as { __standInStream?: number }).__standInStream ?? 0)).toBe(0);
    expect(
      await tab.evaluate(() =>
        Array.from(document.querySelectorAll('script[data-src*="com_jrealtimeanalytics"]')).map((s) => s.getAttribute('type')),
      ),
    ).toEqual(['text/plain', 'text/plain']);
    await tab.waitForFunction(() => document.readyState === 'complete');
    const before = server.calls('stream.saveEntity').length;
    await tab.click('#text');
    await expect.poll(() => server.calls('stream.saveEntity').length).toBe(before + 1);
    expect(server.calls('stream.saveEntity').slice(before).filter(fromStandIn)).toEqual([]);
    expect(loops('/orig-first.html')).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('tag after them (the original client runs): no second heartbeat or click recorder, and debug mode says so', async () => {
    const { tab, errors } = await open('/orig-after.html', page(COMPONENT_HEAD, TAG), '1.2.3', '?pagepulse-debug=1');
    await expect.poll(() => loops('/orig-after.html')).toEqual(['stand-in']);
    await tab.waitForFunction(() => window.PagePulse !== undefined);
    expect(await tab.evaluate(() => window.PagePulse!.tracker.running())).toBe(false);
    await expect
      .poll(() => tab.evaluate(() => document.querySelector('pagepulse-debug')?.shadowRoot?.textContent ?? ''))
      .toContain('stream.js');
    const before = server.calls('stream.saveEntity').length;
    await tab.click('#text');
    await expect.poll(() => server.calls('stream.saveEntity').length).toBe(before + 1);
    expect(server.calls('stream.saveEntity').slice(before).every(fromStandIn)).toBe(true);
    expect(loops('/orig-after.html')).toEqual(['stand-in']);
    expect(errors).toEqual([]);
  });
});

describe("com_gdpr's own client on the page", () => {
  it('tag first: its client never runs, and PagePulse shows the one banner', async () => {
    const { tab } = await open('/gdpr-first.html', page(TAG + GDPR_HEAD), '');
    await tab.locator('pagepulse-consent .banner').waitFor();
    expect(await tab.evaluate(() => (window as unknown as { __standInGdpr?: boolean }).__standInGdpr ?? false)).toBe(false);
    expect(await tab.locator('.cc-window').count()).toBe(0);
  });

  it('tag after it: its banner is the one banner; PagePulse shows none', async () => {
    const { tab } = await open('/gdpr-after.html', page(GDPR_HEAD + TAG), '');
    await tab.locator('.cc-window').waitFor();
    await tab.waitForFunction(() => window.PagePulse !== undefined);
    expect(await tab.locator('pagepulse-consent .banner').count()).toBe(0);
  });
});

describe('placed after vendor code', () => {
  it('names on the console, once, the vendor code that ran before it', async () => {
    server.file('/ga/gtag.js', 'window.__gtagRan = true;', 'text/javascript');
    const { tab, lines } = await open(
      '/late.html',
      page(
        `<script>window.PagePulseConfig = { services: { 'google-analytics': { category: 3, name: 'Google Analytics', hosts: ['127.0.0.1/ga/'] } } };</script>
<script src="/ga/gtag.js"></script><script>window.dataLayer = []; function gtag(){dataLayer.push(arguments);} gtag('config', 'G-TEST');</script>`,
        TAG,
      ),
      '',
    );
    await tab.waitForFunction(() => window.PagePulse !== undefined);
    const warnings = lines.filter((line) => line.startsWith('warning: PagePulse'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('Google Analytics');
    expect(warnings[0]).toContain('<head>');
  });
});
