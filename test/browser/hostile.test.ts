import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BUNDLE, collectPageErrors, grantConsent, shadowText } from '../support/browser';
import { param } from '../support/jquery-param';
import { componentAnswer, fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

/** Absence window: CSP violations are reported asynchronously; none may come in it. */
const NO_VIOLATION_MS = 600;

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});

/** What old CMS libraries (Prototype, MooTools) and careless themes did to a page. */
const HOSTILE_HEAD = `<style>
  * { all: unset; }
  div, section, button, span { display: none !important; }
  body::after { content: ''; position: fixed; inset: 0; z-index: 2147483647; }
  .overlay { position: fixed; inset: 0; z-index: 999999999; background: rgba(0,0,0,.01); }
</style>
<script>
  Array.prototype.toJSON = function () { return 'array!'; };
  Array.prototype.each = function (fn) { for (var i = 0; i < this.length; i++) fn(this[i]); };
  Array.prototype.remove = function () { return this; };
  Object.defineProperty(Array.prototype, 'includes2', { value: 1, enumerable: true });
  Function.prototype.bind2 = function () { return this; };
  String.prototype.trim2 = function () { return this; };
  String.prototype.escapeHTML = function () { return 'x'; };
  Element.prototype.hide = function () { this.style.display = 'none'; };
  Element.prototype.remove2 = function () {};
  Object.prototype.extend = function () { return this; };
  window.__fetchCalls = 0;
  var realFetch = window.fetch;
  window.fetch = function (input, init) { window.__fetchCalls++; return realFetch.apply(this, arguments); };
</script>`;

describe('hostile host pages', () => {
  it('extended natives, wrapped fetch and aggressive CSS: byte-correct requests, the debug box still shows', async () => {
    server.on('stream.display', (r, n) =>
      componentAnswer(
        r,
        { daemonrefresh: 0.2, enable_debug: 1 },
        n === 0 ? { loading: [{ corefile: 'Titel', details: 'Text' }] } : {},
      ),
    );
    server.page(
      '/hostile.html',
      fixturePage({
        head: HOSTILE_HEAD,
        body: '<div class="overlay"></div><div id="jes_mod"><span class="badge" data-bind="visitors">0</span></div>',
      }),
    );
    const context = await browser.newContext();
    await grantConsent(context, server.origin);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.origin}/hostile.html`);
    const [first, second] = await server.waitFor('stream.display', 2);
    const href = await page.evaluate(() => location.href);
    const size = await page.evaluate(() => [outerWidth, outerHeight]);
    // expected bytes from jQuery 1.12.4's own $.param (test/support/jquery-param.ts), not from src/
    expect(first!.body).toBe(
      param([
        ['task', 'stream.display'],
        ['nowpage', href],
        ['initialize', true],
        ['module_available', 1],
        ['device_width', size[0]],
        ['device_height', size[1]],
      ]),
    );
    expect(second!.body).toBe(
      param([
        ['task', 'stream.display'],
        ['nowpage', href],
        ['module_available', 1],
      ]),
    );
    expect(await page.evaluate(() => (window as unknown as { __fetchCalls: number }).__fetchCalls)).toBeGreaterThanOrEqual(2);
    await expect.poll(() => shadowText(page, 'pagepulse-debug')).toContain('Titel');
    // visible despite `* { all: unset }` and `div { display: none !important }`
    const box = await page.evaluate(() => {
      const host = document.querySelector('pagepulse-debug')!;
      const section = host.shadowRoot!.querySelector('section')!.getBoundingClientRect();
      return {
        display: getComputedStyle(host).display,
        position: getComputedStyle(host).position,
        z: getComputedStyle(host).zIndex,
        height: section.height,
      };
    });
    expect(box).toMatchObject({ display: 'block', position: 'fixed', z: '2147483647' });
    expect(box.height).toBeGreaterThan(10);
    expect(await page.locator('#jes_mod .badge').textContent()).toBe('1');
    // the close button is really on top of the page's overlays and works
    await page.locator('pagepulse-debug button').click();
    await expect.poll(() => shadowText(page, 'pagepulse-debug')).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('strict Content-Security-Policy', () => {
  it("works under default-src 'self'; script-src 'self'; style-src 'self' without a single violation", async () => {
    server.on('stream.display', (r) =>
      componentAnswer(r, { daemonrefresh: 0.3, enable_debug: 1 }, { loading: [{ corefile: 'CSP', details: 'ok' }] }),
    );
    server.file(
      '/csp-probe.js',
      "window.__violations = []; document.addEventListener('securitypolicyviolation', function (e) { window.__violations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + (e.sample || '')); });",
      'text/javascript',
    );
    server.page(
      '/csp.html',
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>CSP</title><script src="/csp-probe.js"></script></head>
<body><div id="jes_mod"><span class="badge" data-bind="visitors">0</span></div><button id="b">Knopf</button>
<script src="/dist/${BUNDLE}" data-keepalive="400"></script></body></html>`,
      { 'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'" },
    );
    const context = await browser.newContext();
    await grantConsent(context, server.origin);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.origin}/csp.html`);
    await server.waitFor('stream.display', 2);
    await expect.poll(() => shadowText(page, 'pagepulse-debug')).toContain('CSP');
    await page.click('#b');
    await server.waitFor('stream.saveEntity', 1);
    await page.evaluate(() => window.PagePulse!.notify('Hallo'));
    await page.waitForTimeout(NO_VIOLATION_MS);
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    // the shadow styles really apply (constructable stylesheets are not blocked)
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('pagepulse-debug')!).position)).toBe('fixed');
    expect(errors).toEqual([]);
    await context.close();
  });

  it("runs a held inline snippet that carries the page's nonce once allowed (a policy in a header hides the nonce)", async () => {
    const policy = "default-src 'self'; script-src 'self' 'nonce-r4nd0m'; style-src 'self'";
    server.page(
      '/nonce.html',
      `<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Nonce</title>
<script src="/dist/${BUNDLE}" nonce="r4nd0m"></script>
<script type="text/plain" data-category="3" nonce="r4nd0m">window.__snippet = 1;</script></head>
<body><p>Seite</p></body></html>`,
      { 'content-security-policy': policy },
    );
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${server.origin}/nonce.html`);
    await page.locator('pagepulse-consent .banner').waitFor();
    expect(await page.evaluate(() => (window as unknown as { __snippet?: number }).__snippet)).toBeUndefined();
    await page.evaluate(() => window.PagePulse!.consent!.set({ 3: true }));
    await expect.poll(() => page.evaluate(() => (window as unknown as { __snippet?: number }).__snippet)).toBe(1);
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
