import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { attachments, BUNDLE, collectPageErrors, COUNT_ATTACHMENTS, grantConsent } from '../support/browser';
import { componentAnswer, fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

let browser: Browser;
let server: TestServer;

useBrowserAndServer(
  (b, s) => {
    browser = b;
    server = s;
  },
  { bfcache: true },
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Absence window: after destroy() no heartbeat or keep-alive leaves (1 s refresh, so one would). */
const NOTHING_AFTER_DESTROY_MS = 1200;
/** Measuring window after a bfcache restore: one loop makes 1 to 3 calls in it, two loops more. */
const ONE_LOOP_WINDOW_MS = 1500;

describe('page life cycle', () => {
  it('adds no unload/beforeunload listener and resumes once after the back/forward cache', async () => {
    const context = await browser.newContext();
    await grantConsent(context, server.origin);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.addInitScript(COUNT_ATTACHMENTS);
    await page.addInitScript(() =>
      addEventListener('pageshow', (e) => ((window as unknown as { __persisted: boolean }).__persisted = e.persisted)),
    );
    server.on('stream.display', () => ({ body: { ...componentAnswer, configparams: { daemonrefresh: 1 } } }));
    server.page('/bf-a.html', fixturePage({ body: '<a id="next" href="/bf-b.html">weiter</a>' }));
    server.page('/bf-b.html', '<!doctype html><title>b</title><p>b</p>');
    await page.goto(`${server.origin}/bf-a.html`);
    await server.waitFor('stream.display', 1);
    const attached = await attachments(page);
    expect(attached.listeners.filter((l) => /unload/.test(l))).toEqual([]);

    await page.click('#next');
    await page.waitForURL('**/bf-b.html');
    const before = server.calls('stream.display').length;
    await page.evaluate(() => undefined);
    await page.goBack({ waitUntil: 'commit' });
    await page.waitForFunction(() => location.pathname === '/bf-a.html');
    // restored from the back/forward cache, not reloaded
    expect(await page.evaluate(() => (window as unknown as { __persisted?: boolean }).__persisted)).toBe(true);
    await server.waitFor('stream.display', before + 1);
    // one loop: a fresh call at once, then one per second; two loops would double this
    await sleep(ONE_LOOP_WINDOW_MS);
    const after = server.calls('stream.display').length - before;
    expect(after).toBeGreaterThanOrEqual(1);
    expect(after).toBeLessThanOrEqual(3);
    expect(server.calls('stream.display').filter((c) => c.body.includes('initialize=true'))).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('destroy() leaves no listener, timer, observer or host element behind', async () => {
    const context = await browser.newContext();
    await grantConsent(context, server.origin);
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await page.addInitScript(COUNT_ATTACHMENTS);
    server.on('stream.display', (r) =>
      componentAnswer(r, { daemonrefresh: 0.3, enable_debug: 1 }, { loading: [{ corefile: 'a', details: 'b' }] }),
    );
    server.page(
      '/destroy.html',
      fixturePage({
        body: '<div id="jes_mod"><span class="badge" data-bind="visitors"></span></div>',
        attrs: { 'data-keepalive': '500' },
      }),
    );
    await page.goto(`${server.origin}/destroy.html`);
    await server.waitFor('stream.display', 2);
    await page.evaluate(() => window.PagePulse!.notify('Hallo'));
    await page.waitForFunction(() => document.querySelector('pagepulse-debug'));
    const running = await attachments(page);
    expect(running.listeners.length).toBeGreaterThan(0);
    expect(running.hosts).toBeGreaterThan(0);

    await page.evaluate(() => window.PagePulse!.destroy());
    // what destroy() takes down, waited for as state (an unmount may finish a task later)
    await expect.poll(() => attachments(page)).toEqual({ listeners: [], timeouts: 0, intervals: 0, observers: 0, hosts: 0 });
    expect(await page.evaluate(() => typeof window.PagePulse)).toBe('undefined');
    const count = server.calls('stream.display').length + server.calls('com_ajax').length;
    await sleep(NOTHING_AFTER_DESTROY_MS);
    expect(server.calls('stream.display').length + server.calls('com_ajax').length).toBe(count);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('destroy() takes the placeholders away too; a copy started after it puts one per blocked element', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    server.page(
      '/placeholders.html',
      fixturePage({ body: '<iframe data-category="4" data-src="/embed.html" title="Video" width="400" height="200"></iframe>' }),
    );
    await page.goto(`${server.origin}/placeholders.html`);
    await page.locator('.gdprlock-placeholder').waitFor();
    await page.evaluate(() => window.PagePulse!.destroy());
    expect(await page.locator('.gdprlock-placeholder').count()).toBe(0);
    expect(await page.locator('iframe').getAttribute('hidden')).toBeNull();
    expect(await page.locator('iframe').getAttribute('src')).toBeNull();
    await page.evaluate((src) => {
      const script = document.createElement('script');
      script.src = src;
      document.head.append(script);
    }, `/dist/${BUNDLE}`);
    await page.waitForFunction(() => typeof window.PagePulse === 'object');
    await expect.poll(() => page.locator('.gdprlock-placeholder').count()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
