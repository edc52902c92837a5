import type { Browser } from 'playwright-core';
import { expect, it } from 'vitest';
import { collectPageErrors, grantConsent } from '../support/browser';
import { componentAnswer, fixturePage, type TestServer } from '../support/server';
import { useBrowserAndServer } from '../support/suite';

let browser: Browser;
let server: TestServer;
useBrowserAndServer((b, s) => {
  browser = b;
  server = s;
});

/**
 * Records when the UI library's module code first runs: React DOM calls the devtools hook's
 * checkDCE/inject while it evaluates; preact's module body binds `Promise.prototype.then` for its
 * render queue (the lite build uses preact's core without compat). Also records when the first
 * heartbeat request is issued.
 */
const WATCH = `(() => {
  const mark = () => { if (window.__uiEvaluatedAt === undefined) window.__uiEvaluatedAt = performance.now(); };
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = { supportsFiber: true, renderers: new Map(), checkDCE: mark, inject() { mark(); return 1; }, onCommitFiberRoot() {}, onCommitFiberUnmount() {}, onScheduleFiberRoot() {}, onPostCommitFiberRoot() {} };
  const bind = Function.prototype.bind;
  Function.prototype.bind = function () { if (this === Promise.prototype.then) mark(); return bind.apply(this, arguments); };
  const f = window.fetch;
  window.fetch = function (input, init) {
    if (window.__heartbeatAt === undefined && String(input).includes('com_jrealtimeanalytics')) window.__heartbeatAt = performance.now();
    return f.apply(this, arguments);
  };
})();`;

it('runs the UI library only when a surface is needed, after the first heartbeat is on its way', async () => {
  server.on('stream.display', (r, n) =>
    componentAnswer(
      r,
      { daemonrefresh: 0.5, enable_debug: 1 },
      n === 2 ? { loading: [{ corefile: 'Jetzt', details: 'Debug' }] } : {},
    ),
  );
  server.page('/deferred.html', fixturePage({ attrs: { 'data-consent': 'off' } }));
  const context = await browser.newContext();
  await grantConsent(context, server.origin);
  const page = await context.newPage();
  const errors = collectPageErrors(page);
  await page.addInitScript(WATCH);
  await page.goto(`${server.origin}/deferred.html`);
  await server.waitFor('stream.display', 2);
  const w = () =>
    page.evaluate(() => ({
      ui: (window as unknown as { __uiEvaluatedAt?: number }).__uiEvaluatedAt,
      beat: (window as unknown as { __heartbeatAt?: number }).__heartbeatAt,
    }));
  // two heartbeats answered, nothing to show yet: the UI library has not run a line
  expect((await w()).ui).toBeUndefined();
  expect((await w()).beat).toBeGreaterThan(0);
  // the third answer carries a debug message: now the debug box needs the UI library
  await page.waitForFunction(() => document.querySelector('pagepulse-debug'));
  const after = await w();
  expect(after.ui).toBeGreaterThan(after.beat!);
  expect(errors).toEqual([]);
  await context.close();
});
