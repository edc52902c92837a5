import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium; test tools' own browser downloads do not work on these machines. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Chromium 156 opens a WebUI omnibox popup (chrome://omnibox-popup.top-chrome/ and its AI-mode
 * page, in a renderer of their own) for EVERY browser context, headless too: about 1 s of CPU per
 * context, and the suites open a context per test (docs/testing.md). Its features are turned off.
 * Chromium does not merge repeated `--disable-features` switches (the last one wins), so the list
 * Playwright passes is read from playwright-core and passed again with ours, in place of its own.
 */
const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'WebUIOmniboxFullPopup'];
function playwrightDisabledFeatures(): string[] {
  const file = join(dirname(createRequire(import.meta.url).resolve('playwright-core/package.json')), 'lib/coreBundle.js');
  const list = /\bdisabledFeatures = \[([\s\S]*?)\]\.filter/.exec(readFileSync(file, 'utf8'))?.[1];
  const names = list
    ?.split('\n')
    .filter((line) => !line.trim().startsWith('//'))
    .flatMap((line) => [...line.matchAll(/"([A-Za-z0-9]+)"/g)].map((m) => m[1]!));
  if (!names?.length)
    throw new Error(
      `test/support/browser.ts: Playwright's disabledFeatures list was not found in ${file} (playwright-core changed)`,
    );
  return names;
}
const PLAYWRIGHT_DISABLED = playwrightDisabledFeatures();
const DISABLE_FEATURES = `--disable-features=${[...PLAYWRIGHT_DISABLED, ...OUR_DISABLED_FEATURES].join(',')}`;

/** Which built bundle the browser suites load (both builds run the whole suite). */
export const BUNDLE = process.env.PAGEPULSE_BUNDLE ?? 'pagepulse.iife.js';

/**
 * Launch headless Chromium; `bfcache` drops Playwright's default --disable-back-forward-cache.
 * `proxy` (the vendor proxy's `proxyUrl`, test/support/vendor-proxy.ts) carries every host but
 * loopback, and its throwaway certificates are accepted in every context of this browser.
 */
export function launch(options: { bfcache?: boolean; proxy?: string } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [...ARGS, DISABLE_FEATURES, ...(options.proxy ? ['--ignore-certificate-errors'] : [])],
    headless: true,
    ignoreDefaultArgs: [
      `--disable-features=${PLAYWRIGHT_DISABLED.join(',')}`,
      ...(options.bfcache ? ['--disable-back-forward-cache'] : []),
    ],
    // Playwright sends loopback through a proxy too unless the bypass names it: the test server stays direct
    proxy: options.proxy ? { server: options.proxy, bypass: 'localhost,127.0.0.1,[::1]' } : undefined,
  });
}

/**
 * An init script that counts what the BUNDLE attaches to the page (registrations whose call stack
 * runs through /dist/pagepulse*.js; Playwright's and the page's own are left out): live event
 * listeners on window, document and connected nodes, pending timeouts, live intervals and
 * observing MutationObservers. Read it with `attachments(page)`.
 */
export const COUNT_ATTACHMENTS = `(() => {
  const pattern = new RegExp('/dist/pagepulse[^/]*[.]js');
  const ours = () => pattern.test(new Error().stack || '');
  const live = new Set();
  const key = (t, type, fn, o) => [t, type, fn, typeof o === 'boolean' ? o : !!(o && o.capture)];
  const same = (a, b) => a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3];
  const drop = (k) => { for (const x of live) if (same(x, k)) live.delete(x); };
  const add = EventTarget.prototype.addEventListener, remove = EventTarget.prototype.removeEventListener;
  EventTarget.prototype.addEventListener = function (type, fn, o) {
    if (fn && ours()) {
      const k = key(this, type, fn, o);
      if (![...live].some((x) => same(x, k))) live.add(k);
      if (o && o.once) add.call(this, type, () => drop(k), { once: true, capture: k[3] });
    }
    return add.call(this, type, fn, o);
  };
  EventTarget.prototype.removeEventListener = function (type, fn, o) {
    drop(key(this, type, fn, o));
    return remove.call(this, type, fn, o);
  };
  const timeouts = new Set(), intervals = new Set();
  const st = window.setTimeout, ct = window.clearTimeout, si = window.setInterval, ci = window.clearInterval;
  window.setTimeout = function (fn, ms, ...a) {
    const mine = ours();
    const id = st(function () { timeouts.delete(id); return typeof fn === 'function' ? fn.apply(this, arguments) : undefined; }, ms, ...a);
    if (mine) timeouts.add(id);
    return id;
  };
  window.clearTimeout = function (id) { timeouts.delete(id); return ct(id); };
  window.setInterval = function (...a) { const id = si(...a); if (ours()) intervals.add(id); return id; };
  window.clearInterval = function (id) { intervals.delete(id); return ci(id); };
  const observing = new Set();
  const observe = MutationObserver.prototype.observe, disconnect = MutationObserver.prototype.disconnect;
  MutationObserver.prototype.observe = function (...a) { if (ours()) observing.add(this); return observe.apply(this, a); };
  MutationObserver.prototype.disconnect = function () { observing.delete(this); return disconnect.call(this); };
  window.__attachments = () => ({
    listeners: [...live]
      .filter(([t]) => t === window || t === document || (t instanceof Node && t.isConnected))
      .map(([t, type]) => (t === window ? 'window' : t === document ? 'document' : t.nodeName) + ':' + type),
    timeouts: timeouts.size,
    intervals: intervals.size,
    observers: observing.size,
    hosts: document.querySelectorAll('pagepulse-consent, pagepulse-debug, pagepulse-notify, pagepulse-heatmap, .gdprlock-placeholder').length,
  });
})();`;

/** What the page has attached now (needs COUNT_ATTACHMENTS as an init script). */
export function attachments(
  page: Page,
): Promise<{ listeners: string[]; timeouts: number; intervals: number; observers: number; hosts: number }> {
  return page.evaluate(() => (window as unknown as { __attachments: () => never }).__attachments());
}

/**
 * Put the page's clock on a fake one, paused (call before the page loads): its timers run only when
 * the test runs the clock (`page.clock.runFor`), so a busy machine's slowness cannot fire a timer.
 */
export async function pauseClock(page: Page, start = Date.UTC(2026, 10, 25, 12)): Promise<void> {
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
}

/** Errors the page threw or rejected without handling; a test asserts this stays empty. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

/**
 * The jQuery a page loaded (`window.jQuery.fn.jquery`; null without one). The differential pages
 * load node_modules/jquery and assert it is 1.12.4 (the version Joomla 3 ships): a dependency
 * update must turn those tests red, not silently compare against another jQuery.
 */
export function jqueryVersion(page: Page): Promise<string | null> {
  return page.evaluate(
    () => (window as unknown as { jQuery?: { fn?: { jquery?: unknown } } }).jQuery?.fn?.jquery?.toString() ?? null,
  );
}

/** Console messages of the page, as `type: text`. */
export function collectConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (message) => lines.push(`${message.type()}: ${message.text()}`));
  return lines;
}

/** Give a context the consent cookies as if the visitor had chosen (docs/protocol.md#consent). */
export async function grantConsent(
  context: BrowserContext,
  origin: string,
  categories = '1.2.3',
  status = 'allow',
): Promise<void> {
  await context.addCookies([
    { name: 'cookieconsent_status', value: status, url: origin, sameSite: 'Lax' },
    { name: 'cookieconsent_categories', value: categories, url: origin, sameSite: 'Lax' },
  ]);
}

/** Text inside a host element's open shadow root ('' when the host is absent). */
export function shadowText(page: Page, host: string): Promise<string> {
  return page.evaluate((tag) => document.querySelector(tag)?.shadowRoot?.textContent ?? '', host);
}
